// What the modules read from the page: the board, the settings, and the words, which come from
// the server in the page's language (#announce's data-words, the cards' aria-labels).

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));
export const html = document.documentElement;
// The notation's ranks, Ace to King, and suits (docs/notation.md): "TC" is the Ten of Clubs.
export const RANKS = "A23456789TJQK";
export const SUITS = "CDHS";

// htmx replaces #board with each answer: never keep it.
export function board() {
  return document.getElementById("board");
}

// A fan's number as a player counts it (1 to 18), for the fan an element sits in.
export function fanNumber(element) {
  const fan = element && element.closest("[data-fan]");
  return fan ? Number(fan.dataset.fan) + 1 : null;
}

// Where the arrows and the focus land on a fan: its top card, or its empty place.
export function fanStop(fan) {
  return $("button.is-top, button.slot", fan) || $("button", fan);
}

// The stop of `fan`, else of the nearest fan that has one (a fan emptied has none to take).
export function nearestStop(fan, root = board()) {
  const all = $$(".fans [data-fan]", root);
  const at = Math.max(0, all.indexOf(fan));
  const order = all.map((each, index) => ({ each, far: Math.abs(index - at) + (index < at ? 0.5 : 0) }));
  order.sort((a, b) => a.far - b.far);
  for (const { each } of order) {
    const stop = fanStop(each);
    if (stop && !stop.disabled) return stop;
  }
  return null;
}

// Whether the keyboard's focus is lost: on the page's body (where a removed or moved element
// leaves it), or nowhere.
export function focusLost() {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}

// Press one of the board's controls (data-action="undo", "redeal"…) if it is enabled.
export function clickAction(name) {
  const button = board() && $(`[data-action="${name}"]`, board());
  if (button && !button.disabled) button.click();
}

// An on/off setting: "auto-move", "left-handed", "reduced-motion"… (see dialogs.js).
export function setting(name) {
  return html.classList.contains(name);
}

export function reducedMotion() {
  const query = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  return setting("reduced-motion") || Boolean(query && query.matches);
}

let cached = null;
export function words() {
  if (cached) return cached;
  const region = document.getElementById("announce");
  try {
    cached = JSON.parse((region && region.dataset.words) || "{}");
  } catch (error) {
    cached = {};
  }
  return cached;
}

function put(text, values) {
  return text.replace(/%\((\w+)\)s/g, (all, name) => (name in values ? String(values[name]) : all));
}

// A sentence from its words: "%(card)s has no move just now." with { card: "…" }.
export function fill(key, values = {}) {
  return put(words()[key] || "", values);
}

// A plural is a pair (one, many); `zero_is_one` says whether 0 takes the first (French).
export function plural(key, count, values = {}) {
  const [one, many] = words()[key] || ["", ""];
  const single = count === 1 || (count === 0 && words().zero_is_one);
  return put(single ? one : many, { ...values, count });
}

export function capitalised(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// "the Seven of Clubs" for "7C", wherever the card is: its rank's pattern with its suit put in.
export function theCard(code) {
  const pattern = (words().the || [])[RANKS.indexOf(code.slice(0, -1))];
  return pattern ? pattern.replace("%(suit)s", (words().suits || {})[code.slice(-1)] || "") : code;
}

// The same after "under", in the case that word takes (German: the dative).
export function underCard(code) {
  const pattern = (words().under || [])[RANKS.indexOf(code.slice(0, -1))];
  return pattern ? pattern.replace("%(suit)s", (words().suits || {})[code.slice(-1)] || "") : theCard(code);
}

export function cardLabel(card) {
  return card.getAttribute("aria-label") || "";
}

// "a, b or c", with the page's word for the last one.
export function listing(items, last) {
  const word = words()[last] || last;
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} ${word} ${items[items.length - 1]}`;
}

// The visible message line, and the page's one live region (#announce, outside the board: the
// server fills it after each change, these modules for what happens here alone).
export function say(text, spoken = text) {
  const message = $(".message", board() || document);
  if (message) message.textContent = text;
  const region = document.getElementById("announce");
  if (region) region.textContent = spoken;
}
