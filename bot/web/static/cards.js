// Card faces as in the pictures (render/cards.py): the rank index top left with its suit
// under it and a big suit bottom right; a card without a suit (a play on the table) shows
// its index again upside down (6 and 9 underlined there); the jokers their two characters, a crown (solid for 大王,
// outlined for 小王) and JOKER. Sizes scale with the card's width (CSS --w).

export const RANK_TEXT = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "小王", "大王"];
export const SMALL_JOKER = 13;
export const BIG_JOKER = 14;
const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const SVG = "http://www.w3.org/2000/svg";

let rankLetters = "3456789TJQKA2BR";

/** The engine's rank letters (sent by the server in hello). */
export function setRanks(letters) {
  rankLetters = letters;
}

/** The rank index of a card ("8h" → 5, "R" → 14). */
export function rankOf(card) {
  return rankLetters.indexOf(card[0]);
}

/** The letter of a rank index. */
export function letterOf(rank) {
  return rankLetters[rank];
}

/** Cards as the canonical notation of the play they make: rank letters, low to high. */
export function canonical(cards) {
  return cards.map(rankOf).sort((a, b) => a - b).map(letterOf).join("");
}

function crown(solid) {
  // the outline of render/cards.py's _crown, in a 100 × 84 box
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "-8 -2 116 90");
  svg.setAttribute("class", "crown");
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
    band.setAttribute(k, v);
  }
  svg.append(band);
  for (const [u, v] of [[0, 0.24], [0.5, 0.07], [1, 0.24]]) {
    const ball = document.createElementNS(SVG, "circle");
    ball.setAttribute("cx", u * 100);
    ball.setAttribute("cy", v * 84);
    ball.setAttribute("r", 7.5);
    ball.setAttribute("fill", "currentColor");
    svg.append(ball);
  }
  if (solid) {
    for (const u of [0.3, 0.5, 0.7]) {
      const jewel = document.createElementNS(SVG, "circle");
      jewel.setAttribute("cx", u * 100);
      jewel.setAttribute("cy", 0.72 * 84);
      jewel.setAttribute("r", 4.5);
      jewel.setAttribute("class", "jewel");
      svg.append(jewel);
    }
  }
  return svg;
}

function span(cls, content) {
  const el = document.createElement("span");
  el.className = cls;
  el.textContent = content;
  return el;
}

/** One card face: ``card`` is "8h" (with its suit) or "8" (a played card, no suit). */
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
    for (const ch of RANK_TEXT[rank]) index.append(span("jc", ch));
    el.append(index, crown(rank === BIG_JOKER), span("jt", "JOKER"));
    return el;
  }
  el.classList.add(suit === "h" || suit === "d" ? "red" : "black");
  const index = span("idx", RANK_TEXT[rank]);
  if (RANK_TEXT[rank].length > 1) index.classList.add("wide");
  el.append(index);
  if (suit) {
    el.append(span("pip", SUITS[suit]), span("big", SUITS[suit]));
  } else {
    const flipped = span("idx flip", RANK_TEXT[rank]);
    if (RANK_TEXT[rank].length > 1) flipped.classList.add("wide");
    // upside down a 6 reads as a 9: underlined, as on printed cards
    if (RANK_TEXT[rank] === "6" || RANK_TEXT[rank] === "9") flipped.classList.add("under");
    el.append(flipped);
  }
  return el;
}

/** A play's cards ("77722") as a row of small overlapping faces. */
export function playRow(notation, cls = "") {
  const row = document.createElement("div");
  row.className = `play-row ${cls}`.trim();
  row.dataset.play = notation;
  for (const letter of notation) row.append(cardFace(letter));
  return row;
}
