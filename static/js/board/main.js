// The board's entry point (docs/frontend.md): wires the modules up, and keeps the board's side
// of htmx: what a request carries, what a failure says, what a new board needs. Which answers
// are swapped in is htmx's config, in templates/_htmx_config.html.
import * as dialogs from "./dialogs.js";
import * as drag from "./drag.js";
import * as instant from "./instant.js";
import * as keys from "./keys.js";
import { $, $$, RANKS, board, clickAction, fill, focusLost, nearestStop, say, setting } from "./page.js";
import * as press from "./press.js";
import * as selection from "./selection.js";
import * as timer from "./timer.js";

// ---------------------------------------------------------------- requests
// A board POST carries auto-move (`auto`), and the move count (a form kept in place may hold an
// older one) and key (`v`: the server leaves out what is unchanged) of the board on show.
function onConfigRequest(event) {
  const detail = event.detail;
  if (detail.elt && detail.elt.hasAttribute && detail.elt.hasAttribute("data-keyed")) {
    // The hint names the board it is asked from, so its answer leaves out the fans it leaves
    // as they are (the server sends them as hx-preserve placeholders).
    const shown = board();
    if (shown && shown.dataset.position && detail.parameters) detail.parameters.v = shown.dataset.position;
    return;
  }
  if (detail.verb !== "post" || !detail.parameters || detail.parameters.n === undefined) return;
  detail.parameters.auto = setting("auto-move") ? "1" : "0";
  const root = board();
  if (root && root.dataset.moves !== undefined) detail.parameters.n = root.dataset.moves;
  if (root && root.dataset.position) detail.parameters.v = root.dataset.position;
}

function onResponseError(event) {
  if (instant.answersFor(event)) return;
  const status = event.detail && event.detail.xhr ? event.detail.xhr.status : 0;
  if (status === 503) say(fill("busy"));
  else if (status === 429) say(fill("too_many"));
  else say(fill("failed"));
}

// ---------------------------------------------------------------- focus across a swap
// The same fan, foundation or control keeps the focus, else the nearest; a game just ended
// gives it to the end panel's first action.
let focusKey = null;
let statusBefore = null;

function rememberFocus() {
  const active = document.activeElement;
  const root = board();
  focusKey = null;
  statusBefore = root ? root.dataset.status : null;
  if (!root || !active || !root.contains(active)) return;
  const fan = active.closest("[data-fan]");
  const foundation = active.closest("[data-foundation]");
  const action = active.closest("[data-action]");
  if (fan) focusKey = `[data-fan="${fan.dataset.fan}"]`;
  else if (foundation) focusKey = `[data-foundation="${foundation.dataset.foundation}"]`;
  else if (action) focusKey = `[data-action="${action.dataset.action}"]`;
  else if (active.closest("details.menu")) focusKey = "details.menu > summary";
  else focusKey = ANYWHERE; // "Finish", the end panel's actions, the menu…
}

// Focus on the board with no place of its own in the new board: the first fan with a top card.
const ANYWHERE = "[data-fan]";

function focusAfterSwap(root, key) {
  const place = $(key, root);
  if (!place) return null;
  // This fan's top card, else the nearest fan that has one.
  if (place.matches("[data-fan]")) return nearestStop(place, root);
  const hidden = place.closest("details:not([open])");
  if (hidden) return $("summary", hidden);
  if (!place.disabled) return place;
  // A control that is now disabled (Undo at the first move): the nearest one in its bar.
  const controls = $$(".bar button, .bar a, .bar summary", root);
  const at = controls.indexOf(place);
  const after = controls.slice(at + 1).find((el) => !el.disabled);
  return after || controls.slice(0, at).reverse().find((el) => !el.disabled) || null;
}

