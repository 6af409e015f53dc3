// @ts-check
// The table client: the whole table at a glance and your hand along the bottom. It shows
// what the server sends and sends what you do; the server judges every action. A
// selection is legal when its cards, sorted, are one of the legal plays the server sent
// (no rule of the game here); its words come from the server ("describe"), and so does every
// word it shows: the texts, how the language joins them and the card faces are in the
// server's hello. A frame of a kind this client does not know is logged and skipped.

import { TableSocket } from "./net.js";
import { BIG_JOKER, SMALL_JOKER, TWO, canonical, cardFace, letterOf, playRow, rankOf, setFaces, suitOrder } from "./cards.js";
import { layoutHand, takeGestures } from "./hand.js";

/** @typedef {import("./frames.js").Frame} Frame */
/** @typedef {import("./frames.js").State} State */
/** @typedef {import("./frames.js").Hint} Hint */
/** @typedef {import("./frames.js").QuestionPart} QuestionPart */
/** @typedef {import("./frames.js").Request} Request */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const app = $("app");
let ticket = ""; // who this page is: the socket's ticket (see startTable)
let base = ""; // the path the server's routes are under ("" or "/.proxy" inside Discord)
/** @type {TableSocket} */
let socket;
const state = {
  /** @type {Object<string, string>} */
  strings: {},
  /** @type {import("./frames.js").Words} */
  words: { list: "", dot: "", times: "" },
  lang: localStorage.getItem("gouji-lang") || "",
  /** @type {string[]} */
  langs: [], // the languages the server speaks (its hello)
  /** @type {number | null} */
  seat: null,
  /** @type {import("./frames.js").TablePart | null} */
  table: null,
  /** @type {import("./frames.js").MePart | null} */
  me: null,
  v: 0,
  offset: 0, // server time − this clock, seconds
  handKey: "",
  /** @type {Set<number>} */
  selected: new Set(), // indices into the sorted hand
  described: { key: "", text: "", legal: false },
  notice: { text: "", bad: false },
  hinted: "",
  /** @type {number | string | null} */
  busy: null, // the id of the action waiting for its answer
  up: true,
  gone: "", // the table ended or the link was refused: said, and no coming back
  /** @type {{cards: string, text: string, seat: number | null, number: number | null} | null} */
  lastStanding: null, // the newest play that stood: shown, dimmed, until the next lead
  confirming: false, // 托管 asked for: its confirmation is open
  resultSeen: "", // the game result this page has closed (or gone on from)
  scoreOpen: false, // the scoreboard is open (the score in the bar opens it)
  seriesSeen: "", // the finished series whose scoreboard this page has closed
  tributeSeen: "", // the deal whose tribute scene this page has closed
  muted: localStorage.getItem("gouji-muted") === "1", // no sound, no vibration (the bar's switch)
  /** @type {string[]} */
  announced: [], // what this page announced (a sound, a vibration): "turn", "burn"
  moved: "", // the play last moved from its seat to the middle
  waiting: "", // the server said to come back (the table is coming back): said meanwhile
};

/** A text with its placeholders ({n}) filled.
 * @param {string} text
 * @param {Object<string, string | number>} params */
function fill(text, params) {
  let s = text;
  for (const [k, v] of Object.entries(params)) s = s.replaceAll(`{${k}}`, String(v));
  return s;
}

/** The server's text of ``key`` (the key itself if it sent none), filled.
 * @param {string} key
 * @param {Object<string, string | number>} [params] */
function t(key, params = {}) {
  return fill(state.strings[key] ?? key, params);
}

/** How many of a card: "×3".
 * @param {number} n */
function times(n) {
  return fill(state.words.times, { n });
}

/** @param {string} tag @param {string} cls @param {string} text */
function el(tag, cls = "", text = "") {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text) e.textContent = text;
  return e;
}

// A region is drawn again only when what it shows changed: every AI move is a state, and a
// phone that redrew the whole table for each one would spend its battery on the same pixels.
/** @type {WeakMap<Element, string>} */
const drawn = new WeakMap(); // a region -> the key of what it shows
/** @param {Element} region @param {...unknown} what */
function changed(region, ...what) {
  const key = JSON.stringify([state.lang, ...what]);
  if (drawn.get(region) === key) return false;
  drawn.set(region, key);
  return true;
}

/** @param {Element} node @param {string} text */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function socketUrl() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const lang = state.lang ? `&lang=${state.lang}` : "";
  return `${proto}//${location.host}${base}/ws?t=${encodeURIComponent(ticket)}${lang}`;
}

/** Open the table for the holder of ``options.ticket``, the server's routes under
 * ``options.base`` (default ""; an Activity's are under "/.proxy"), in ``options.lang`` if
 * given (else the one chosen last on this browser, else the browser's).
 * @param {{ticket: string, base?: string, lang?: string}} options */
