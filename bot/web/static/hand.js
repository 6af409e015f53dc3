// @ts-check
// Your hand along the bottom, grouped by rank as in the Gouji apps: one column per rank,
// low to high, its cards stacked so each one's index shows; tap a card to choose it. The
// columns share the width (on a phone they overlap a little), so 36 cards never scroll
// sideways.

import { rankOf } from "./cards.js";

const MAX_STEP = 78; // px between two columns at most (a desktop)
const MAX_CARD = 66; // px: the widest card
const TALLEST = 0.32; // of the window's height: the hand's highest column at most

/** Lay ``cards`` (sorted, with suits) out in ``box``; ``selected`` holds the chosen
 * indices; ``toggle(i)`` is called on a tap; ``face(card)`` makes a card; ``count(n)`` says
 * how many cards a column holds (its badge).
 * @param {HTMLElement} box
 * @param {string[]} cards
 * @param {Set<number>} selected
 * @param {(index: number) => void} toggle
 * @param {(card: string) => HTMLElement} face
 * @param {(n: number) => string} count */
export function layoutHand(box, cards, selected, toggle, face, count) {
  /** @type {{rank: number, cards: [string, number][]}[]} */
  const columns = [];
  cards.forEach((card, i) => {
    const rank = rankOf(card);
    const last = columns[columns.length - 1];
    if (last && last.rank === rank) last.cards.push([card, i]);
    else columns.push({ rank, cards: [[card, i]] });
  });
  box.replaceChildren();
  if (!columns.length) return;
  const width = box.clientWidth - 8;
  const share = width / columns.length; // each column's share of the width
  const cardW = Math.floor(share >= 54 ? Math.min(MAX_CARD, share - 6) : Math.min(share * 1.4, 50));
  // the last column shows its whole card: the others share what is left
  const step = columns.length > 1 ? Math.min(MAX_STEP, (width - cardW) / (columns.length - 1)) : 0;
  const cardH = Math.round(cardW * 1.4);
  const most = Math.max(...columns.map((c) => c.cards.length));
  const room = Math.max(cardH * 1.6, innerHeight * TALLEST) - cardH;
  // each covered card shows its index (about half the card's width tall), less when a
  // tall column would take too much of the window
  const strip = most > 1 ? Math.max(12, Math.min(Math.round(cardW * 0.52), Math.floor(room / (most - 1)))) : 0;
  box.style.setProperty("--w", `${cardW}px`);
  box.style.height = `${cardH + (most - 1) * strip + 18}px`;
  const row = document.createElement("div");
  row.className = "hand-row";
  row.style.width = `${step * (columns.length - 1) + cardW}px`;
  columns.forEach((column, c) => {
    const col = document.createElement("div");
    col.className = "column";
    col.dataset.rank = String(column.rank);
    col.style.left = `${c * step}px`;
    col.style.width = `${cardW}px`;
    col.style.zIndex = String(c);
    column.cards.forEach(([card, i], k) => {
      const el = face(card);
      el.dataset.index = String(i);
      el.style.top = `${k * strip + 10}px`;
      if (selected.has(i)) el.classList.add("sel");
      el.addEventListener("click", () => toggle(i));
      col.append(el);
    });
    if (column.cards.length > 1) {
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = count(column.cards.length);
      col.append(badge);
    }
    row.append(col);
  });
  box.append(row);
}
