// Instant moves (docs/frontend.md): a move from the list the server's board gives a card is laid
// on the table at once, then sent; the answer, when it comes, is the board. The browser judges
// nothing: it lays only a move the card's data-moves lists, and sends one move at a time, each
// with the move count of the answer before it, so that quick taps are neither lost, doubled nor
// reordered. Whatever the server answers (a refusal, a stale board, a busy site) is shown as it
// is; with no answer at all, the table goes back to the server's last board and the page asks
// for the board again once the network is back.
import { $, board, fill, say } from "./page.js";

const TIMEOUT_MS = 10000; // a move's answer; then the move is taken back and the board asked for
const RETRY_MS = 4000; // while the server cannot be reached: one request for the board each time
// htmx tells a request's events apart by its XMLHttpRequest (once the board is swapped, they
// are fired on an element still in the page, not on the form that sent them).
let sent = null; // the request of the move whose answer is awaited
let other = null; // a board request of another kind (Undo, Hint, Redeal…) under way
let sending = false; // between send() and its beforeRequest
let retry = null; // the timer of the next ask for the board, while no answer comes
const queue = []; // moves laid on the table, waiting for that answer before they are sent
const later = []; // taps and presses that wait for an answer (see hold)
let kept = []; // [{ element, copy }]: the server's fans and foundations as laid moves found them

const cardIn = (code, root) => $(`.fan [data-card="${code}"]`, root);
const lost = () => retry !== null;

// A move's card and where it goes: a foundation, an empty fan's slot, or the card it builds on.
function ends(text) {
  const root = board();
  const [source, target] = text.replace("*", "").split(">");
  const card = root && cardIn(source, root);
  if (!card) return null;
  if (target === "F") return { card, place: $(`[data-foundation="${source.slice(-1)}"]`, root) };
  if (target.startsWith("@")) return { card, place: $(`[data-fan="${target.slice(1)}"] .slot`, root) };
  return { card, place: cardIn(target, root) };
}

// Whether an element lies where a move laid here, and not yet answered, changed the table.
export function touched(element) {
  return kept.some(({ element: changed }) => changed.contains(element));
}

export function busy() {
  return Boolean(sent || other || queue.length || lost());
}

function keep(element) {
  if (!kept.some((entry) => entry.element === element)) kept.push({ element, copy: element.cloneNode(true) });
}

// The server's board as it was before any move laid here: the copies go back in their places.
function takeBack() {
  for (const { element, copy } of kept) element.replaceWith(copy);
  kept = [];
}

// Lay `text` on the table, if the server listed it for a card nobody touched since; else false.
// `again`: laid again on an answer's board, where it was already on show (no motion).
function lay(text, again = false) {
  const found = ends(text);
  if (!found || !found.place) return false;
  const { card, place } = found;
  const listed = (card.dataset.moves || "").split(" ").includes(text);
  if (!listed || touched(card) || touched(place)) return false;
  const from = card.closest("[data-fan]");
  const home = place.closest("[data-foundation]");
  const onto = home || place.closest("[data-fan]");
  const count = $(".moves b", board());
  for (const element of [from, onto, count]) if (element) keep(element);
  if (!again) document.dispatchEvent(new CustomEvent("lucie:lay"));
  card.classList.remove("is-selected", "buried", "is-target", "is-dragged");
  card.classList.add("is-top");
  card.removeAttribute("aria-pressed");
  if (home) {
    const shown = document.createElement("span");
    shown.className = `card ${card.classList.contains("red") ? "red" : "black"} is-top`;
    shown.dataset.card = card.dataset.card;
    shown.append(...card.childNodes);
    home.replaceChildren(shown);
    home.dataset.count = String(Number(home.dataset.count || 0) + 1);
    card.remove();
  } else if (place.classList.contains("slot")) {
    onto.classList.remove("empty");
    place.replaceWith(card);
  } else {
    place.classList.remove("is-top", "is-target");
    place.classList.add("buried");
    onto.append(card);
  }
  const top = Array.from(from.querySelectorAll("[data-card]")).pop();
  if (top) {
    top.classList.remove("buried");
    top.classList.add("is-top");
  } else {
    from.classList.add("empty");
    const slot = document.createElement("span");
    slot.className = "slot";
    slot.setAttribute("aria-hidden", "true");
    from.append(slot);
  }
  if (count) count.textContent = String(Number(count.textContent) + 1);
  // The message line no longer fits; the live region waits for the answer, so that a screen
  // reader hears the move once, as the server words it.
  const message = $(".message", board());
  if (message) message.textContent = "";
  if (!again) document.dispatchEvent(new CustomEvent("lucie:laid"));
  return true;
}

