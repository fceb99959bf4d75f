// Presses answered in their own frame (docs/frontend.md, "Every press in one frame"). Undo and
// Redo show at once the board the press leads to, from the boards the server has shown this page;
// Hint lights the hint the board came with (`data-ready-hint`, game/board/hints.py's `ready`),
// or one looked up since, to its next stage (the card, then where it goes: the board's Hint form
// says which stage it shows); every other control looks pressed at once. The server's answer is the board in every case: it confirms the one shown or replaces it.
// A board laid ahead is sent with no key (`v`), so its answer is whole and owes nothing to it.
import { busy, parseMove } from "./instant.js";
import { $, $$, board, fanStop, fill, say } from "./page.js";

const KEEP = 400; // boards kept: a long game's, with room for its redeals
const IDLE_MS = 250; // a board that came without its hint, on show this long, has it looked up
const past = []; // the server's boards in the order shown (felt, move count, marks), the last on show
const ahead = []; // boards undone, the next redo last
let guessing = null; // { action, before, xhr } while a board shown ahead waits for its answer
let peeked = null; // { key, move, message, place }: the hint of the board with that key
let peekTimer = null;
let onBoard = () => {};
// A kept board's marks, and its hint (a board laid ahead lights it at once too).
const MARKS = ["lastCard", "lastFrom", "blocked", "readyHint", "readySaid", "readySaidPlace"];

export function shown(root) {
  const count = Number(root.dataset.moves);
  // Copied once the page is idle, not in the swap's task, where the next tap may be waiting.
  const entry = { count, felt: null };
  const copy = () => {
    if (board() === root && !busy() && !root.dataset.ahead) Object.assign(entry, entryOf(root));
  };
  if (window.requestIdleCallback) window.requestIdleCallback(copy, { timeout: 300 });
  else setTimeout(copy, 50);
  const action = guessing ? guessing.action : null;
  guessing = null;
  const top = past[past.length - 1];
  if (!top || count > top.count) {
    const next = ahead[ahead.length - 1];
    if (action === "redo" && next && next.count === count) ahead.pop();
    else if (top) ahead.length = 0; // a new move: nothing is left to redo
    past.push(entry);
    if (past.length > KEEP) past.shift();
  } else if (count === top.count) {
    past[past.length - 1] = entry;
  } else {
    while (past.length && past[past.length - 1].count > count) ahead.push(past.pop());
    const now = past[past.length - 1];
    if (now && now.count === count) past[past.length - 1] = entry;
    else past.push(entry);
  }
  lookAhead(root);
}

// A board that came without its hint (a busy server) has it looked up, only for a player who
// presses Hint (in this browser, once).
const HINTS_KEY = "lucie.hints";
let hinting = false;
try {
  hinting = window.localStorage.getItem(HINTS_KEY) === "1";
} catch (error) {
  hinting = false;
}

function hintPressed() {
  if (hinting) return;
  hinting = true;
  try {
    window.localStorage.setItem(HINTS_KEY, "1");
  } catch (error) {
    // Storage denied: looked up for this visit only.
  }
}

function lookAhead(root) {
  clearTimeout(peekTimer);
  if (!hinting || root.dataset.status !== "playing" || !root.dataset.position || root.dataset.readyHint) return;
  const key = root.dataset.position;
  if (peeked && peeked.key === key) return;
  peekTimer = setTimeout(() => {
    const form = $("form[data-keyed]", root);
    if (!form || board() !== root || busy()) return;
    const url = new URL(form.getAttribute("hx-post"), window.location.href);
    url.searchParams.set("peek", "1");
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then((answer) => (answer.ok ? answer.json() : null))
      .then((found) => {
        if (found && found.move) {
          peeked = { key, move: found.move, message: found.message || "", place: found.place || "" };
        }
      })
      .catch(() => {});
  }, IDLE_MS);
}

function pressed(control) {
  control.setAttribute("aria-busy", "true");
  control.classList.add("is-pressed");
}

function settle(root) {
  for (const control of $$("[data-action].is-pressed", root)) {
    control.classList.remove("is-pressed");
    control.removeAttribute("aria-busy");
  }
}

function knownHint(root) {
  if (root.dataset.readyHint) {
    const { readyHint, readySaid, readySaidPlace } = root.dataset;
    return { move: readyHint, message: readySaid || "", place: readySaidPlace || "" };
  }
  return peeked && peeked.key === root.dataset.position ? peeked : null;
}

// The stage of the hint the board shows, as its Hint form will post it: 0 none, 1 the card, 2
// where it goes too.
function shownStage(root) {
  const field = $('form[data-keyed] input[name="shown"]', root);
  return field ? Number(field.value) || 0 : 0;
}

