// The timer. The server keeps the time (game/board/clock.py); the display ticks from its
// reading while the page is visible. Hiding sends `pause` (a beacon survives the page going
// away), showing sends `resume`, whose answer resets the display to the server's figure.
import { $, board } from "./page.js";

const clock = { base: 0, at: null, cap: 300000, element: null };

function timerElement() {
  const root = board();
  return root ? $(".timer", root) : null;
}

function visible() {
  return document.visibilityState !== "hidden";
}

function live(timer) {
  return timer && timer.dataset.running === "true";
}

function shownMs() {
  if (clock.at === null) return clock.base;
  return clock.base + Math.min(Math.max(0, Date.now() - clock.at), clock.cap);
}

function showTime(timer, ms) {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  const text = h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
  if (timer.textContent !== text) timer.textContent = text;
}

function readTimer() {
  const timer = timerElement();
  clock.element = timer;
  if (!timer) return;
  clock.base = Number(timer.dataset.elapsedMs) || 0;
  clock.cap = Number(timer.dataset.capMs) || clock.cap;
  clock.at = live(timer) && visible() ? Date.now() : null;
  timer.dataset.ticking = String(clock.at !== null);
}

function tick() {
  const timer = timerElement();
  if (!timer) return;
  if (timer !== clock.element) readTimer();
  if (live(timer) && clock.at !== null) showTime(timer, shownMs());
}

// The page's CSRF token, from the hx-headers on <body> (a beacon cannot set headers).
function csrfToken() {
  try {
    const headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}");
    return headers["X-CSRFToken"] || "";
  } catch (error) {
    return "";
  }
}

function clockForm(state) {
  const form = new FormData();
  form.append("state", state);
  const token = csrfToken();
  if (token) form.append("csrfmiddlewaretoken", token);
  return form;
}

function pauseClock() {
  const timer = timerElement();
  if (!timer) return;
  clock.base = shownMs();
  clock.at = null;
  timer.dataset.ticking = "false";
  if (!live(timer) || !timer.dataset.clockUrl) return;
  const form = clockForm("pause");
  if (!(navigator.sendBeacon && navigator.sendBeacon(timer.dataset.clockUrl, form))) {
    fetch(timer.dataset.clockUrl, { method: "POST", body: form, keepalive: true, credentials: "same-origin" }).catch(() => {});
  }
}

function resumeClock() {
  const timer = timerElement();
  if (!timer || !live(timer)) return;
  clock.at = Date.now();
  timer.dataset.ticking = "true";
  if (!timer.dataset.clockUrl) return;
  fetch(timer.dataset.clockUrl, { method: "POST", body: clockForm("resume"), credentials: "same-origin" })
    .then((response) => (response.ok ? response.json() : null))
    .then((reading) => {
      if (!reading || timerElement() !== timer || !visible()) return;
      clock.base = reading.elapsed_ms;
      clock.at = reading.running ? Date.now() : null;
      timer.dataset.ticking = String(clock.at !== null);
      showTime(timer, shownMs());
    })
    .catch(() => {});
}

export function install() {
  document.addEventListener("visibilitychange", () => {
    if (visible()) resumeClock();
    else pauseClock();
  });
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target && event.target.id === "board") readTimer();
  });
  setInterval(tick, 250);
}

// A page loaded in view runs the clock again, whatever the last page's pause left.
export function startTimer() {
  readTimer();
  if (visible()) resumeClock();
}