export function startTable(options) {
  ticket = options.ticket;
  base = options.base || "";
  if (options.lang) state.lang = options.lang;
  socket = new TableSocket(socketUrl, onMessage, (up) => {
    state.up = up;
    renderStatus();
  });
  /** @type {any} */ (window).gouji = { state, socket }; // for a look from the console (and the tests)
  setInterval(tick, 250);
  document.addEventListener("visibilitychange", sayShown);
  $("lang").addEventListener("click", () => {
    const langs = state.langs;
    if (!langs.length) return; // before the server's hello
    const lang = langs[(langs.indexOf(state.lang) + 1) % langs.length];
    localStorage.setItem("gouji-lang", lang);
    state.lang = lang;
    socket.send({ t: "lang", lang });
  });
  $("auto").addEventListener("click", () => confirmAuto(true));
  $("sound").addEventListener("click", () => {
    state.muted = !state.muted;
    localStorage.setItem("gouji-muted", state.muted ? "1" : "0");
    renderBar();
  });
  // a browser lets a page make sound only after a gesture: the first tap wakes its audio
  addEventListener("pointerdown", () => void audio()?.resume(), { once: true });
  $("confirm-yes").addEventListener("click", () => {
    confirmAuto(false);
    request("auto");
  });
  $("confirm-no").addEventListener("click", () => confirmAuto(false));
  $("result-button").addEventListener("click", closeResult);
  $("score").addEventListener("click", () => showScoreboard(true));
  $("scoreboard-close").addEventListener("click", () => showScoreboard(false));
  $("tribute-close").addEventListener("click", () => {
    state.tributeSeen = tributeKey();
    renderTribute();
  });
  $("event").addEventListener("click", () => showStandings(true));
  $("standings-close").addEventListener("click", () => showStandings(false));
  addEventListener("resize", () => renderHand());
  takeGestures($("hand"), (i) => state.selected.has(i), (indices, on) => {
    for (const i of indices) {
      if (on) state.selected.add(i);
      else state.selected.delete(i);
    }
    changedSelection();
  });
}

// ------------------------------------------------------------------ messages
/** @param {Frame} msg */
function onMessage(msg) {
  switch (msg.t) {
    case "hello":
      state.waiting = "";
      state.strings = msg.strings;
      state.words = msg.words;
      state.seat = msg.seat;
      state.lang = msg.lang;
      state.langs = msg.langs;
      document.documentElement.lang = msg.tag;
      setFaces(msg.faces);
      app.dataset.lang = msg.lang;
      app.dataset.seat = msg.watching ? "watching" : String(msg.seat);
      sayShown();
      break;
    case "state":
      onState(msg);
      break;
    case "described":
      if (msg.cards === selectionKey()) {
        state.described = { key: msg.cards, text: msg.text, legal: msg.legal };
        renderControls();
      }
      break;
    case "hint":
      onHint(msg);
      break;
    case "ok":
      if (msg.id === state.busy) state.busy = null;
      state.selected.clear();
      renderHand();
      renderControls();
      break;
    case "refused":
      if (msg.id === state.busy) state.busy = null;
      say(msg.text, true);
      renderControls();
      break;
    case "gone":
      onGone(msg.text);
      break;
    case "wait":
      state.waiting = msg.text;
      renderStatus();
      break;
    case "pong":
      break;
    default:
      unknown(msg);
  }
}

/** The table ended (or the link was refused): nothing of it stays that could be acted on —
 * no hand, no question, no clock, no turn — and the end is said in the middle of the page.
 * @param {string} text */
function onGone(text) {
  state.gone = text;
  state.me = null;
  state.selected.clear();
  state.confirming = false;
  state.lastStanding = null;
  if (state.table) state.table = { ...state.table, toAct: [], deadline: null, burn: false, melee: false, standing: null, standingSeat: null };
  app.dataset.gone = "true";
  scheduleRender();
}

/** A frame of a kind this client does not know (a newer server?): logged, and skipped.
 * @param {never} msg */
function unknown(msg) {
  const kind = /** @type {{t: unknown}} */ (msg).t;
  console.warn("gouji: skipped a frame of unknown kind", kind);
}

/** @param {State} msg */
function onState(msg) {
  state.offset = msg.now - Date.now() / 1000;
  const before = state.me?.question?.token;
  state.table = msg.table;
  state.me = msg.me;
  const table = msg.table;
  if (table.standing) {
    state.lastStanding = { cards: table.standing, text: table.standingText, seat: table.standingSeat, number: table.number };
  } else if (state.lastStanding && (state.lastStanding.number !== table.number || !table.playing)) {
    state.lastStanding = null; // a new deal, or the end: a new lead starts afresh
  }
  state.v = msg.v;
  state.seat = msg.me ? msg.me.seat : state.seat;
  const question = state.me?.question;
  const hand = sortedHand();
  const key = hand.join(" ");
  if (key !== state.handKey) {
    state.handKey = key;
    state.selected.clear();
  }
  if (question?.token !== before) {
    if (question?.kind === "turn" || question?.kind === "burn") announce(question.kind);
    state.hinted = "";
    if (state.busy === null) state.notice = { text: "", bad: false };
    if (question?.kind === "return") state.selected.clear();
  }
  scheduleRender();
}