// A move chosen on the table (a tap, a drop, a key, a double tap).
export function play(text) {
  if (lost()) {
    say(fill("taken_back"));
    return;
  }
  if (!lay(text)) return;
  queue.push(text);
  if (!sent) send();
}

function send() {
  const form = document.getElementById("js-move-form");
  if (sent || !queue.length || !form || !window.htmx) return;
  form.elements.move.value = queue.shift();
  sending = true;
  sent = true;
  window.htmx.ajax("POST", form.getAttribute("hx-post"), { source: form, target: "#board", swap: "outerHTML" });
}

// A tap that cannot be judged on the table as it is waits for the answer, and runs then, in the
// order it came: one where a laid move changed the table, or on a card whose list says it has no
// move (a laid move may have given it one: the Two once the Ace is home). True when it was held.
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

function replayHeld() {
  const waiting = later.splice(0);
  for (const replay of waiting) replay();
}

// An answer is about to be swapped in: it is the server's board, so the laid moves come off
// first (the fans it leaves out as unchanged are the ones the browser held before them).
function onBeforeSwap(event) {
  if (event.detail && event.detail.target && event.detail.target.id === "board") takeBack();
}

// The board is in: the moves still waiting are laid again on it, if it lists them.
export function answered(event) {
  const status = event.detail && event.detail.xhr ? event.detail.xhr.status : 200;
  if (status >= 300) {
    queue.length = 0;
    later.length = 0;
    return;
  }
  const waiting = queue.splice(0);
  for (const text of waiting) {
    if (lay(text, true)) queue.push(text);
    else {
      const region = document.getElementById("announce");
      say(fill("dropped"), `${region ? region.textContent : ""} ${fill("dropped")}`.trim());
      later.length = 0;
      break;
    }
  }
}

// Whether this module speaks for a failed request: a move's, or any while the board is asked for.
export function answersFor(event) {
  const xhr = event.detail && event.detail.xhr;
  return lost() || Boolean(xhr && xhr === sent);
}

function next() {
  setTimeout(() => {
    send();
    replayHeld();
  }, 0);
}

function onBeforeRequest(event) {
  const detail = event.detail || {};
  if (sending) sent = detail.xhr;
  else if (detail.target && detail.target.id === "board") other = detail.xhr;
  sending = false;
}

function onAfterRequest(event) {
  const detail = event.detail || {};
  if (detail.xhr && detail.xhr === other) {
    other = null;
    next();
  }
  if (!detail.xhr || detail.xhr !== sent) return;
  const status = detail.xhr ? detail.xhr.status : 0;
  sent = null;
  if (status && status < 300) next();
  else if (!(status === 400 || status === 409 || status === 429 || status === 503)) {
    lose();
  }
}

// No answer (no network, a time-out, a server that failed): back to the server's last board,
// and ask for the board as the server has it until it answers.
function lose() {
  takeBack();
  queue.length = 0;
  later.length = 0;
  say(fill("taken_back"));
  if (!lost()) retry = setTimeout(askAgain, RETRY_MS);
}

function askAgain() {
  const root = board();
  const form = document.getElementById("select-form");
  clearTimeout(retry);
  retry = null;
  if (!root || !form || !window.htmx) return;
  retry = setTimeout(askAgain, RETRY_MS);
  window.htmx.ajax("GET", form.getAttribute("action"), { source: form, target: "#board", swap: "outerHTML" }).then(
    () => {
      if (!lost() || board() === root) return;
      clearTimeout(retry);
      retry = null;
      say(fill("back"));
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
  window.addEventListener("online", () => {
    if (lost()) askAgain();
  });
  // The board's controls wait for the moves on their way (Undo must undo the last of them).
  document.addEventListener("click", (event) => {
    const control = event.target.closest && event.target.closest("#board [data-action]");
    if (!control || !busy()) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (lost()) {
      say(fill("taken_back"));
      return;
    }
    control.setAttribute("aria-busy", "true");
    later.push(() => {
      const again = board() && $(`[data-action="${control.dataset.action}"]`, board());
      if (again && !again.disabled) again.click();
    });
  }, true);
}
