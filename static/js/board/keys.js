// Keyboard play: the arrows walk the table, a card's typed name jumps to it, single keys press
// the controls (docs/frontend.md lists them).
import { closeMenu, openNewGame } from "./dialogs.js";
import {
  $, $$, RANKS, SUITS, board, capitalised, clickAction, fanNumber, fanStop, fill, listing, plural, say, setting, theCard, underCard,
  words,
} from "./page.js";
import { clearSelection, selectedCard } from "./selection.js";

// The arrows' stops: each foundation, then each fan's stop. Buried cards that the merci may
// take are reached by typing their name or with Tab.
function stops() {
  const root = board();
  if (!root) return [];
  const foundations = $$(".foundations button", root);
  const fans = $$(".fans [data-fan]", root).map(fanStop);
  return foundations.concat(fans).filter((el) => el && !el.disabled);
}

function stopOf(element, all) {
  const at = all.indexOf(element);
  if (at >= 0 || !element || !element.closest) return at;
  const fan = element.closest("[data-fan]");
  return fan ? all.indexOf(fanStop(fan)) : -1;
}

function centre(el) {
  const rect = el.getBoundingClientRect();
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2, top: rect.top };
}

function moveFocus(key) {
  const all = stops();
  if (!all.length) return false;
  const current = stopOf(document.activeElement, all);
  if (current < 0) {
    ($(".fans button.is-top, .fans .slot", board()) || all[0]).focus();
    return true;
  }
  let next = null;
  // The left-handed layout is mirrored: the arrows follow what the player sees.
  if (setting("left-handed") && (key === "ArrowRight" || key === "ArrowLeft")) {
    key = key === "ArrowRight" ? "ArrowLeft" : "ArrowRight";
  }
  if (key === "ArrowRight") next = all[(current + 1) % all.length];
  else if (key === "ArrowLeft") next = all[(current - 1 + all.length) % all.length];
  else {
    const here = centre(all[current]);
    const up = key === "ArrowUp";
    const rows = all
      .map((el) => ({ el, c: centre(el) }))
      .filter(({ c }) => (up ? c.top < here.top - 8 : c.top > here.top + 8));
    if (!rows.length) return true;
    const nearestTop = up ? Math.max(...rows.map((r) => r.c.top)) : Math.min(...rows.map((r) => r.c.top));
    const row = rows.filter((r) => Math.abs(r.c.top - nearestTop) < 12);
    // Prefer the top card of each fan: the stop players mean when they go up or down.
    const tops = row.filter((r) => !r.el.classList.contains("buried"));
    const pool = tops.length ? tops : row;
    pool.sort((a, b) => Math.abs(a.c.x - here.x) - Math.abs(b.c.x - here.x));
    next = pool[0].el;
  }
  if (next) next.focus();
  return true;
}

// A card's name: a rank, an optional space, a suit ("6 c", "10h", "q♠"). The notation's letters
// always work where the page's language (its words' rank_keys, suit_keys) leaves them free.
let KEYS = null;
function typingKeys() {
  if (KEYS) return KEYS;
  const ranks = { 1: "1" };
  for (const rank of RANKS) ranks[rank.toLowerCase()] = rank;
  const suits = {};
  SUITS.split("").forEach((suit, index) => {
    suits[suit.toLowerCase()] = suit;
    suits["♣♦♥♠"[index]] = suit;
    suits["♧♢♡♤"[index]] = suit;
  });
  (words().rank_keys || []).forEach((letter, index) => {
    const key = letter.toLowerCase();
    if (key.length === 1 && !/[0-9]/.test(key)) ranks[key] = RANKS[index];
  });
  (words().suit_keys || []).forEach((letter, index) => {
    if (letter.length === 1) suits[letter.toLowerCase()] = SUITS[index];
  });
  KEYS = { ranks, suits };
  return KEYS;
}

// A rank key with a job of its own (A auto-finish; R redo, where R names a King) does it once
// the moment for a suit has passed.
const KEY_JOBS = { a: "auto", r: "redo" };
const TYPING_MS = 1200;
let typed = null; // { rank, key, timer }

function stopTyping() {
  if (!typed) return null;
  clearTimeout(typed.timer);
  const { rank } = typed;
  typed = null;
  return rank;
}

function startTyping(rank, key = "") {
  stopTyping();
  typed = {
    rank,
    key,
    timer: setTimeout(() => {
      const job = typed && KEY_JOBS[typed.key];
      stopTyping();
      if (job) clickAction(job);
    }, TYPING_MS),
  };
}

