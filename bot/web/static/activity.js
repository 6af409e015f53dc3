// @ts-check
// The table inside Discord (an Activity): sign in the way Discord documents it, then open the
// table client (app.js) with the ticket the server gives.
//
//   the Discord client --(the SDK's handshake, READY)--> this page
//   authorize (scope identify) → a code → POST /.proxy/api/token → an access token
//   authenticate (the token)   → POST /.proxy/api/session (token, instance) → ticket, seat
//   the table's socket: /.proxy/ws?t=TICKET
//
// The server never trusts this page: it learns who the person is from Discord with the token
// and checks that they are in this Activity's instance (its channel gives the table). Every
// request goes to the page's own origin under /.proxy/ (Discord's proxy, the only host an
// Activity may reach). A reload signs in again and comes back to the same seat.

import { DiscordSDK } from "./discord-sdk.js";
import { startTable } from "./app.js";

const BASE = "/.proxy";
const signin = /** @type {HTMLElement} */ (document.getElementById("signin"));

// Shown before the server has said anything else (it sends every other text, in the
// person's language): the page's sign-in line holds them in every language at once, since
// which one is the person's is not known yet (bot/web/static_files.py writes them there).
const SIGNING_IN = signin.dataset.signingIn ?? "";
const NO_SIGN_IN = signin.dataset.noSignIn ?? "";

// ms: a Discord client that never answers the handshake leaves the SDK waiting: the page
// says so instead of waiting for ever
const READY_WITHIN = 10000;
// the SDK protocol's opcode by which the Discord client closes the frame's connection (a
// wrong client id: 4000, a wrong origin: 4001); the SDK only parses it and goes on waiting
const CLOSE = 2;

/** A refusal the page says; ``retryAfter``: seconds after which it asks again by itself (the
 * table is coming back: a restart restores it), else null. */
class Refused extends Error {
  /** @param {string} message @param {number | null} retryAfter */
  constructor(message, retryAfter = null) {
    super(message);
    this.retryAfter = retryAfter;
  }
}

/** The application's client id: Discord serves every Activity at
 * ``https://<client id>.discordsays.com`` (the harness of the tests at
 * ``http://<client id>.localhost:PORT``), so the host's first label names it.
 * @param {string} hostname */
export function clientIdOf(hostname) {
  const first = hostname.split(".")[0];
  return /^\d+$/.test(first) ? first : null;
}

/** @param {string} path @param {Object<string, unknown>} body */
async function post(path, body) {
  let response;
  try {
    response = await fetch(BASE + path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    throw new Refused(NO_SIGN_IN);
  }
  const answer = await response.json().catch(() => null);
  // a refusal: {"error": CODE, "message": TEXT in the person's language}
  if (!response.ok || !answer || answer.error) {
    const later = answer?.error === "restoring" ? Number(response.headers.get("Retry-After")) || 2 : null;
    throw new Refused(answer?.message || NO_SIGN_IN, later);
  }
  return answer;
}

/** @param {string} text @param {boolean} bad */
function show(text, bad) {
  signin.textContent = text;
  signin.classList.toggle("bad", bad);
  signin.hidden = false;
  signin.dataset.state = bad ? "refused" : "signing-in";
}

async function signIn() {
  const clientId = clientIdOf(location.hostname);
  if (!clientId) throw new Refused(NO_SIGN_IN);
  const sdk = new DiscordSDK(clientId);
  /** @type {{sdk: DiscordSDK, session?: {seat: number | null, lang: string}}} */
  const look = { sdk }; // for a look from the console (and the tests)
  /** @type {any} */ (window).goujiActivity = look;
  const late = new Promise((_, fail) => setTimeout(() => fail(new Refused(NO_SIGN_IN)), READY_WITHIN));
  await Promise.race([sdk.ready(), late]);
  let code;
  try {
    ({ code } = await sdk.commands.authorize({
      client_id: clientId,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify"],
    }));
  } catch {
    throw new Refused(NO_SIGN_IN); // the person declined, or Discord could not ask
  }
  const { access_token: accessToken } = await post("/api/token", { code });
  try {
    await sdk.commands.authenticate({ access_token: accessToken });
  } catch {
    throw new Refused(NO_SIGN_IN);
  }
  const session = await askForSeat(accessToken, sdk.instanceId);
  look.session = { seat: session.seat, lang: session.lang };
  return session;
}

/** The seat (a ticket) for the token's person at the instance's table; while the table is
 * coming back, said on the page and asked again after the server's Retry-After. */
async function askForSeat(/** @type {string} */ accessToken, /** @type {string} */ instanceId) {
  for (;;) {
    try {
      return await post("/api/session", { access_token: accessToken, instance_id: instanceId });
    } catch (error) {
      const later = error instanceof Refused ? error.retryAfter : null;
      if (later === null) throw error;
      show(/** @type {Refused} */ (error).message, false);
      await new Promise((done) => setTimeout(done, later * 1000));
    }
  }
}

/** Fails once the Discord client closes the connection: the page says so at once. */
function closedByTheClient() {
  return new Promise((_, fail) => {
    addEventListener("message", (event) => {
      const data = event.data;
      if (event.source === window.parent && Array.isArray(data) && data[0] === CLOSE) {
        fail(new Refused(NO_SIGN_IN));
      }
    });
  });
}

show(SIGNING_IN, false);
Promise.race([signIn(), closedByTheClient()]).then(
  (session) => {
    signin.hidden = true;
    signin.dataset.state = "in";
    startTable({ ticket: session.ticket, base: BASE, lang: session.lang });
  },
  (error) => show(error instanceof Refused ? error.message : NO_SIGN_IN, true),
);
