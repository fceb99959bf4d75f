// Instant moves (docs/frontend.md): a move the server's board lists for a card is laid on the
// table at once, then sent, one at a time, each after the answer before it (so with its move
// count). Each answer is the board; a refusal ends the moves still waiting; with no answer the
// laid moves come off and the board is asked for until the server answers.
import { $, board, fill, focusLost, nearestStop, say } from "./page.js";

const TIMEOUT_MS = 10000;
const RETRY_MS = 4000;
// Requests are told apart by their XMLHttpRequest: after a swap htmx fires their events on an
// element still in the page, not on the form that sent them.
let sent = null; // the move's request under way
let other = null; // another board request under way (Undo, Hint, Redeal…)
let sending = false;
let retry = null; // while no answer comes: the timer of the next ask for the board
const queue = []; // moves laid, to send after that answer
const later = []; // taps and presses waiting for an answer (see hold)
let kept = []; // [{ element, copy }]: the server's fans and foundations under the laid moves

const cardIn = (code, root) => $(`.fan [data-card="${code}"]`, root);

// A move's text as the server writes it in a card's `data-moves` (docs/notation.md): its card,
// and its place: a card it builds on (`onto`), an empty fan (`fan`) or its foundation (`home`);
// null for any other text. tests/browser/test_notation.py holds it to the engine's reading.
const CARD = "[A2-9TJQK][CDHS]";
const MOVE = new RegExp(`^(\\*?)(${CARD})>(F|@(\\d{1,4})|${CARD})$`);
export function parseMove(text) {
  if (text === "R") return { redeal: true };
  const found = MOVE.exec(text || "");
  if (!found) return null;
  const [, star, card, target, fan] = found;
  const home = target === "F";
  const onto = home || fan !== undefined ? null : target;
  return { card, merci: star === "*", home, fan: fan === undefined ? null : Number(fan), onto };
}
const lost = () => retry !== null;

export const touched = (element) => kept.some((entry) => entry.element.contains(element));

export function busy() {
  return Boolean(sent || other || queue.length || lost());
}

function keep(element) {
  if (!kept.some((entry) => entry.element === element)) kept.push({ element, copy: element.cloneNode(true) });
}

function takeBack() {
  for (const { element, copy } of kept) element.replaceWith(copy);
  kept = [];
}

// Lay `text` if the board lists it for its card and no laid move touched its card or place.
// `again`: on an answer's board, where it was on show already (so no motion).
function lay(text, again = false) {
  const root = board();
  const move = parseMove(text);
  if (!move || move.redeal) return false;
  const source = move.card;
  const card = root && cardIn(source, root);
  if (!card || !(card.dataset.moves || "").split(" ").includes(text)) return false;
  let place = move.onto && cardIn(move.onto, root);
  if (move.home) place = $(`[data-foundation="${source.slice(-1)}"]`, root);
  else if (move.fan !== null) place = $(`[data-fan="${move.fan}"] .slot`, root);
  if (!place || touched(card) || touched(place)) return false;
  const from = card.closest("[data-fan]");
  const home = place.closest("[data-foundation]");
  const onto = home || place.closest("[data-fan]");
  // The move count shown waits for the answer, as the status and the controls do.
  const message = $(".message", root);
  // The focus stays on the fan the card left, never on the page's body (docs/frontend.md).
  const focused = !focusLost() && root.contains(document.activeElement);
  for (const element of [from, onto, message]) if (element) keep(element);
  if (!again) document.dispatchEvent(new CustomEvent("lucie:lay"));
  card.classList.remove("is-selected", "buried", "is-target", "is-dragged");
  card.classList.add("is-top");
  if (home) {
    const shown = document.createElement("span");
    shown.className = `card ${card.classList.contains("red") ? "red" : "black"} is-top`;
    shown.dataset.card = source;
    shown.append(...card.childNodes);
    home.replaceChildren(shown);
    card.remove();
  } else if (place.classList.contains("slot")) {
    onto.classList.remove("empty");
    place.replaceWith(card);
  } else {
    place.classList.replace("is-top", "buried");
    onto.append(card);
  }
  const top = Array.from(from.querySelectorAll("[data-card]")).pop();
  if (top) uncover(top);
  else {
    from.classList.add("empty");
    from.append(Object.assign(document.createElement("span"), { className: "slot" }));
  }
  // The live region waits for the answer: a screen reader hears the move once, as the server says it.
  if (message) message.textContent = "";
  if (focused && focusLost()) {
    const stop = nearestStop(from, root);
    if (stop) stop.focus({ preventScroll: true });
  }
  if (!again) document.dispatchEvent(new CustomEvent("lucie:laid"));
  return true;
}