// States can come several a frame (each AI move is one): the page is drawn once a frame,
// with the newest; its data attributes say which state it shows.
let drawing = false;
function scheduleRender() {
  if (drawing) return;
  drawing = true;
  requestAnimationFrame(() => {
    drawing = false;
    render();
    const question = state.me?.question;
    app.dataset.v = String(state.v);
    app.dataset.playing = String(state.table?.playing);
    app.dataset.asking = question ? question.kind : "";
    app.dataset.token = question ? question.token : "";
  });
}

/** @param {Hint} msg */
function onHint(msg) {
  say(msg.text, false);
  const cards = msg.cards || "";
  if (!cards) {
    state.hinted = msg.verb;
    renderControls();
    return;
  }
  // select the hinted cards: that many of each rank, from the hand
  /** @type {Object<string, number>} */
  const want = {};
  for (const letter of cards.replace(/\s/g, "")) want[letter] = (want[letter] || 0) + 1;
  state.selected.clear();
  sortedHand().forEach((card, i) => {
    if (want[card[0]] > 0) {
      want[card[0]] -= 1;
      state.selected.add(i);
    }
  });
  changedSelection();
}

/** @param {string} text @param {boolean} bad */
function say(text, bad) {
  state.notice = { text, bad };
  const notice = $("notice");
  notice.textContent = text;
  notice.classList.toggle("bad", bad);
}

// ------------------------------------------------------------------ the hand and selection
function sortedHand() {
  const hand = state.me ? [...state.me.hand] : [];
  return hand.sort((a, b) => rankOf(a) - rankOf(b) || suitOrder(a) - suitOrder(b));
}

function selectedCards() {
  const hand = sortedHand();
  return [...state.selected].sort((a, b) => a - b).map((i) => hand[i]);
}

function selectionKey() {
  return canonical(selectedCards());
}

function changedSelection() {
  const question = state.me?.question;
  const key = selectionKey();
  if (key && question && (question.kind === "turn" || question.kind === "burn") && key !== state.described.key) {
    socket.send({ t: "describe", cards: key });
  }
  renderHand();
  renderControls();
}

/** @param {QuestionPart} question */
function returnReady(question) {
  const cards = selectedCards();
  if (cards.length !== question.returnCount) return false;
  const counts = new Array(15).fill(0);
  for (const card of cards) counts[rankOf(card)] += 1;
  return counts.every((n, rank) => n <= (question.returnable[rank] || 0));
}

// ------------------------------------------------------------------ acting
/** @param {string} verb @param {string | null} cards */
function act(verb, cards = null) {
  const question = state.me?.question;
  if (!question || state.busy !== null) return;
  const id = socket.send({ t: "act", verb, cards, token: question.token });
  if (id === null) return;
  state.busy = id;
  renderControls();
}

/** @param {"hint" | "back" | "auto" | "again" | "goon"} kind */
function request(kind) {
  const id = socket.send({ t: kind });
  if (id !== null && kind !== "hint") state.busy = id;
}

/** Tell the server whether this page is shown: while it is, the seat's questions notify
 * nobody through Discord (one notification a question, wherever it is answered). */
function sayShown() {
  socket.send({ t: "shown", shown: document.visibilityState === "visible" });
}

// ------------------------------------------------------------------ drawing
function render() {
  renderTribute();
  renderResult();
  renderScoreboard();
  renderBar();
  renderSeats();
  renderCentre();
  renderLog();
  renderControls();
  renderHand();
  renderStatus();
  tick();
}

function renderBar() {
  const table = state.table;
  setText($("title"), t("web_title"));
  setText($("lang"), t("web_lang"));
  const games = table && table.number ? t("table_caption", { number: table.number, total: table.games }) : "";
  setText($("series"), games);
  // the score: each team's name (hidden on a narrow screen, its colour dot stays) and points
  const score = table?.score;
  if (changed($("score"), score?.teams)) $("score").replaceChildren(
    ...(score
      ? [0, 1].map((team) => {
          const side = el("span", `side team${team}`);
          side.append(el("i", "dot"), el("span", "tname", t(team ? "label_team_b" : "label_team_a")), el("b", "", String(score.teams[team])));
          return side;
        })
      : []),
  );
  $("score").hidden = !score;
  renderEvent();
  const mine = state.seat !== null && table ? table.seats[state.seat] : null;
  const auto = $("auto");
  auto.hidden = !mine || !table?.playing || mine.marks.includes("ai") || Boolean(state.gone);
  setText(auto, t("web_auto"));
  renderConfirm(!auto.hidden);
  const sound = $("sound");
  sound.hidden = state.seat === null || calm.matches;
  setText(sound, t(state.muted ? "web_sound_off" : "web_sound_on"));
}

/** Open (or close) the question whether the AI should play your seat (托管).
 * @param {boolean} open */
function confirmAuto(open) {
  state.confirming = open;
  renderBar();
}

/** 托管's confirmation: what it does, and the two buttons; closed when 托管 is no longer
 * offered (the seat is the AI's already, the series is over).
 * @param {boolean} offered */
function renderConfirm(offered) {
  const panel = $("confirm");
  if (!offered) state.confirming = false;
  panel.hidden = !state.confirming;
  setText($("confirm-text"), t("web_auto_confirm"));
  setText($("confirm-yes"), t("web_auto"));
  setText($("confirm-no"), t("web_cancel"));
}