// The hint's next stage, lit: its card first (a redeal's hint, the Redeal button, is whole at
// once), then where the card goes.
function lightHint(root) {
  const known = knownHint(root);
  if (!known) return false;
  const move = parseMove(known.move);
  if (!move) return false;
  const whole = move.redeal || shownStage(root) >= 1;
  if (move.redeal) {
    const redeal = $('[data-action="redeal"]', root);
    if (redeal) redeal.dataset.hint = "card";
  } else {
    const card = $(`.fan [data-card="${move.card}"]`, root);
    if (!card) return false;
    card.dataset.hint = "card";
    let place = move.onto && $(`.fan [data-card="${move.onto}"]`, root);
    if (move.home) place = $(`[data-foundation="${move.card.slice(-1)}"]`, root);
    else if (move.fan !== null) place = $(`[data-fan="${move.fan}"]`, root);
    if (place && whole) place.dataset.hint = "target";
  }
  const said = whole && !move.redeal ? known.place : known.message;
  if (said) say(said);
  return true;
}

function entryOf(root) {
  const felt = $(".table", root).cloneNode(true);
  for (const element of $$("[data-hint]", felt)) element.removeAttribute("data-hint");
  for (const element of $$(".is-selected, .is-target", felt)) element.classList.remove("is-selected", "is-target");
  const moves = $(".info .moves b", root);
  const marks = {};
  for (const name of MARKS) marks[name] = root.dataset[name] || "";
  return { count: Number(root.dataset.moves), felt, shownCount: moves ? moves.textContent : "", marks };
}

function lay(root, entry) {
  const felt = $(".table", root);
  const moves = $(".info .moves b", root);
  const message = $(".message", root);
  const back = { felt, key: root.dataset.position || "", shownCount: moves ? moves.textContent : "",
    marks: { ...root.dataset }, said: message ? message.textContent : "" };
  const active = document.activeElement;
  const fan = felt.contains(active) && active.closest("[data-fan]");
  const fresh = entry.felt.cloneNode(true);
  const parts = (element) => $$(".fans > *, .foundations > *", element);
  const now = parts(felt);
  const then = parts(fresh);
  if (now.length === then.length) {
    back.felt = felt.cloneNode(true);
    now.forEach((part, index) => {
      if (!part.isEqualNode(then[index])) part.replaceWith(then[index]);
    });
  } else felt.replaceWith(fresh);
  const laid = $(".table", root);
  if (moves) moves.textContent = entry.shownCount;
  if (message) message.textContent = "";
  for (const [name, value] of Object.entries(entry.marks)) {
    if (value) root.dataset[name] = value;
    else delete root.dataset[name];
  }
  delete root.dataset.position;
  root.dataset.ahead = "true";
  const stop = fan && fanStop($(`[data-fan="${fan.dataset.fan}"]`, laid) || laid);
  if (stop) stop.focus({ preventScroll: true });
  return back;
}

function putBack(root, back) {
  $(".table", root).replaceWith(back.felt);
  const moves = $(".info .moves b", root);
  if (moves) moves.textContent = back.shownCount;
  if (back.key) root.dataset.position = back.key;
  for (const name of MARKS) {
    if (back.marks[name]) root.dataset[name] = back.marks[name];
    else delete root.dataset[name];
  }
  delete root.dataset.ahead;
}

function showAhead(event, control, action) {
  const target = action === "undo" ? past[past.length - 2] : ahead[ahead.length - 1];
  const root = board();
  const form = control.closest("form");
  if (!target || !target.felt || !root || !form || !window.htmx || root.dataset.ahead) return false;
  const now = past[past.length - 1];
  if (now && !now.felt) Object.assign(now, entryOf(root));
  event.preventDefault();
  event.stopImmediatePropagation();
  const back = lay(root, target);
  onBoard();
  pressed(control);
  guessing = { action, back, root, xhr: null };
  requestAnimationFrame(() => setTimeout(() => {
    window.htmx.ajax("POST", form.getAttribute("hx-post"), { source: form, target: "#board", swap: "outerHTML" });
  }, 0));
  return true;
}

function onClick(event) {
  const control = event.target.closest && event.target.closest("#board [data-action]");
  if (!control || control.disabled || busy()) return;
  const action = control.dataset.action;
  if ((action === "undo" || action === "redo") && !control.closest(".end") && showAhead(event, control, action)) return;
  if (action === "hint") hintPressed();
  if (action === "hint" && lightHint(board())) return;
  pressed(control);
}

function onAfterRequest(event) {
  if (!guessing) return;
  if (!guessing.xhr) guessing.xhr = event.detail.xhr;
  if (event.detail.xhr !== guessing.xhr || event.detail.successful) return;
  const status = event.detail.xhr ? event.detail.xhr.status : 0;
  if ([400, 409, 429, 503].includes(status)) return; // answered with the board: swapped in
  const root = board();
  if (root && root === guessing.root && root.dataset.ahead) {
    putBack(root, guessing.back);
    settle(root);
    onBoard();
    say(fill("taken_back"));
  }
  guessing = null;
}

export function install(afterBoard) {
  onBoard = afterBoard;
  document.addEventListener("click", onClick, true);
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (guessing && !guessing.xhr) guessing.xhr = event.detail.xhr;
  });
  document.addEventListener("htmx:afterRequest", onAfterRequest);
}
