// @ts-check
// Card faces as in the pictures (render/cards.py): the rank index top left with its suit
// under it and a big suit bottom right; a card without a suit (a play on the table) shows
// its index again upside down (6 and 9 underlined there); the jokers their two characters,
// a crown (solid for the big joker, outlined for the small one) and the joker's word. What a
// face shows (the ranks' indices, the suits' glyphs, the joker's word) is the server's: its
// hello (setFaces). Sizes scale with the card's width (CSS --w).

export const TWO = 12; // the ranks' indices, as the server's letters order them
export const SMALL_JOKER = 13;
export const BIG_JOKER = 14;
const SVG = "http://www.w3.org/2000/svg";

/** @type {import("./frames.js").Faces} */
let faces = { letters: "", ranks: [], suits: {}, joker: "", underlined: [] };

/** What a card face shows (sent by the server in hello).
 * @param {import("./frames.js").Faces} sent */
export function setFaces(sent) {
  faces = sent;
}

/** The rank index of a card ("8h" → 5, "R" → 14).
 * @param {string} card */
export function rankOf(card) {
  return faces.letters.indexOf(card[0]);
}

/** The order of a card's suit in a hand (the order of the server's suits).
 * @param {string} card */
export function suitOrder(card) {
  return Object.keys(faces.suits).indexOf(card[1]);
}

/** The letter of a rank index.
 * @param {number} rank */
export function letterOf(rank) {
  return faces.letters[rank];
}

/** Cards as the canonical notation of the play they make: rank letters, low to high.
 * @param {string[]} cards */
export function canonical(cards) {
  return cards.map(rankOf).sort((a, b) => a - b).map(letterOf).join("");
}

/** @param {boolean} solid */
function crown(solid) {
  // the outline of render/cards.py's _crown, in a 100 × 84 box
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "-8 -2 116 90");
  svg.setAttribute("class", "crown");
  /** @type {(u: number, v: number) => string} */
  const p = (u, v) => `${u * 100},${v * 84}`;
  const outline = [p(0.04, 0.86), p(0, 0.28), p(0.28, 0.56), p(0.5, 0.12), p(0.72, 0.56), p(1, 0.28), p(0.96, 0.86)];
  const shape = document.createElementNS(SVG, "polygon");
  shape.setAttribute("points", outline.join(" "));
  shape.setAttribute("fill", solid ? "currentColor" : "none");
  shape.setAttribute("stroke", "currentColor");
  shape.setAttribute("stroke-width", "7");
  shape.setAttribute("stroke-linejoin", "round");
  svg.append(shape);
  const band = document.createElementNS(SVG, "rect");
  for (const [k, v] of Object.entries({ x: 4, y: 0.9 * 84, width: 92, height: 0.1 * 84, rx: 3, fill: "currentColor" })) {
    band.setAttribute(k, String(v));
  }
  svg.append(band);
  for (const [u, v] of [[0, 0.24], [0.5, 0.07], [1, 0.24]]) {
    const ball = document.createElementNS(SVG, "circle");
    ball.setAttribute("cx", String(u * 100));
    ball.setAttribute("cy", String(v * 84));
    ball.setAttribute("r", "7.5");
    ball.setAttribute("fill", "currentColor");
    svg.append(ball);
  }
  if (solid) {
    for (const u of [0.3, 0.5, 0.7]) {
      const jewel = document.createElementNS(SVG, "circle");
      jewel.setAttribute("cx", String(u * 100));
      jewel.setAttribute("cy", String(0.72 * 84));
      jewel.setAttribute("r", "4.5");
      jewel.setAttribute("class", "jewel");
      svg.append(jewel);
    }
  }
  return svg;
}

/** @param {string} cls @param {string} content */
function span(cls, content) {
  const el = document.createElement("span");
  el.className = cls;
  el.textContent = content;
  return el;
}

/** One card face: ``card`` is "8h" (with its suit) or "8" (a played card, no suit).
 * @param {string} card
 * @returns {HTMLElement} */
export function cardFace(card) {
  const rank = rankOf(card);
  const suit = card.length > 1 ? card[1] : null;
  const el = document.createElement("div");
  el.className = "card";
  el.dataset.card = card;
  el.dataset.rank = String(rank);
  if (rank >= SMALL_JOKER) {
    el.classList.add(rank === BIG_JOKER ? "big-joker" : "small-joker");
    const index = span("jk", "");
    for (const ch of faces.ranks[rank]) index.append(span("jc", ch));
    el.append(index, crown(rank === BIG_JOKER), span("jt", faces.joker));
    return el;
  }
  el.classList.add(suit === "h" || suit === "d" ? "red" : "black");
  const shown = faces.ranks[rank];
  const index = span("idx", shown);
  if (shown.length > 1) index.classList.add("wide");
  el.append(index);
  if (suit) {
    el.append(span("pip", faces.suits[suit]), span("big", faces.suits[suit]));
  } else {
    const flipped = span("idx flip", shown);
    if (shown.length > 1) flipped.classList.add("wide");
    // upside down a 6 reads as a 9: underlined, as on printed cards
    if (faces.underlined.includes(rank)) flipped.classList.add("under");
    el.append(flipped);
  }
  return el;
}

/** A play's cards ("77722") as a row of small overlapping faces.
 * @param {string} notation
 * @param {string} cls */
export function playRow(notation, cls = "") {
  const row = document.createElement("div");
  row.className = `play-row ${cls}`.trim();
  row.dataset.play = notation;
  for (const letter of notation) row.append(cardFace(letter));
  return row;
}