// ------------------------------------------------------------------ a tournament's table
/** Open (or close) the standings panel.
 * @param {boolean} open */
function showStandings(open) {
  $("standings").hidden = !open || !state.table?.event;
  renderEvent();
}

/** The bar's button of a round's table (the event and its round) and, when open, the
 * standings panel: rank, name, points, rounds played, out/left. */
function renderEvent() {
  const event = state.table?.event;
  const button = $("event");
  button.hidden = !event;
  const panel = $("standings");
  if (!event) {
    panel.hidden = true;
    return;
  }
  setText(button, `${event.name}${state.words.dot}${event.title}`);
  if (panel.hidden || !changed(panel, event)) return;
  setText($("standings-title"), `${event.name}${state.words.dot}${t("web_event_standings")}`);
  setText($("standings-close"), t("web_event_close"));
  const head = el("tr");
  for (const key of ["web_event_rank", "web_event_player", "web_event_points", "web_event_rounds", ""]) head.append(el("th", "", key ? t(key) : ""));
  const rows = event.lines.map((line) => {
    const row = el("tr", line.mark ? "out" : "");
    row.append(el("td", "rank", String(line.rank)), el("td", "name", line.name), el("td", "points", String(line.points)), el("td", "rounds", String(line.rounds)), el("td", "mark", line.mark));
    return row;
  });
  const grid = el("table");
  grid.append(el("thead"), el("tbody"));
  grid.tHead?.append(head);
  grid.tBodies[0].append(...rows);
  $("standings-body").replaceChildren(grid);
}

function bottomSeat() {
  return state.seat ?? 0;
}

function renderSeats() {
  const table = state.table;
  const seats = $("seats");
  if (!table) {
    seats.replaceChildren();
    return;
  }
  if (seats.children.length !== table.seats.length) {
    seats.replaceChildren(...table.seats.map(() => el("div")));
  }
  const bottom = bottomSeat();
  table.seats.forEach((seat, s) => {
    const pos = (s - bottom + 6) % 6;
    const turn = table.toAct.includes(s);
    const shown = /** @type {HTMLElement} */ (seats.children[s]);
    if (!changed(shown, seat, pos, turn, s === state.seat)) return;
    const plate = el("div", `seat team${seat.team}`);
    plate.dataset.seat = String(s);
    plate.dataset.pos = String(pos);
    plate.classList.toggle("turn", turn);
    plate.classList.toggle("me", s === state.seat);
    const avatar = el("div", "avatar", initials(seat.name));
    const name = el("div", "name", seat.name);
    if (s === state.seat) name.append(el("span", "you", t("web_you")));
    const count = el("div", "count");
    count.append(el("span", "back"), el("b", "", String(seat.cards)), el("span", "unit", t("label_cards")));
    const marks = el("div", "marks");
    if (seat.place) marks.append(el("span", `chip place p${seat.place}`, t(`place_${seat.place}`)));
    for (const mark of seat.marks) marks.append(el("span", `chip ${mark}`, t(`label_${mark}`)));
    const body = el("div", "body");
    body.append(name, count);
    plate.append(avatar, body, marks);
    if (turn) {
      const clock = el("div", "clock");
      clock.dataset.seat = String(s);
      plate.append(clock);
    }
    const last = seat.last;
    if (last) {
      const action = el("div", "last");
      if (last.cards) action.append(playRow(last.cards, "small"));
      else action.append(el("span", "bubble", t(`label_${last.verb}`)));
      plate.append(action);
    }
    drawn.set(plate, drawn.get(shown) ?? "");
    shown.replaceWith(plate);
  });
}

/** A seat's avatar: the first letters of its name's first and last words ("AI 3" → "A3",
 * "Ann Lee" → "AL"), the first of a one-word name ("济南" → "济").
 * @param {string} name */
function initials(name) {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return "?";
  const first = [...words[0]][0];
  return words.length > 1 ? (first + [...words[words.length - 1]][0]).toUpperCase() : first.toUpperCase();
}

function renderCentre() {
  const table = state.table;
  const standing = $("standing");
  // the play standing, or the round's last one (nobody beat it) until the next lead
  const shown = table?.standing ? null : state.lastStanding;
  const play = table?.standing ? { cards: table.standing, text: table.standingText, seat: table.standingSeat } : shown;
  const who = table && play && play.seat !== null ? table.seats[play.seat] : null;
  const held = outsideHand();
  const what = table && [play, Boolean(shown), who?.name, who?.team, table.burn, table.melee, table.counter, held];
  if (!changed(standing, what)) return;
  standing.replaceChildren();
  const by = $("standing-by");
  by.textContent = "";
  const banner = $("banner");
  banner.textContent = "";
  $("centre").classList.toggle("over", Boolean(shown));
  if (!table) return;
  if (play) {
    standing.append(playRow(play.cards, "big"));
    if (!shown) move(standing, play.seat, `${table.number}:${play.seat}:${play.cards}:${who?.cards}`);
    by.textContent = (who ? who.name : "") + state.words.dot + play.text + (shown ? state.words.dot + t("web_unbeaten") : "");
    by.className = who ? `team${who.team}` : "";
  }
  if (table.burn) banner.textContent = t("label_burning");
  else if (table.melee) banner.textContent = t("label_melee");
  const counter = $("counter");
  counter.replaceChildren();
  counter.hidden = !table.counter;
  if (table.counter) {
    // a seat's counter counts what is outside its hand (as gouji play's), and says so
    counter.append(el("div", "title", t(held ? "web_counter_outside" : "label_counter")));
    const { big, small, twos } = table.counter;
    const mine = held || [0, 0, 0];
    /** @type {[number, number][]} */
    const out = [[BIG_JOKER, big - mine[0]], [SMALL_JOKER, small - mine[1]], [TWO, twos - mine[2]]];
    for (const [rank, n] of out) {
      const item = el("span", "item");
      item.append(cardFace(letterOf(rank)), el("b", "", times(n)));
      counter.append(item);
    }
  }
}

