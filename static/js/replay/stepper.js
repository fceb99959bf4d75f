// A replay's steps, taken in the page: ← → one move, Home End the ends of the branch on show,
// the buttons and the move list's links for a finger or a mouse, `#m43` in the address. Every
// step's felt came with the page (game/records/steps.py): a step carries only the fans and
// foundations that changed since its parent step, so the felt for a step is put together by
// walking up its parents and taking the nearest version of each part. Nothing here knows the
// rules or writes words of its own; without this script every step is a link the server draws.
"use strict";

const replay = document.getElementById("replay");
const list = document.getElementById("move-list");
const store = document.getElementById("replay-parts");

const KEYS = { ArrowLeft: "previous", ArrowRight: "next", Home: "start", End: "end" };

// step key -> its <li>; step key -> { part: <template> }
const items = new Map();
const parts = new Map();

function index() {
  for (const item of list.querySelectorAll("li[data-step]")) items.set(item.dataset.step, item);
  for (const template of store.querySelectorAll("template[data-step]")) {
    const key = template.dataset.step;
    if (!parts.has(key)) parts.set(key, {});
    parts.get(key)[template.dataset.part] = template;
  }
}

// The felt of step `key`: the row of fans and the four foundations, as fresh elements.
function felt(key) {
  const fans = {};
  const homes = {};
  let row = null;
  for (let at = key; at !== undefined && at !== ""; at = items.get(at)?.dataset.parent) {
    const changed = parts.get(at) || {};
    for (const [name, template] of Object.entries(changed)) {
      if (name.startsWith("home-")) {
        if (!(name in homes)) homes[name] = template;
      } else if (name.startsWith("fan-")) {
        if (!row && !(name in fans)) fans[name] = template;
      } else if (name === "fans" && !row) {
        row = template;
      }
    }
    if (row && Object.keys(homes).length === 4) break;
  }
  const fresh = row.content.querySelector(".fans").cloneNode(true);
  for (const [name, template] of Object.entries(fans)) {
    const old = fresh.querySelector(`.fan[data-fan="${name.slice(4)}"]`);
    if (old) old.replaceWith(template.content.querySelector(".fan").cloneNode(true));
  }
  const foundations = Object.fromEntries(
    Object.entries(homes).map(([name, t]) => [name.slice(5), t.content.querySelector(".foundation").cloneNode(true)]),
  );
  return { fans: fresh, foundations };
}

function shownKey() {
  return replay.dataset.step;
}

// Where a control leads from the step on show.
function target(name, key = shownKey()) {
  const item = items.get(key);
  if (!item) return null;
  if (name === "previous") return item.dataset.parent || null;
  if (name === "next") return item.dataset.next || null;
  if (name === "start") return "0";
  if (name === "end") {
    let at = key;
    while (items.get(at)?.dataset.next) at = items.get(at).dataset.next;
    return at;
  }
  return null;
}

function href(key) {
  const [at, line] = key.split("-");
  return `?at=${at}${line ? `&line=${line}` : ""}#m${key}`;
}

// A step control is a link when it leads somewhere, and a disabled look when it does not.
function setControl(name, to) {
  const control = replay.querySelector(`[data-step-link="${name}"]`);
  if (!control) return;
  if (to === null || to === shownKey()) {
    control.removeAttribute("href");
    control.classList.add("disabled");
    control.setAttribute("aria-disabled", "true");
  } else {
    control.setAttribute("href", href(to));
    control.classList.remove("disabled");
    control.removeAttribute("aria-disabled");
  }
}

function show(key, { focusList = false } = {}) {
  const item = items.get(key);
  if (!item || !parts.size) return false;
  const { fans, foundations } = felt(key);
  replay.querySelector(".fans").replaceWith(fans);
  for (const [suit, element] of Object.entries(foundations)) {
    const old = replay.querySelector(`.foundation[data-foundation="${suit}"]`);
    if (old) old.replaceWith(element);
  }
  replay.dataset.step = key;

  // The words: the list's own, and the server's sentence for the live region.
  const link = item.querySelector(":scope > a");
  const line = item.dataset.line;
  const move = replay.querySelector(".replay-move");
  const text = [...link.childNodes]
    .filter((node) => !(node.classList && node.classList.contains("mark")))
    .map((node) => node.textContent)
    .join("")
    .trim();
  move.textContent = line ? `${list.dataset.wordsLine} ${text}` : text;
  for (const count of replay.querySelectorAll(".step-count")) {
    const mine = count.dataset.count === (line ? "line" : "game");
    count.hidden = !mine;
    if (mine) count.querySelector("b").textContent = line || key;
  }
  const numbers = replay.querySelectorAll(".info b");
  if (numbers[0]) numbers[0].textContent = item.dataset.deal;
  if (numbers[1]) numbers[1].textContent = item.dataset.home;
  const announce = document.getElementById("announce");
  if (announce) announce.textContent = item.dataset.say;

  for (const name of ["start", "previous"]) setControl(name, target(name));
  for (const name of ["next", "end"]) setControl(name, target(name));
  for (const current of document.querySelectorAll('.move-list [aria-current="step"], .jumps [aria-current="step"]')) {
    current.removeAttribute("aria-current");
  }
  link.setAttribute("aria-current", "step");
  const jump = replay.querySelector(`.jumps [data-jump="${key}"]`);
  if (jump) jump.setAttribute("aria-current", "step");

  // The list follows, inside its own box: the page itself never scrolls.
  const box = list.closest(".move-list-box");
  const top = link.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
  if (top < box.scrollTop || top + link.offsetHeight > box.scrollTop + box.clientHeight) {
    box.scrollTop = Math.max(0, top - box.clientHeight / 2);
  }
  if (focusList) link.focus();
  history.replaceState(null, "", href(key));
  return true;
}

function keyFromHash() {
  const found = /^#m(\d+(?:-\d+)?)$/.exec(location.hash);
  return found && items.has(found[1]) ? found[1] : null;
}

if (replay && list && store) {
  index();
  const opening = keyFromHash();
  if (opening && opening !== shownKey()) show(opening);

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
    if (!(event.key in KEYS)) return;
    if (event.target.closest && event.target.closest("input, textarea, select, dialog")) return;
    const to = target(KEYS[event.key]);
    event.preventDefault();
    if (to !== null) show(to);
  });

  // A press on a step control, a jump or a step of the list: the same step, with no request.
  document.addEventListener("click", (event) => {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    const link = event.target.closest && event.target.closest("#replay [data-step-link], #replay [data-jump], #move-list a");
    if (!link) return;
    event.preventDefault();
    let to = null;
    if (link.dataset.stepLink) to = target(link.dataset.stepLink);
    else if (link.dataset.jump) to = link.dataset.jump;
    else to = link.closest("li[data-step]").dataset.step;
    if (to !== null) show(to, { focusList: link.closest("#move-list") !== null });
  });

  window.addEventListener("hashchange", () => {
    const key = keyFromHash();
    if (key) show(key);
  });
}