// Returns true when the key was part of a card's name.
function typeCard(key) {
  const lower = key.toLowerCase();
  const { ranks: RANK_KEYS, suits: SUIT_KEYS } = typingKeys();
  if (typed) {
    if (key === " ") return true;
    if (key === "Escape") {
      stopTyping();
      return true;
    }
    if (typed.rank === "1" && lower === "0") {
      startTyping("T", "1");
      return true;
    }
    if (lower in SUIT_KEYS) {
      const rank = stopTyping();
      jumpTo((rank === "1" ? "A" : rank) + SUIT_KEYS[lower]);
      return true;
    }
    const job = KEY_JOBS[typed.key];
    stopTyping();
    if (job) clickAction(job);
    return false;
  }
  if (lower in RANK_KEYS) {
    startTyping(RANK_KEYS[lower], lower);
    return true;
  }
  if (key in SUIT_KEYS && key.length === 1 && !/[a-z]/i.test(key)) return true;
  return false;
}

function jumpTo(code) {
  const root = board();
  if (!root) return;
  const name = capitalised(theCard(code));
  const card = $(`.fan [data-card="${code}"]`, root);
  if (card && card.matches("button:not([disabled])")) {
    card.focus();
    return;
  }
  if (card) {
    const fan = card.closest("[data-fan]");
    const cards = $$("[data-card]", fan);
    const over = cards.slice(cards.indexOf(card) + 1).map((el) => underCard(el.dataset.card));
    const stop = fanStop(fan);
    if (stop) stop.focus();
    say("", fill("in_fan", { card: name, fan: fanNumber(fan), cards: listing(over, "and") }));
    return;
  }
  const foundation = $(`.foundations [data-foundation="${code.slice(-1)}"]`, root);
  const rank = RANKS.indexOf(code.slice(0, -1)) + 1;
  if (foundation && Number(foundation.dataset.count) >= rank) {
    if (!foundation.disabled) foundation.focus();
    say("", fill("on_foundation", { card: name }));
  } else {
    say("", fill("not_on_table", { card: name }));
  }
}

// The counters, read on demand (I): the same figures the info line shows.
function sayStatus() {
  const root = board();
  if (!root) return;
  const data = root.dataset;
  const timer = $(".timer", root);
  const left = data.redealsLeft === "unlimited" ? fill("unlimited") : plural("redeals_left", Number(data.redealsLeft));
  const parts = [
    fill("deal", { number: data.deal }),
    plural("moves", Number(data.moves)),
    timer ? fill("time", { time: timer.textContent.trim() }) : "",
    left,
    data.mercisLeft !== undefined && $(".merci", root) ? plural("mercis_left", Number(data.mercisLeft)) : "",
    data.home !== undefined ? plural("cards_home", Number(data.home)) : "",
  ];
  say("", `${parts.filter(Boolean).join(", ")}.`);
}

function redealReady() {
  const button = board() && $('[data-action="redeal"]', board());
  return Boolean(button && !button.disabled);
}

function toggleFullScreen() {
  if (document.fullscreenElement) document.exitFullscreen();
  else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {});
}

const SHORTCUTS = { u: "undo", z: "undo", r: "redo", h: "hint", " ": "redeal" };

function onKeyDown(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || !board()) return;
  if ($("dialog[open]")) return;
  const target = event.target;
  if (target.closest && target.closest("input, select, textarea")) return;
  const key = event.key;
  if (typeCard(key)) {
    event.preventDefault();
    return;
  }
  if (key.startsWith("Arrow")) {
    if (moveFocus(key)) event.preventDefault();
    return;
  }
  if (key === "Escape") {
    if (closeMenu()) return;
    if (selectedCard()) {
      clearSelection();
      say("");
    } else if (document.fullscreenElement) document.exitFullscreen();
    return;
  }
  // Space redeals, whatever has focus (after a mouse move it rests on the moved fan's card),
  // unless a card is picked up or no redeal is left: then it presses the focused control.
  if (key === " " && !selectedCard() && redealReady()) {
    event.preventDefault();
    clickAction("redeal");
    return;
  }
  if ((key === " " || key === "Enter") && target.closest && target.closest("button, a, summary")) return;
  const lower = key.toLowerCase();
  if (lower in SHORTCUTS) {
    event.preventDefault();
    clickAction(SHORTCUTS[lower]);
  } else if (lower === "n") {
    event.preventDefault();
    openNewGame();
  } else if (lower === "f") {
    event.preventDefault();
    toggleFullScreen();
  } else if (lower === "i") {
    event.preventDefault();
    sayStatus();
  }
}

export function install() {
  document.addEventListener("keydown", onKeyDown);
}
