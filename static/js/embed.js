// The embed's script (the snippet page's Copy button is copy.js's). Progressive
// enhancement only: without it the frame still plays by plain form posts.
//
// Outer-page reloads: a frame starts again from its src (/embed/), so the frame remembers its
// game's token in its own localStorage, keyed by rule set and deal, and goes back to that game
// when it shows the same deal's start. Never a cookie. Browsers that partition storage keep this
// per embedding site; a browser that denies storage to cross-site frames (Chromium with
// third-party cookies blocked, for one) makes getItem throw, and the frame simply starts afresh.
"use strict";
(() => {
  const PREFIX = "lucie.embed.";
  const board = () => document.getElementById("board");
  // The frame's language is its URL's prefix (/fr/embed/…, none for English): a game it goes
  // back to keeps it.
  const prefix = (window.location.pathname.match(/^\/[a-z]{2}(?=\/embed\/)/) || [""])[0];

  function storage() {
    try {
      const store = window.localStorage;
      return store || null;
    } catch (error) {
      return null; // Access denied to this (cross-site) frame: nothing is remembered.
    }
  }

  function keyFor(root) {
    return `${PREFIX}${root.dataset.rules}.${root.dataset.deal}`;
  }

  // Remember a game while it can still be played (lost games can be undone); forget a won one.
  function remember() {
    const root = board();
    const store = storage();
    if (!root || !store || !root.dataset.token) return;
    try {
      if (root.dataset.status === "playing" || root.dataset.status === "lost") {
        store.setItem(keyFor(root), root.dataset.token);
      } else {
        store.removeItem(keyFor(root));
      }
    } catch (error) {
      // Storage full or refused: the game still plays, it just is not remembered.
    }
  }

  // On a deal's start board, go back to this frame's game of that deal if it has one.
  function resume() {
    const root = board();
    const store = storage();
    if (!root || !store || root.dataset.token) return false;
    let token = null;
    try {
      token = store.getItem(keyFor(root));
    } catch (error) {
      return false;
    }
    if (!token || !/^[A-Za-z0-9_-]+$/.test(token)) return false;
    window.location.replace(`${prefix}/embed/g/${token}/`);
    return true;
  }

  // A remembered game that the server no longer knows: forget it, so the start shows next time.
  function forgetMissing() {
    const store = storage();
    const found = window.location.pathname.match(/^(?:\/[a-z]{2})?\/embed\/g\/([A-Za-z0-9_-]+)\//);
    if (!store || !found || !document.querySelector("[data-missing]")) return;
    try {
      for (const key of Object.keys(store)) {
        if (key.startsWith(PREFIX) && store.getItem(key) === found[1]) store.removeItem(key);
      }
    } catch (error) {
      // Nothing to forget then.
    }
  }

  // "Another deal" leaves a game under way: the first press asks, a second press (within a few
  // seconds) goes. A dialog would need window.confirm, which browsers may block in a frame.
  let armed = null;
  function disarm() {
    if (!armed) return;
    armed.textContent = armed.dataset.label;
    armed.classList.remove("armed");
    armed = null;
  }

  function another(link, event) {
    const root = board();
    const underWay = root && root.dataset.status === "playing" && root.dataset.started === "true";
    if (!underWay || armed === link) return; // Let the link go.
    event.preventDefault();
    disarm();
    armed = link;
    link.dataset.label = link.textContent;
    link.textContent = document.body.dataset.leaveLabel || "Leave this game?";
    link.classList.add("armed");
    const message = root.querySelector(".message");
    const text = document.body.dataset.leaveText || "Press again to leave this game for another deal.";
    if (message) message.textContent = text;
    const region = document.getElementById("announce");
    if (region) region.textContent = text;
    setTimeout(() => {
      if (armed === link) disarm();
    }, 4000);
  }

  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest('[data-action="another"]');
    if (link) another(link, event);
  });

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || !board()) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (event.key.toLowerCase() !== "n") return;
    const link = board().querySelector('[data-action="another"]');
    if (!link) return;
    event.preventDefault();
    link.click(); // Through the click handler above: it asks first when a game is under way.
  });

  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target && event.target.id === "board") {
      armed = null;
      remember();
    }
  });

  function start() {
    forgetMissing();
    if (!resume()) remember();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
