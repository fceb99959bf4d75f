// What is lit on the table: a picked card's places, and the merci's cards on asking. A card
// carries the moves the server computed (data-moves="6C>7C 6C>F"): this lights up their places
// and posts the chosen one, never judging legality.
import { hold, parseMove, play, touched } from "./instant.js";
import { $, $$, board, capitalised, cardLabel, fanNumber, fill, listing, plural, say, setting, theCard } from "./page.js";

let selection = null; // { card, targets: Map(element -> move text) }

export function selectedCard() {
  return selection ? selection.card : null;
}

// The move a lit place stands for, while a card is picked up.
export function moveTo(place) {
  return selection ? selection.targets.get(place) : undefined;
}

export function clearSelection() {
  $$(".is-selected").forEach((el) => {
    el.classList.remove("is-selected");
    if (el.hasAttribute("aria-pressed")) el.setAttribute("aria-pressed", "false");
  });
  $$(".is-target").forEach((el) => el.classList.remove("is-target"));
  selection = null;
}

// After a swap the old board's marks went with it: only the record is dropped. Returns the
// card that was picked up, for `pickAgain`.
export function forgetSelection() {
  const code = selection ? selection.card.dataset.card : "";
  selection = null;
  return code;
}

// A card picked up while a move was on its way stays picked up on the answer's board, with the
// places that board lists, if it lists any (quietly: the pick was said already).
export function pickAgain(code) {
  const card = board() && $(`.fan button[data-card="${code}"]`, board());
  clearSelection();
  if (card && card.dataset.moves && !touched(card)) select(card, "", true);
}

// Where a move takes its card, as game/board/announce.py says it: "onto the Seven of Clubs on fan 9".
function goes(moveText) {
  const move = parseMove(moveText) || {};
  if (move.home) return fill("home");
  if (move.fan !== null && move.fan !== undefined) return fill("empty_fan", { fan: move.fan + 1 });
  const on = fanNumber($(`.fan [data-card="${move.onto}"]`, board()));
  return on ? fill("onto_on", { card: theCard(move.onto), fan: on }) : fill("onto", { card: theCard(move.onto || "") });
}

function destination(moveText) {
  const root = board();
  const move = parseMove(moveText);
  if (!move || move.redeal) return null;
  if (move.home) return $(`[data-foundation="${move.card.slice(-1)}"]`, root);
  if (move.fan !== null) return $(`[data-fan="${move.fan}"] .slot`, root);
  return $(`.fan [data-card="${move.onto}"]`, root);
}

// Say what the player's hand does (tap, click or keys); before any input, the device's main
// pointer decides.
let lastInput = window.matchMedia && window.matchMedia("(pointer: coarse)").matches ? "touch" : "mouse";

function placeWord() {
  if (lastInput === "touch") return fill("tap");
  if (lastInput === "keyboard") return fill("keys");
  return fill("click");
}

export function select(card, how = placeWord(), quiet = false) {
  clearSelection();
  const moves = (card.dataset.moves || "").split(" ").filter(Boolean);
  const name = cardLabel(card);
  if (!moves.length) {
    say(fill("no_move", { card: capitalised(theCard(card.dataset.card)) }));
    return;
  }
  selection = { card, targets: new Map() };
  card.classList.add("is-selected");
  card.setAttribute("aria-pressed", "true");
  for (const move of moves) {
    const target = destination(move);
    // Where a move laid but not yet answered changed the table, nothing is lit until the answer.
    if (target && !touched(target)) {
      target.classList.add("is-target");
      selection.targets.set(target, move);
    }
  }
  if (quiet) return;
  const from = fanNumber(card);
  const places = listing(moves.map(goes), "or");
  say(
    capitalised(fill("picked_short", { card: name, how })),
    capitalised(from ? fill("picked_from", { card: name, fan: from, places }) : fill("picked", { card: name, places })),
  );
}

// The chosen move is laid on the table at once and sent (instant.js); without htmx the form
// posts it and the page comes back with it played.
export function submitMove(text) {
  const form = document.getElementById("js-move-form");
  if (!form) return;
  clearSelection();
  if (window.htmx) {
    play(text);
    return;
  }
  form.elements.move.value = text;
  form.requestSubmit();
}

// A tap to run again once the answer it waits for is in: on the same card, foundation or fan.
function tapAgain(element) {
  const home = element.closest("[data-foundation]");
  const card = element.closest("[data-card]");
  const fan = element.closest("[data-fan]");
  let spot = null;
  if (home) spot = `[data-foundation="${home.dataset.foundation}"]`;
  else if (card) spot = `.fan [data-card="${card.dataset.card}"]`;
  else if (fan) spot = `[data-fan="${fan.dataset.fan}"]`;
  const replay = () => {
    const found = spot && board() && $(spot, board());
    if (found && !hold(found, replay)) tap(found);
  };
  return replay;
}