// ---------------------------------------------------------------- a new board
function afterSwap(event) {
  const picked = selection.forgetSelection();
  const root = board();
  if (!root) return;
  // The server's board, kept for Undo and Redo (press.js); then the moves laid on the table and
  // not sent yet are laid again on it.
  if (event) {
    press.shown(root);
    instant.answered(event);
  }
  // Controls that only work with these scripts (the embed's ⚙) come hidden in every board.
  for (const element of $$("[data-needs-js]", root)) element.hidden = false;
  // A card the server sent picked up (the no-JavaScript select) is lit here too.
  const preselected = $(".fan .is-selected", root);
  if (preselected) selection.select(preselected);
  else if (picked) selection.pickAgain(picked);
  const menu = $("details.menu", root);
  if (menu) {
    // Redo, hidden with the menu, gives the focus to its summary.
    const inside = menu.open && menu.contains(document.activeElement);
    menu.open = false;
    if (inside) $("summary", menu).focus({ preventScroll: true });
  }
  mark(root);
  offerFinish(root);
  if (focusKey) {
    const ended = statusBefore === "playing" && root.dataset.status !== "playing";
    const stop = ended ? $(".end .actions button, .end .actions a", root) : focusAfterSwap(root, focusKey);
    // Never scrolled to: a loss's panel lies below the felt, and the page must stay where it was
    // with the cards it explains in view.
    if (stop) stop.focus({ preventScroll: true });
    if (focusLost()) {
      const near = ended ? null : nearestStop($(".fans [data-fan]", root), root);
      const fallback = near || $(".end .actions button, .end .actions a, .bar button:not([disabled])", root);
      if (fallback) fallback.focus({ preventScroll: true });
    }
    focusKey = null;
  }
}

// The server's marks (docs/table.md): the last move's card and the fan it left, and at a loss
// the cards that blocked. Set from the board's attributes on every board, not written in the
// cards' markup, so a fan an answer kept as it was (hx-preserve) is marked or unmarked too.
function mark(root) {
  const marks = { "last-move": root.dataset.lastCard, blocking: root.dataset.blocked };
  for (const [name, codes] of Object.entries(marks)) {
    for (const element of $$(`.${name}`, root)) element.classList.remove(name);
    for (const code of (codes || "").split(" ").filter(Boolean)) {
      for (const element of $$(`[data-card="${code}"]`, root)) element.classList.add(name);
    }
  }
  for (const element of $$(".last-from", root)) element.classList.remove("last-from");
  const from = root.dataset.lastFrom ? $(`.fan[data-fan="${root.dataset.lastFrom}"]`, root) : null;
  if (from) from.classList.add("last-from");
}

// "Finish" when every card left can go home: the fans read top down, each top card going home
// once its foundation has the card below it (the server's Auto-finish then plays them all).
function offerFinish(root) {
  const button = $("[data-finish]", root);
  if (!button) return;
  const home = {};
  for (const foundation of $$("[data-foundation]", root)) home[foundation.dataset.foundation] = Number(foundation.dataset.count || 0);
  const fans = $$(".fans .fan", root).map((fan) => $$("[data-card]", fan).map((card) => card.dataset.card));
  const left = fans.reduce((count, fan) => count + fan.length, 0);
  let moved = true;
  while (moved) {
    moved = false;
    for (const fan of fans) {
      const top = fan[fan.length - 1];
      if (top && RANKS.indexOf(top.slice(0, -1)) === home[top.slice(-1)]) {
        home[top.slice(-1)] += 1;
        fan.pop();
        moved = true;
      }
    }
  }
  button.hidden = !(left && fans.every((fan) => !fan.length) && $('[data-action="auto"]', root));
}

// Listeners on one target run in the order they were added: the input watch before anything
// reads it, a drag's Escape before the keys' own.
selection.installInputWatch();
selection.install();
instant.install();
press.install(() => afterSwap());
drag.install();
keys.install();
document.addEventListener("htmx:beforeRequest", rememberFocus);
// In the swap's own task, not at the settle: a key typed in between ("8 c") lost its focus.
document.addEventListener("htmx:afterSwap", (event) => {
  if (event.target && event.target.id === "board") afterSwap(event);
});
document.addEventListener("htmx:sendError", (event) => {
  if (!instant.answersFor(event)) say(fill("unreachable"));
});
document.addEventListener("htmx:responseError", onResponseError);
drag.installUnfade();
dialogs.install();
document.addEventListener("htmx:configRequest", onConfigRequest);
timer.install();
selection.installMerci();

document.addEventListener("click", (event) => {
  const finish = event.target.closest && event.target.closest("#board [data-finish]");
  if (!finish) return;
  finish.setAttribute("aria-busy", "true");
  clickAction("auto");
});

function start() {
  for (const element of $$("[data-needs-js]")) element.hidden = false;
  afterSwap();
  if (board()) press.shown(board());
  timer.startTimer();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
