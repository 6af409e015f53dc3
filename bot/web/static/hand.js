// @ts-check
// Your hand along the bottom, grouped by rank as in the Gouji apps, and taken as the apps
// let you: tap a card to choose it, tap a rank's stack (its ×N bar) to choose all of it,
// slide a finger across cards to choose (or put back) each one it crosses.
//
// A desktop lays the ranks out as columns, each one's cards stacked so each index shows. A
// phone has no room for 15 columns of cards a finger can hit, so there each rank's cards
// lie side by side, MIN_TAP px wide, its badge beside them, the ranks flowing over rows
// packed from the highest rank (2s and jokers share the bottom row, so one slide takes
// them), each row covering the one above but its top MIN_TAP px: every card keeps a tap
// area of at least MIN_TAP × MIN_TAP CSS px (Apple's HIG, WCAG 2.5.5).

import { rankOf } from "./cards.js";

const MAX_STEP = 78; // px between two columns at most (a desktop)
const MAX_CARD = 66; // px: the widest card
const TALLEST = 0.32; // of the window's height: the hand's highest column at most
const PHONE = 600; // px: a window narrower is a phone's (the flow layout)
const MIN_TAP = 44; // px: the least a finger is given to hit
const BADGE = 24; // px: the width of a stack's badge beside its cards (the flow layout)
const GAP = 3; // px between two ranks (the flow layout)
const PITCH = MIN_TAP + 4; // px from one row of cards to the next (the flow layout)

/** @typedef {{rank: number, cards: [string, number][]}} Column */

/** Lay ``cards`` (sorted, with suits) out in ``box``; ``selected`` holds the chosen
 * indices; ``face(card)`` makes a card; ``count(n)`` says how many cards a stack holds (its
 * badge). The gestures are :func:`takeGestures`'s, bound once.
 * @param {HTMLElement} box
 * @param {string[]} cards
 * @param {Set<number>} selected
 * @param {(card: string) => HTMLElement} face
 * @param {(n: number) => string} count */
export function layoutHand(box, cards, selected, face, count) {
  /** @type {Column[]} */
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
  const flow = innerWidth < PHONE;
  box.classList.toggle("flow", flow);
  if (flow) layoutFlow(box, columns, width, selected, face, count);
  else layoutColumns(box, columns, width, selected, face, count);
}

/** The desktop's: a column per rank, the cards stacked.
 * @param {HTMLElement} box @param {Column[]} columns @param {number} width
 * @param {Set<number>} selected @param {(card: string) => HTMLElement} face
 * @param {(n: number) => string} count */
function layoutColumns(box, columns, width, selected, face, count) {
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
    const col = stack(column, selected, face, count);
    col.classList.add("column");
    col.style.left = `${c * step}px`;
    col.style.width = `${cardW}px`;
    col.style.zIndex = String(c);
    column.cards.forEach((_, k) => {
      /** @type {HTMLElement} */ (col.children[k]).style.top = `${k * strip + 10}px`;
    });
    row.append(col);
  });
  box.append(row);
}

/** A phone's: each rank's cards side by side, whole, and its badge beside them; the ranks
 * over rows packed from the highest (a rank may go on over two rows, each part with its
 * badge), each row covering the foot of the one above but a tap's height of it.
 * @param {HTMLElement} box @param {Column[]} columns @param {number} width
 * @param {Set<number>} selected @param {(card: string) => HTMLElement} face
 * @param {(n: number) => string} count */
function layoutFlow(box, columns, width, selected, face, count) {
  const cardW = MIN_TAP + 2; // a card's rounded corners are no place to tap
  const cardH = Math.round(cardW * 1.4);
  box.style.setProperty("--w", `${cardW}px`);
  /** @type {{column: Column, cards: [string, number][]}[][]} */
  const rows = [[]]; // rows[0]: the row being filled, the bottom one first
  let used = 0;
  for (const column of [...columns].reverse()) {
    const badge = column.cards.length > 1 ? BADGE : 0;
    const left = [...column.cards];
    while (left.length) {
      const gap = rows[0].length ? GAP : 0;
      const fit = Math.min(left.length, Math.floor((width - used - gap - badge) / cardW));
      if (fit < 1) { // no room left in this row: the next one up
        rows.unshift([]);
        used = 0;
        continue;
      }
      rows[0].unshift({ column, cards: left.splice(left.length - fit) });
      used += gap + fit * cardW + badge;
    }
  }
  box.style.height = `${(rows.length - 1) * PITCH + cardH + 14}px`;
  const band = document.createElement("div");
  band.className = "hand-flow";
  rows.forEach((row, r) => {
    const rowWidth = row.reduce((w, part, i) => w + (i ? GAP : 0) + part.cards.length * cardW + (part.column.cards.length > 1 ? BADGE : 0), 0);
    let x = Math.max(0, (width - rowWidth) / 2);
    const y = r * PITCH + 10;
    for (const part of row) {
      const group = stack({ rank: part.column.rank, cards: part.cards }, selected, face, count);
      group.style.left = `${x}px`;
      group.style.top = `${y}px`;
      group.style.zIndex = String(r + 1);
      const badge = group.querySelector(".badge");
      if (part.column.cards.length > 1 && badge === null) group.append(badgeOf(part.column, count));
      if (badge) badge.textContent = count(part.column.cards.length); // the whole stack's count
      x += part.cards.length * cardW + (part.column.cards.length > 1 ? BADGE : 0) + GAP;
      band.append(group);
    }
  });
  box.append(band);
}

