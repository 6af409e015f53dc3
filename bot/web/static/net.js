// @ts-check
// The table's WebSocket: it comes back by itself when the connection drops (the same link:
// the same seat and state) and notices a dead one by its own heartbeat. A "gone" frame is
// final; a close with COME_BACK (after a "wait" frame: the table is coming back, the server
// is full) is tried again a few seconds apart for as long as the page is open. A message that
// is no frame (not JSON, no kind) is logged in the console and skipped.

/** @typedef {import("./frames.js").Frame} Frame */
/** @typedef {import("./frames.js").Request} Request */

const PING_EVERY = 10000; // ms between the client's pings
const DEAD_AFTER = 25000; // ms without any message: the socket is taken for dead
const RETRY = [250, 500, 1000, 2000, 4000];
const COME_BACK = 4002; // the server's close code: try again by yourself
const COME_BACK_AFTER = [1000, 2000, 4000, 5000]; // ms

/** A message as a frame: an object with its kind in ``t``, else null (logged). The kinds
 * are the receiver's to know (app.js logs one it does not).
 * @param {string} data
 * @returns {Frame | null} */
export function readFrame(data) {
  let msg;
  try {
    msg = JSON.parse(data);
  } catch {
    msg = null;
  }
  if (msg === null || typeof msg !== "object" || typeof msg.t !== "string") {
    console.warn("gouji: not a frame", data.slice(0, 200));
    return null;
  }
  return msg;
}

export class TableSocket {
  /** ``url()`` gives the address (it may change: the language), ``onMessage(msg)`` gets each
   * frame, ``onStatus(up)`` is told when the connection is lost or served again.
   * @param {() => string} url
   * @param {(msg: Frame) => void} onMessage
   * @param {(up: boolean) => void} onStatus */
  constructor(url, onMessage, onStatus) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.tries = 0;
    this.gone = false; // the table ended or the link was refused: no coming back
    this.nextId = 1;
    this.lastHeard = Date.now();
    this.lastPing = 0;
    this.timer = setInterval(() => this.beat(), PING_EVERY / 2);
    this.open();
  }

  open() {
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.lastHeard = Date.now();
    };
    ws.onmessage = (event) => {
      this.lastHeard = Date.now();
      const msg = readFrame(String(event.data));
      if (msg === null) return;
      if (msg.t === "gone") this.gone = true;
      if (msg.t === "hello") {
        this.tries = 0; // served: the next drop starts the waits again
        this.onStatus(true);
      }
      this.onMessage(msg);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.gone) return;
      this.onStatus(false);
      const waits = event.code === COME_BACK ? COME_BACK_AFTER : RETRY;
      const wait = waits[Math.min(this.tries, waits.length - 1)];
      this.tries += 1;
      setTimeout(() => this.open(), wait);
    };
  }

  beat() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastHeard > DEAD_AFTER) {
      ws.close(); // onclose comes back
      return;
    }
    if (Date.now() - this.lastPing > PING_EVERY || !this.lastPing) {
      this.lastPing = Date.now();
      /** @type {import("./frames.js").PingRequest} */
      const ping = { t: "ping" };
      ws.send(JSON.stringify(ping));
    }
  }

  /** Send a request; returns its id (its answer repeats it), or null when not connected.
   * @param {Request} message
   * @returns {number | null} */
  send(message) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return null;
    const id = this.nextId++;
    ws.send(JSON.stringify({ ...message, id }));
    return id;
  }

  /** Drop the connection (it comes back as after any drop). */
  drop() {
    if (this.ws) this.ws.close();
  }
}