// The card a laid move leaves on top of its fan is a top card at once: a button, as the server
// draws one (the board's <template id="top-card">, from game/templatetags/card_tags.py), listing no
// moves until the answer lists them (a tap on it waits for that answer). As the image of a
// buried card it was no target for a finger: a phone gave the tap to the merci's button on the
// strip above it.
function uncover(card) {
  let top = card;
  const template = document.getElementById("top-card");
  if (card.tagName !== "BUTTON" && template) {
    top = template.content.firstElementChild.cloneNode(true);
    for (const name of ["data-card", "aria-label"]) top.setAttribute(name, card.getAttribute(name) || "");
    top.classList.add(...card.classList);
    top.value = card.dataset.card;
    top.append(...card.childNodes);
    card.replaceWith(top);
  }
  top.classList.replace("buried", "is-top");
  top.classList.remove("buried");
}

// A move chosen on the table: a tap, a drop, a key, a double tap.
export function play(text) {
  if (lost()) say(fill("taken_back"));
  else if (lay(text)) {
    queue.push(text);
    send();
  }
}

function send() {
  const form = document.getElementById("js-move-form");
  if (sent || other || !queue.length || !form) return;
  form.elements.move.value = queue.shift();
  sending = sent = true;
  window.htmx.ajax("POST", form.getAttribute("hx-post"), { source: form, target: "#board", swap: "outerHTML" });
}

// A tap that the table as it is cannot judge waits for the answer, then runs, in order: one
// where a laid move changed the table, or on a card listed with no move (a laid move may have
// given it one: the Two once the Ace is home). True when held.
export function hold(element, replay) {
  if (lost()) {
    say(fill("taken_back"));
    return true;
  }
  const card = element.closest(".fan [data-card]");
  const unlisted = busy() && card && !card.dataset.moves && !element.closest(".is-target");
  if (!later.length && !other && !unlisted && !touched(element)) return false;
  later.push(replay);
  return true;
}

// An answer's board is about to come in: the laid moves come off first, so that the fans it
// leaves out as unchanged are the server's.
function onBeforeSwap(event) {
  if (event.detail.target && event.detail.target.id === "board") takeBack();
}

// The answer's board is in: the moves still waiting are laid on it, if it lists them.
export function answered(event) {
  if (event.detail.xhr && event.detail.xhr.status >= 300) {
    queue.length = later.length = 0;
    return;
  }
  for (const text of queue.splice(0)) {
    if (lay(text, true)) queue.push(text);
    else {
      const region = document.getElementById("announce");
      say(fill("stale"), `${region ? region.textContent : ""} ${fill("stale")}`);
      later.length = 0;
      break;
    }
  }
}

// Whether this module speaks for a failed request: a move's, or any while the board is asked for.
export function answersFor(event) {
  return lost() || event.detail.xhr === sent;
}

function next() {
  setTimeout(() => {
    send();
    for (const replay of later.splice(0)) replay();
  }, 0);
}

function onBeforeRequest(event) {
  if (sending) sent = event.detail.xhr;
  else if (event.detail.target && event.detail.target.id === "board") other = event.detail.xhr;
  sending = false;
}

function onAfterRequest(event) {
  const xhr = event.detail.xhr;
  if (xhr && xhr === other) {
    other = null;
    next();
  }
  if (!xhr || xhr !== sent) return;
  sent = null;
  if (xhr.status && xhr.status < 300) next();
  else if (![400, 409, 429, 503].includes(xhr.status)) lose();
}

// No answer (no network, a time-out, a failed server): the server's last board, and ask for it.
function lose() {
  takeBack();
  queue.length = later.length = 0;
  say(fill("taken_back"));
  if (!lost()) retry = setTimeout(askAgain, RETRY_MS);
}

function askAgain() {
  const form = document.getElementById("select-form");
  clearTimeout(retry);
  retry = setTimeout(askAgain, RETRY_MS);
  if (!form) return;
  const asked = board();
  window.htmx.ajax("GET", form.getAttribute("action"), { source: form, target: "#board", swap: "outerHTML" }).then(
    () => {
      if (board() === asked) return;
      clearTimeout(retry);
      retry = null;
    },
    () => {},
  );
}

export function install() {
  window.addEventListener("htmx:beforeSwap", onBeforeSwap);
  document.addEventListener("htmx:beforeRequest", onBeforeRequest);
  document.addEventListener("htmx:afterRequest", onAfterRequest);
  document.addEventListener("htmx:configRequest", (event) => {
    if (sending) event.detail.timeout = TIMEOUT_MS;
  });
  window.addEventListener("online", () => lost() && askAgain());
  // The board's controls wait for the moves on their way (Undo undoes the last of them).
  document.addEventListener("click", (event) => {
    const control = event.target.closest && event.target.closest("#board [data-action]");
    if (!control || !busy()) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (lost()) return say(fill("taken_back"));
    control.setAttribute("aria-busy", "true");
    later.push(() => {
      const again = board() && $(`[data-action="${control.dataset.action}"]`, board());
      if (again && !again.disabled) again.click();
    });
  }, true);
}