/** A rank's cards and, when it holds more than one, its badge (the stack's handle).
 * @param {Column} column @param {Set<number>} selected
 * @param {(card: string) => HTMLElement} face @param {(n: number) => string} count */
function stack(column, selected, face, count) {
  const group = document.createElement("div");
  group.className = "group";
  group.dataset.rank = String(column.rank);
  for (const [card, i] of column.cards) {
    const el = face(card);
    el.dataset.index = String(i);
    if (selected.has(i)) el.classList.add("sel");
    group.append(el);
  }
  if (column.cards.length > 1) group.append(badgeOf(column, count));
  return group;
}

/** A stack's badge: how many cards of its rank (a tap takes them all).
 * @param {Column} column @param {(n: number) => string} count */
function badgeOf(column, count) {
  const badge = document.createElement("span");
  badge.className = "badge";
  badge.dataset.rank = String(column.rank);
  badge.textContent = count(column.cards.length);
  return badge;
}

/** CSS px between the points a slide looks at along its way (under a covered card's width). */
const SLIDE_STEP = 8;

/** The hand's gestures, bound once to ``box``: a press on a card chooses it (or puts it
 * back), and moving on chooses (or puts back) each card the pointer crosses — a slide; a
 * press on a stack's badge chooses the whole stack (all of it chosen already: puts it back).
 * ``set(indices, on)`` changes the selection, ``isSelected(i)`` reads it.
 * @param {HTMLElement} box
 * @param {(i: number) => boolean} isSelected
 * @param {(indices: number[], on: boolean) => void} set */
export function takeGestures(box, isSelected, set) {
  /** @type {{on: boolean, seen: Set<number>, pointer: number, x: number, y: number} | null} */
  let slide = null;
  /** @param {number} x @param {number} y */
  const cardAt = (x, y) => {
    const hit = document.elementFromPoint(x, y);
    const card = hit instanceof HTMLElement ? hit.closest(".card") : null;
    return card instanceof HTMLElement && box.contains(card) ? Number(card.dataset.index) : null;
  };
  box.addEventListener("pointerdown", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const badge = target?.closest(".badge");
    if (badge instanceof HTMLElement) {
      const cards = box.querySelectorAll(`.card[data-rank="${badge.dataset.rank}"]`);
      const indices = [...cards].map((c) => Number(/** @type {HTMLElement} */ (c).dataset.index));
      set(indices, !indices.every(isSelected));
      event.preventDefault();
      return;
    }
    const index = cardAt(event.clientX, event.clientY);
    if (index === null) return;
    const at = { x: event.clientX, y: event.clientY };
    slide = { on: !isSelected(index), seen: new Set([index]), pointer: event.pointerId, ...at };
    set([index], slide.on);
    event.preventDefault();
  });
  box.addEventListener("pointermove", (event) => {
    if (!slide || event.pointerId !== slide.pointer) return;
    // every card on the way from the last point, not only under this one: a quick finger
    // (or a busy page, whose moves the browser coalesces) crosses cards between two events
    const dx = event.clientX - slide.x;
    const dy = event.clientY - slide.y;
    const steps = Math.max(1, Math.ceil(Math.hypot(dx, dy) / SLIDE_STEP));
    const crossed = [];
    for (let i = 1; i <= steps; i++) {
      const index = cardAt(slide.x + (dx * i) / steps, slide.y + (dy * i) / steps);
      if (index !== null && !slide.seen.has(index)) {
        slide.seen.add(index);
        crossed.push(index);
      }
    }
    slide.x = event.clientX;
    slide.y = event.clientY;
    if (crossed.length) set(crossed, slide.on);
  });
  const end = () => {
    slide = null;
  };
  box.addEventListener("pointerup", end);
  box.addEventListener("pointercancel", end);
}