// A tap anywhere on a fan whose top card (or empty slot) is lit counts as a tap on it.
export function fanTarget(element) {
  const fan = element.closest("[data-fan]");
  if (!fan) return null;
  const last = $(".is-top, .slot", fan);
  return last && selection && selection.targets.has(last) ? last : null;
}

// The lit place an element is or sits on (a drop, a tap), or null.
export function litPlace(element) {
  if (!selection) return null;
  const lit = element.closest(".is-target");
  if (lit && selection.targets.has(lit)) return lit;
  return fanTarget(element);
}

function onClick(event) {
  const root = board();
  if (!root || !root.contains(event.target)) return;
  const onTable = event.target.closest(".fans, .foundations");
  if (!onTable) return;
  event.preventDefault();
  if (!hold(event.target, tapAgain(event.target))) tap(event.target);
}

// A tap on the table (`element`: what it landed on): pick a card up, put it down, or play it.
function tap(element) {
  const lit = element.closest(".is-target");
  if (selection && lit && selection.targets.has(lit)) {
    submitMove(selection.targets.get(lit));
    return;
  }
  const card = element.closest(".fan button[data-card]");
  if (card && card.dataset.moves !== undefined) {
    if (selection && selection.card === card) {
      clearSelection();
      say("");
      return;
    }
    // A top card with one place goes there on this tap (a setting; a double tap still works).
    const only = (card.dataset.moves || "").split(" ").filter(Boolean);
    if (setting("one-tap") && card.classList.contains("is-top") && only.length === 1 && !only[0].startsWith("*")) {
      submitMove(only[0]);
      return;
    }
    if (!card.classList.contains("buried") || card.dataset.moves) {
      select(card);
      return;
    }
  }
  const onFan = fanTarget(element);
  if (onFan) {
    submitMove(selection.targets.get(onFan));
    return;
  }
  clearSelection();
}

// A double tap sends a top card home. Both taps must land on that card: a phone counts two quick
// taps a finger's width apart as a double tap, which would bank a card beside a move unasked.
const clickedCards = [null, null]; // the cards the last two clicks landed on

function onClickSeen(event) {
  const card = event.target.closest && event.target.closest(".fan button[data-card]");
  clickedCards.shift();
  clickedCards.push(card ? card.dataset.card : null);
}

function onDoubleClick(event) {
  const card = event.target.closest && event.target.closest(".fan button.is-top[data-moves]");
  if (!card || !board() || !board().contains(card)) return;
  if (clickedCards.some((code) => code !== card.dataset.card)) return;
  event.preventDefault();
  sendHome(card);
}

function sendHome(card) {
  const replay = () => {
    const found = board() && $(`.fan button[data-card="${card.dataset.card}"]`, board());
    if (found && !hold(found, replay)) sendHome(found);
  };
  if (hold(card, replay)) return;
  const home = card.dataset.moves.split(" ").find((move) => move.endsWith(">F") && !move.startsWith("*"));
  if (home) submitMove(home);
}

// First of all listeners, so that the others read this input's kind.
export function installInputWatch() {
  document.addEventListener("pointerdown", (event) => {
    lastInput = event.pointerType === "touch" ? "touch" : "mouse";
  }, true);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " " || event.key.startsWith("Arrow")) lastInput = "keyboard";
  }, true);
}

export function install() {
  document.addEventListener("click", onClick);
  document.addEventListener("click", onClickSeen, true);
  document.addEventListener("dblclick", onDoubleClick);
}

// "Show what it can take" marks the buried cards the merci may take (those with moves). Never
// by default, since it is a clue; once asked it stays on while the merci is open.
let merciShown = false;

function showMerci() {
  const root = board();
  if (!root) return;
  const button = $("[data-merci-show]", root);
  if (!button) merciShown = false;
  root.classList.toggle("show-merci", merciShown);
  if (button) button.setAttribute("aria-pressed", String(merciShown));
}

function onMerciClick(event) {
  const button = event.target.closest && event.target.closest("[data-merci-show]");
  if (!button) return;
  merciShown = !merciShown;
  showMerci();
  if (!merciShown) return;
  const cards = $$(".fan .card.buried[data-moves]", board()).filter((card) => card.dataset.moves);
  const names = cards.map(cardLabel);
  if (!names.length) {
    say(fill("merci_none"));
    return;
  }
  const count = plural("merci_count", names.length);
  // On screen the marks speak for themselves; a screen reader hears the cards' names.
  say(fill("merci_marked", { count }), fill("merci_cards", { count, cards: listing(names, "and") }));
}

export function installMerci() {
  document.addEventListener("click", onMerciClick);
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target && event.target.id === "board") showMerci();
  });
}