/** The big jokers, small jokers and 2s of the seat's hand (null for a spectator, or a seat
 * without a hand): the 记牌器 takes them off what is not yet played. */
function outsideHand() {
  if (!state.me) return null;
  /** @param {number} rank */
  const count = (rank) => state.me ? state.me.hand.filter((card) => rankOf(card) === rank).length : 0;
  return [count(BIG_JOKER), count(SMALL_JOKER), count(TWO)];
}

// ------------------------------------------------------------------ motion and sound
// Where they help, briefly: your turn and a burn window announce themselves (a short tone and,
// on a phone, a short vibration), a played hand moves from its seat to the middle (220 ms);
// none of it when the system asks for reduced motion, no sound or vibration once muted.
const calm = matchMedia("(prefers-reduced-motion: reduce)");
const MOVE_MS = 220;
/** @type {AudioContext | null} */
let context = null;

function audio() {
  if (!context && typeof AudioContext !== "undefined") context = new AudioContext();
  return context;
}

/** A short tone (or two, for a burn window) and a vibration where the phone allows.
 * @param {"turn" | "burn"} kind */
function announce(kind) {
  if (state.muted || calm.matches || state.seat === null) return;
  state.announced.push(kind);
  const ctx = audio();
  if (ctx) {
    const tones = kind === "burn" ? [660, 880] : [880];
    tones.forEach((hz, i) => {
      const start = ctx.currentTime + i * 0.14;
      const tone = ctx.createOscillator();
      const gain = ctx.createGain();
      tone.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.15, start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.12);
      tone.connect(gain).connect(ctx.destination);
      tone.start(start);
      tone.stop(start + 0.13);
    });
  }
  if (navigator.vibrate) navigator.vibrate(kind === "burn" ? [40, 60, 40] : 60);
}

/** Move a new play from its seat's plate to the middle, where it stands.
 * @param {HTMLElement} standing @param {number | null} seat @param {string} key */
