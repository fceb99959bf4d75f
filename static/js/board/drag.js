// Dragging a card onto a lit place: the same moves a tap picks, posted the same way. A press
// that hardly moves stays a click or a tap. (A card that can move takes no scrolling gesture:
// touch-action: none in board.css.)
import { touched } from "./instant.js";
import { $, $$, board, fill, html, reducedMotion, say } from "./page.js";
import { clearSelection, litPlace, moveTo, select, selectedCard, submitMove } from "./selection.js";

const DRAG_THRESHOLD = 5; // px: below this a press and release is a click (or a double click)
const TOUCH_THRESHOLD = 9; // a fingertip wobbles more than a mouse
let drag = null; // { card, pointerId, x, y, left, top, ghost, started, touch }
let swallowClick = false;

function makeGhost(card, rect) {
  const ghost = document.createElement("span");
  ghost.className = `card ${card.classList.contains("red") ? "red" : "black"} drag-ghost`;
  ghost.dataset.card = card.dataset.card; // for the four-colour setting
  ghost.setAttribute("aria-hidden", "true");
  const face = $(".face", card);
  if (face) ghost.appendChild(face.cloneNode(true));
  // Outside the table no card size is computed: the ghost takes the card's (CSSOM).
  const style = getComputedStyle(card);
  for (const name of ["--card-w", "--card-h", "--peek"]) ghost.style.setProperty(name, style.getPropertyValue(name));
  document.body.appendChild(ghost);
  drag.ghost = ghost;
  drag.left = rect.left;
  drag.top = rect.top;
  placeGhost(0, 0);
}

function placeGhost(dx, dy) {
  // Through the CSSOM, which style-src 'self' allows (a style attribute in markup it would not).
  drag.ghost.style.transform = `translate(${drag.left + dx}px, ${drag.top + dy}px)`;
}

function dropTarget(x, y) {
  if (!selectedCard()) return null;
  drag.ghost.style.visibility = "hidden";
  const under = document.elementFromPoint(x, y);
  drag.ghost.style.visibility = "";
  return under ? litPlace(under) : null;
}

function endDrag() {
  if (!drag) return null;
  const ended = drag;
  drag = null;
  document.removeEventListener("pointermove", onDragMove, true);
  document.removeEventListener("pointerup", onDragUp, true);
  document.removeEventListener("pointercancel", onDragCancel, true);
  html.classList.remove("is-dragging");
  if (ended.card.hasPointerCapture && ended.card.hasPointerCapture(ended.pointerId)) {
    ended.card.releasePointerCapture(ended.pointerId);
  }
  return ended;
}

// Put the card back: the ghost glides home (or simply goes, with reduced motion).
function cancelDrag(ended) {
  clearSelection();
  say("");
  const { ghost, card } = ended;
  const done = () => {
    ghost.remove();
    card.classList.remove("is-dragged");
  };
  if (reducedMotion()) {
    done();
    return;
  }
  ghost.classList.add("is-returning");
  ghost.addEventListener("transitionend", done, { once: true });
  setTimeout(done, 400); // in case no transition runs
  ghost.style.transform = `translate(${ended.left}px, ${ended.top}px)`;
}

function onDragMove(event) {
  if (!drag || event.pointerId !== drag.pointerId) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.started) {
    if (Math.hypot(dx, dy) < (drag.touch ? TOUCH_THRESHOLD : DRAG_THRESHOLD)) return;
    drag.started = true;
    const rect = drag.card.getBoundingClientRect(); // before the selection moves it (a hinted card sits 3 px up)
    select(drag.card, fill("drop"));
    if (!selectedCard()) {
      endDrag();
      return;
    }
    drag.card.setPointerCapture(drag.pointerId);
    drag.card.classList.add("is-dragged");
    html.classList.add("is-dragging");
    makeGhost(drag.card, rect);
  }
  event.preventDefault();
  placeGhost(dx, dy);
}

function onDragUp(event) {
  if (!drag || event.pointerId !== drag.pointerId) return;
  if (!drag.started) {
    endDrag(); // a click: the click handler takes it from here
    return;
  }
  event.preventDefault();
  const target = dropTarget(event.clientX, event.clientY);
  const ended = endDrag();
  // The click that follows this release would select or deselect the card: swallow it.
  swallowClick = true;
  setTimeout(() => {
    swallowClick = false;
  }, 0);
  if (target) {
    ended.ghost.remove();
    submitMove(moveTo(target));
  } else {
    cancelDrag(ended);
  }
}

function onDragCancel(event) {
  if (!drag || event.pointerId !== drag.pointerId) return;
  const ended = endDrag();
  if (ended.started) cancelDrag(ended);
}

function onPointerDown(event) {
  if (drag || event.button !== 0 || !event.isPrimary) return;
  const card = event.target.closest && event.target.closest(".fan button[data-card][data-moves]");
  const root = board();
  // A card where a move on its way changed the table waits for the answer (a tap, held).
  if (!card || !root || !root.contains(card) || !card.dataset.moves || touched(card)) return;
  drag = {
    card,
    pointerId: event.pointerId,
    x: event.clientX,
    y: event.clientY,
    started: false,
    touch: event.pointerType === "touch",
  };
  document.addEventListener("pointermove", onDragMove, true);
  document.addEventListener("pointerup", onDragUp, true);
  document.addEventListener("pointercancel", onDragCancel, true);
}

// A dropped card waits faded for the new board; when none comes, show it again.
function unfade() {
  $$(".is-dragged").forEach((el) => el.classList.remove("is-dragged"));
}

export function install() {
  document.addEventListener("pointerdown", onPointerDown);
  window.addEventListener(
    "click",
    (event) => {
      if (!swallowClick) return;
      swallowClick = false;
      event.preventDefault(); // the card is a submit button of the no-JavaScript select form
      event.stopPropagation();
    },
    true,
  );
  document.addEventListener(
    "keydown",
    (event) => {
      if (event.key !== "Escape" || !drag) return;
      const ended = endDrag();
      if (ended.started) {
        event.stopPropagation();
        cancelDrag(ended);
      }
    },
    true,
  );
}

export function installUnfade() {
  for (const name of ["htmx:sendError", "htmx:responseError"]) document.addEventListener(name, unfade);
}