function move(standing, seat, key) {
  if (key === state.moved) return;
  state.moved = key;
  if (calm.matches || seat === null) return;
  const plate = document.querySelector(`#seats .seat[data-seat="${seat}"]`);
  if (!plate) return;
  const from = plate.getBoundingClientRect();
  const to = standing.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  standing.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(0.5)`, opacity: 0.5 }, { transform: "none", opacity: 1 }],
    { duration: MOVE_MS, easing: "ease-out" },
  );
}

// ------------------------------------------------------------------ a game's result
/** The key of a result (which game, which points): closed once, it stays closed.
 * @param {import("./frames.js").ResultPart} result */
function resultKey(result) {
  return `${state.table?.table}:${result.number}:${result.points.join(",")}`;
}

/** 继续 (the next deal waits for this seat) or close (nothing waits). */
function closeResult() {
  const result = state.table?.result;
  if (!result) return;
  state.resultSeen = resultKey(result);
  if (state.seat !== null && result.waiting.includes(state.seat)) request("goon");
  renderResult();
  renderScoreboard(); // the series over: its scoreboard comes next
}

// ------------------------------------------------------------------ the tribute
/** The key of a deal's tribute (which table, game and payments): its scene closed once. */
function tributeKey() {
  const tribute = state.table?.tribute;
  return tribute ? `${state.table?.table}:${state.table?.number}:${JSON.stringify(tribute.paid)}` : "";
}

/** Whether play has begun in this deal: a play stands or a seat has acted. */
function playBegun() {
  const table = state.table;
  return Boolean(table && (table.standing || table.seats.some((seat) => seat.last)));
}

/** The tribute as a scene, before play begins (and while 还贡 is made): each payment, its
 * kind, payer → receiver and the cards face up; each return due and whether it is made; the
 * table's return rule in words; the cards you received (marked 贡 in your hand). */
function renderTribute() {
  const panel = $("tribute");
  const table = state.table;
  const tribute = table?.tribute;
  const open = Boolean(table && tribute && !state.gone && table.playing && !playBegun() && state.tributeSeen !== tributeKey());
  panel.hidden = !open;
  app.dataset.tribute = open ? "open" : "";
  if (!open || !table || !tribute) return;
  const received = state.me?.received ?? [];
  if (!changed(panel, tribute, table.seats.map((s) => s.name), received)) return;
  setText($("tribute-title"), t("web_tribute_title"));
  setText($("tribute-close"), t("web_event_close"));
  /** @param {number} s */
  const who = (s) => {
    const name = el("span", `who team${table.seats[s].team}`);
    name.append(el("i", "dot"), document.createTextNode(table.seats[s].name));
    return name;
  };
  $("tribute-paid").replaceChildren(
    ...tribute.paid.map((paid) => {
      const line = el("div", `paid ${paid.kind}`);
      line.dataset.payer = String(paid.payer);
      line.dataset.receiver = String(paid.receiver);
      line.append(el("span", "kind", paid.kindText), who(paid.payer), el("span", "arrow", "→"), who(paid.receiver), playRow(paid.cards, "small"));
      return line;
    }),
  );
  $("tribute-returns").replaceChildren(
    ...tribute.returns.map((due) => {
      const line = el("div", `due${due.done ? " done" : ""}`);
      line.append(who(due.giver), el("span", "arrow", "→"), who(due.taker), el("span", "", t("web_tribute_return", { n: due.count })));
      if (due.done) line.append(el("span", "made", t("web_tribute_done")));
      return line;
    }),
  );
  setText($("tribute-rule"), tribute.rule);
  const mine = $("tribute-mine");
  mine.replaceChildren();
  if (received.length) {
    mine.append(el("span", "", t("web_tribute_received")), playRow(received.map((card) => card[0]).join(""), "small"));
  }
}

/** Mark the hand's cards that came as tribute (贡), as many of each as were received. */
function markReceived() {
  const left = [...(state.me?.received ?? [])];
  for (const card of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#hand .card"))) {
    const at = left.indexOf(card.dataset.card ?? "");
    card.classList.toggle("got", at >= 0 && state.table?.phase !== "finished");
    if (at >= 0) {
      card.dataset.got = t("web_tribute_mark");
      left.splice(at, 1);
    }
  }
}

// ------------------------------------------------------------------ the series' scoreboard
/** The key of a finished series (which table, its totals): its end shown once. */
function seriesKey() {
  const score = state.table?.score;
  return score ? `${state.table?.table}:${score.played}:${score.scores.join(",")}` : "";
}

/** Whether the series is over and its scoreboard not yet closed on this page. */
function seriesEnd() {
  const table = state.table;
  return Boolean(table && table.started && !table.playing && table.score && table.games > 1 && state.seriesSeen !== seriesKey());
}

/** Open (or close) the scoreboard.
 * @param {boolean} open */
function showScoreboard(open) {
  state.scoreOpen = open;
  if (!open && seriesEnd()) state.seriesSeen = seriesKey();
  renderScoreboard();
}

/** The scoreboard: per seat each game's points (its place under them), the seat's points,
 * the player's series score and, once the series is over, the rating change; what each
 * column means; at the series' end, 再来一场. Shown when the score in the bar is tapped, and
 * by itself once a series is over (after the last game's result). */
function renderScoreboard() {
  const panel = $("scoreboard");
  const table = state.table;
  const score = table?.score;
  const resultOpen = !$("result").hidden;
  const open = Boolean(table && score && !state.gone && (state.scoreOpen || (seriesEnd() && !resultOpen)));
  panel.hidden = !open;
  app.dataset.scoreboard = open ? "open" : "";
  if (!open || !table || !score) return;
  const over = !table.playing;
  setText($("scoreboard-close"), t("web_event_close"));
  const go = $("scoreboard-go");
  if (over && state.seat !== null && go.childElementCount === 0) {
    go.append(button(t("web_again"), () => { showScoreboard(false); request("again"); }, "primary", "again"));
  } else if (!over || state.seat === null) go.replaceChildren();
  if (!changed(panel, score, table.seats.map((s) => s.name), table.games, over)) return;
  setText($("scoreboard-title"), t(over ? "web_score_over" : "web_score_title", { played: score.played, total: table.games }));
  const rated = score.ratingChange.some((r) => r !== null);
  const head = el("tr");
  head.append(el("th", "", ""));
  score.games.forEach((game, i) => head.append(el("th", "game", t("web_score_game", { n: i + 1 }) + (game.doubled ? times(2) : ""))));
  head.append(el("th", "", t("web_score_seat")), el("th", "", t("web_score_series")));
  if (rated) head.append(el("th", "", t("web_score_rating")));
  const titled = score.titles.some(Boolean);
  if (titled) head.append(el("th", "", t("web_score_title_column")));
  const signed = (/** @type {number} */ n) => (n > 0 ? `+${n}` : String(n));
  const rows = table.seats.map((seat, s) => {
    const row = el("tr", `team${seat.team}${s === state.seat ? " me" : ""}`);
    const name = el("td", "name");
    name.append(el("i", "dot"), document.createTextNode(seat.name));
    row.append(name);
    for (const game of score.games) {
      // a game still played shows its points so far (the tribute's), dimmed, no place yet
      const cell = el("td", game.finished ? "game" : "game live", signed(game.points[s]));
      const place = game.places[s];
      if (place) cell.append(el("span", `place p${place}`, String(place)));
      row.append(cell);
    }
    row.append(el("td", "total", signed(score.totals[s])), el("td", "series", signed(score.scores[s])));
    if (rated) {
      const change = score.ratingChange[s];
      const after = score.ratingAfter[s];
      row.append(el("td", "rating", change === null || change === undefined ? "" : `${signed(change)} → ${after}`));
    }
    if (titled) row.append(el("td", "earned", score.titles[s] ?? ""));
    return row;
  });
  const grid = el("table");
  grid.append(el("thead"), el("tbody"));
  grid.tHead?.append(head);
  grid.tBodies[0].append(...rows);
  $("scoreboard-body").replaceChildren(grid);
  setText($("scoreboard-note"), t("web_score_note"));
}

/** The finished game's result: the places with names, each seat's points and marks (开点,
 * 烧成, 被闷), the teams' points, whether your team won, and 继续 while the next deal waits
 * for you (or who else it waits for, and the time left). */
function renderResult() {
  const panel = $("result");
  const table = state.table;
  const result = table?.result;
  panel.hidden = !table || !result || Boolean(state.gone) || state.resultSeen === resultKey(result);
  app.dataset.result = panel.hidden ? "" : "open";
  if (panel.hidden || !table || !result) return;
  const mine = state.seat !== null && result.waiting.includes(state.seat);
  setText($("result-button"), t(mine ? "web_go_on" : "web_event_close"));
  const others = result.waiting.filter((s) => s !== state.seat).map((s) => table.seats[s].name);
  setText($("result-wait"), others.length ? t("ctl_wait", { who: others.join(state.words.list) }) : "");
  if (!changed(panel, result, table.seats.map((s) => s.name), state.seat)) return;
  setText($("result-title"), t("web_result_title", { number: result.number }));
  const team = state.seat !== null ? table.seats[state.seat].team : null;
  const [a, b] = result.teams;
  const outcome = team === null ? "" : a === b ? "web_result_draw" : (a > b) === (team === 0) ? "web_result_won" : "web_result_lost";
  const said = $("result-outcome");
  setText(said, outcome ? t(outcome) : "");
  said.className = outcome;
  const order = [0, 1, 2, 3, 4, 5].sort((x, y) => (result.places[x] ?? 9) - (result.places[y] ?? 9));
  $("result-places").replaceChildren(
    ...order.map((s) => {
      const seat = table.seats[s];
      const row = el("tr", `team${seat.team}${s === state.seat ? " me" : ""}`);
      const place = result.places[s];
      const chip = el("td", "place");
      if (place) chip.append(el("span", `chip place p${place}`, t(`place_${place}`)));
      const name = el("td", "name");
      name.append(el("i", "dot"), document.createTextNode(seat.name));
      const marks = el("td", "tags");
      for (const mark of result.marks[s]) marks.append(el("span", `chip ${mark}`, t(`web_result_${mark}`)));
      const points = result.points[s];
      row.append(chip, name, marks, el("td", "points", points > 0 ? `+${points}` : String(points)));
      return row;
    }),
  );
  const teams = $("result-teams");
  teams.replaceChildren(
    ...[0, 1].map((n) => {
      const side = el("span", `side team${n}`);
      side.append(el("i", "dot"), el("span", "", t(n ? "label_team_b" : "label_team_a")), el("b", "", String(result.teams[n])));
      return side;
    }),
  );
}

function renderLog() {
  const log = $("log");
  const lines = state.table?.log || [];
  if (!changed(log, lines)) return;
  log.replaceChildren(...lines.map((line) => el("div", "line", line)));
}

/** @param {string} label @param {() => void} onClick @param {string} cls @param {string} verb */
function button(label, onClick, cls = "", verb = "") {
  const b = /** @type {HTMLButtonElement} */ (el("button", cls, label));
  if (verb) b.dataset.verb = verb;
  if (verb && verb === state.hinted) b.classList.add("hinted");
  b.onclick = onClick;
  return b;
}

// The buttons are updated in place when the same ones are shown again (a new label, another
// state), so that a tap is never lost on a button replaced between finger down and up.
/** @param {HTMLElement} box @param {HTMLButtonElement[]} wanted */
function reconcile(box, wanted) {
  const shown = /** @type {HTMLButtonElement[]} */ ([...box.children]);
  const same = shown.length === wanted.length && shown.every((b, i) => b.dataset.verb === wanted[i].dataset.verb);
  if (!same) {
    box.replaceChildren(...wanted);
    return;
  }
  shown.forEach((b, i) => {
    const w = wanted[i];
    if (b.textContent !== w.textContent) b.textContent = w.textContent;
    b.className = w.className;
    b.disabled = w.disabled;
    b.id = w.id;
    b.onclick = w.onclick;
    if (w.dataset.legal === undefined) delete b.dataset.legal;
    else b.dataset.legal = w.dataset.legal;
  });
}

function renderControls() {
  /** @type {HTMLButtonElement[]} */
  const buttons = [];
  setText($("question"), fillControls(buttons));
  reconcile($("buttons"), buttons);
}

// The buttons for what is asked now, and the question's words (returned).
/** @param {HTMLButtonElement[]} buttons */
function fillControls(buttons) {
  const table = state.table;
  const question = state.me?.question;
  const notice = $("notice");
  setText(notice, state.notice.text);
  notice.classList.toggle("bad", state.notice.bad);
  if (!table || state.gone) return "";
  const mine = state.seat !== null ? table.seats[state.seat] : null;
  if (!table.started) {
    return t("web_waiting_players");
  }
  if (!question) {
    let ask = "";
    if (state.seat === null) ask = t("web_watching");
    else if (mine && mine.marks.includes("ai") && table.playing) {
      ask = t("web_standing_in");
      buttons.push(button(t("web_back"), () => request("back"), "primary", "back"));
    } else if (!table.playing) {
      ask = t("web_series_over");
      buttons.push(button(t("web_again"), () => request("again"), "primary", "again"));
    } else if (mine && mine.marks.includes("revolted") && table.phase !== "finished" && table.phase !== "void") {
      ask = t("revolted_out"); // 革命: this game is played without them; they are 四科
    } else if (table.toAct.length) {
      const who = table.toAct.map((s) => table.seats[s].name).join(state.words.list);
      ask = t("ctl_wait", { who });
    } else if (table.phase === "finished" || table.phase === "void") {
      ask = t("ctl_game_over");
    }
    return ask;
  }
  const busy = state.busy !== null;
  /** @param {HTMLButtonElement} b */
  const add = (b) => {
    if (busy) b.disabled = true;
    buttons.push(b);
  };
  if (question.kind === "return") {
    const chosen = state.selected.size;
    const ready = returnReady(question);
    const label = t("web_return") + state.words.dot + t("web_pick_return", { chosen, n: question.returnCount });
    const go = button(label, () => act("return", selectedCards().map((c) => c[0]).join("")), "primary play", "return");
    go.disabled = !ready;
    add(button(t("btn_hint"), () => request("hint"), "", "hint"));
    add(go);
    return question.text;
  }
  if (question.kind !== "turn" && question.kind !== "burn") {
    for (const verb of question.answers) add(button(t(`btn_${verb}`), () => act(verb), "", verb));
    return question.text;
  }
  for (const verb of question.answers) add(button(t(`btn_${verb}`), () => act(verb), "", verb));
  add(button(t("btn_hint"), () => request("hint"), "", "hint"));
  const key = selectionKey();
  const verb = question.kind === "burn" ? "burn" : "play";
  const legal = key !== "" && question.plays.includes(key);
  const words = state.described.key === key ? state.described.text : t("web_describing");
  let label = t("web_select");
  if (key) label = t(legal ? (verb === "burn" ? "web_burn" : "web_play") : "web_not_a_play") + state.words.dot + words;
  const go = button(label, () => act(verb, key), "primary play", verb);
  go.id = "play";
  go.disabled = !legal || busy;
  go.dataset.legal = String(legal);
  buttons.push(go);
  if (key) buttons.push(button(t("web_clear"), () => { state.selected.clear(); changedSelection(); }, "", "clear"));
  return question.text;
}

// The hand is laid out anew only when its cards, the window or the language change: a tap
// only marks its card chosen (a phone redraws one card, not 36; a finger is never lifted off a
// card that was replaced under it).
let shownHand = "";
function renderHand(force = false) {
  const hand = $("hand");
  const cards = sortedHand();
  hand.hidden = cards.length === 0;
  const key = `${cards.join(" ")}|${innerWidth}x${innerHeight}|${state.lang}`;
  if (key !== shownHand || force) {
    shownHand = key;
    layoutHand(hand, cards, state.selected, cardFace, times);
    markReceived();
    return;
  }
  markReceived();
  for (const card of /** @type {NodeListOf<HTMLElement>} */ (hand.querySelectorAll(".card"))) {
    card.classList.toggle("sel", state.selected.has(Number(card.dataset.index)));
  }
}

function renderStatus() {
  const status = $("status");
  status.classList.toggle("end", Boolean(state.gone));
  if (state.gone || state.waiting) {
    status.textContent = state.gone || state.waiting;
    status.hidden = false;
  } else {
    status.textContent = t("web_reconnecting");
    status.hidden = state.up;
  }
  app.dataset.up = String(state.up && !state.gone && !state.waiting);
}

// The plates' clocks count to the table's deadline; yours beside the question to your
// question's own, and only while you are asked (never another's clock, never a stale one).
function tick() {
  const now = Date.now() / 1000 + state.offset;
  /** @param {number | null | undefined} deadline */
  const left = (deadline) => (deadline === null || deadline === undefined ? null : Math.max(0, Math.ceil(deadline - now)));
  const all = left(state.table?.deadline);
  for (const c of document.querySelectorAll(".clock")) {
    setText(c, all === null ? "" : String(all));
    c.classList.toggle("urgent", all !== null && all <= 10);
  }
  const mine = left(state.me?.question?.deadline);
  setText($("my-clock"), mine === null ? "" : t("web_seconds", { n: mine }));
  const held = left(state.table?.result?.deadline);
  const button = $("result-button");
  button.dataset.left = held === null ? "" : t("web_seconds", { n: held });
}
