// The board's progressive enhancement: tap-to-select, keyboard play, dialogs, the timer.
// Every card that may move carries the moves the server computed (data-moves="6C>7C 6C>F");
// this script only lights up those places and posts the chosen move. It never judges legality.
"use strict";
(() => {
  const $ = (selector, root = document) => root.querySelector(selector);
  const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));
  const board = () => document.getElementById("board");

  if (window.htmx) {
    // Settling a "style" attribute is an inline style, which our CSP (style-src 'self') refuses.
    window.htmx.config.attributesToSettle = ["class", "width", "height"];
    // A refused move (400) or a stale board (409) still carries the board as it stands: show it.
    window.htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "40[09]", swap: true, error: false },
      { code: "[45]..", swap: false, error: true },
    ];
  }

  // ---------------------------------------------------------------- selection
  let selection = null; // { card, targets: Map(element -> move text) }

  function say(text) {
    const message = $(".message", board() || document);
    if (message) message.textContent = text;
  }

  function clearSelection() {
    $$(".is-selected").forEach((el) => {
      el.classList.remove("is-selected");
      if (el.hasAttribute("aria-pressed")) el.setAttribute("aria-pressed", "false");
    });
    $$(".is-target").forEach((el) => el.classList.remove("is-target"));
    selection = null;
  }

  function destination(moveText) {
    const root = board();
    const [source, target] = moveText.replace("*", "").split(">");
    if (target === "F") return $(`[data-foundation="${source.slice(-1)}"]`, root);
    if (target.startsWith("@")) return $(`[data-fan="${target.slice(1)}"] .slot`, root);
    return $(`.fan [data-card="${target}"]`, root);
  }

  function select(card) {
    clearSelection();
    const moves = (card.dataset.moves || "").split(" ").filter(Boolean);
    const name = card.getAttribute("aria-label");
    if (!moves.length) {
      say(`The ${name} has no move just now.`);
      return;
    }
    selection = { card, targets: new Map() };
    card.classList.add("is-selected");
    card.setAttribute("aria-pressed", "true");
    for (const move of moves) {
      const target = destination(move);
      if (target) {
        target.classList.add("is-target");
        selection.targets.set(target, move);
      }
    }
    say(`${name}: tap a lit place.`);
  }

  function submitMove(text) {
    const form = document.getElementById("js-move-form");
    if (!form) return;
    form.elements.move.value = text;
    clearSelection();
    form.requestSubmit();
  }

  function fanTarget(element) {
    // A tap anywhere on a fan whose top card (or empty slot) is lit counts as a tap on it.
    const fan = element.closest("[data-fan]");
    if (!fan) return null;
    const last = $(".is-top, .slot", fan);
    return last && selection && selection.targets.has(last) ? last : null;
  }

  document.addEventListener("click", (event) => {
    const root = board();
    if (!root || !root.contains(event.target)) return;
    const onTable = event.target.closest(".fans, .foundations");
    if (!onTable) return;
    event.preventDefault();
    const lit = event.target.closest(".is-target");
    if (selection && lit && selection.targets.has(lit)) {
      submitMove(selection.targets.get(lit));
      return;
    }
    const card = event.target.closest(".fan button[data-card]");
    if (card && card.dataset.moves !== undefined) {
      if (selection && selection.card === card) {
        clearSelection();
        say("");
        return;
      }
      if (!card.classList.contains("buried") || card.dataset.moves) {
        select(card);
        return;
      }
    }
    const onFan = fanTarget(event.target);
    if (onFan) {
      submitMove(selection.targets.get(onFan));
      return;
    }
    clearSelection();
  });

  // A double tap sends a top card home when it can go there.
  document.addEventListener("dblclick", (event) => {
    const card = event.target.closest && event.target.closest(".fan button.is-top[data-moves]");
    if (!card || !board() || !board().contains(card)) return;
    const home = card.dataset.moves.split(" ").find((move) => move.endsWith(">F") && !move.startsWith("*"));
    if (home) {
      event.preventDefault();
      submitMove(home);
    }
  });

  // ---------------------------------------------------------------- keyboard
  function stops() {
    const root = board();
    return root ? $$(".foundations button, .fans button", root).filter((el) => !el.disabled) : [];
  }

  function centre(el) {
    const rect = el.getBoundingClientRect();
    return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2, top: rect.top };
  }

  function moveFocus(key) {
    const all = stops();
    if (!all.length) return false;
    const current = all.indexOf(document.activeElement);
    if (current < 0) {
      ($(".fans button.is-top, .fans .slot", board()) || all[0]).focus();
      return true;
    }
    let next = null;
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

  function clickAction(name) {
    const button = board() && $(`[data-action="${name}"]`, board());
    if (button && !button.disabled) button.click();
  }

  function toggleFullScreen() {
    if (document.fullscreenElement) document.exitFullscreen();
    else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {});
  }

  const SHORTCUTS = { u: "undo", z: "undo", r: "redo", h: "hint", a: "auto", " ": "redeal" };

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || !board()) return;
    if ($("dialog[open]")) return;
    const target = event.target;
    if (target.closest && target.closest("input, select, textarea")) return;
    const key = event.key;
    if (key.startsWith("Arrow")) {
      if (moveFocus(key)) event.preventDefault();
      return;
    }
    if (key === "Escape") {
      const menu = $("details.menu[open]");
      if (menu) menu.open = false;
      else if (selection) {
        clearSelection();
        say("");
      } else if (document.fullscreenElement) document.exitFullscreen();
      return;
    }
    // Space and Enter on a focused control press it; Space elsewhere redeals.
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
    }
  });

  // Keep keyboard focus on the same fan or foundation across a board swap.
  let focusKey = null;
  document.addEventListener("htmx:beforeRequest", () => {
    const active = document.activeElement;
    const root = board();
    focusKey = null;
    if (!root || !active || !root.contains(active)) return;
    const fan = active.closest("[data-fan]");
    const foundation = active.closest("[data-foundation]");
    const action = active.closest("[data-action]");
    if (fan) focusKey = `[data-fan="${fan.dataset.fan}"]`;
    else if (foundation) focusKey = `[data-foundation="${foundation.dataset.foundation}"]`;
    else if (action) focusKey = `[data-action="${action.dataset.action}"]`;
  });

  function afterSwap() {
    selection = null;
    const root = board();
    if (!root) return;
    const preselected = $(".fan .is-selected", root);
    if (preselected) select(preselected);
    if (focusKey) {
      const place = $(focusKey, root);
      const stop = place && (place.matches("button") ? place : $("button.is-top, .slot, button", place));
      if (stop && !stop.disabled) stop.focus();
      focusKey = null;
    }
    const menu = $("details.menu", root);
    if (menu) menu.open = false;
  }

  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target && event.target.id === "board") afterSwap();
  });
  document.addEventListener("htmx:sendError", () => say("The server could not be reached. Please try again."));
  document.addEventListener("htmx:responseError", () => say("Something went wrong on the server. Please try again."));

  // ---------------------------------------------------------------- dialogs
  function openDialog(id) {
    const dialog = document.getElementById(id);
    if (!dialog || typeof dialog.showModal !== "function") return false;
    const menu = $("details.menu[open]");
    if (menu) menu.open = false;
    dialog.showModal();
    return true;
  }

  function openNewGame() {
    const root = board();
    const warning = $("[data-in-progress-warning]");
    if (warning && root) {
      warning.hidden = !(root.dataset.status === "playing" && root.dataset.started === "true");
    }
    return openDialog("new-dialog");
  }

  document.addEventListener("click", (event) => {
    const newButton = event.target.closest && event.target.closest('[data-action="new"]');
    if (newButton && $("#new-dialog")) {
      if (openNewGame()) event.preventDefault();
      return;
    }
    const opener = event.target.closest && event.target.closest("[data-dialog]");
    if (opener) {
      // The statistics link also asks htmx to fill the dialog; both run.
      if (openDialog(opener.dataset.dialog)) event.preventDefault();
      return;
    }
    const openMenu = $("details.menu[open]");
    if (openMenu && !openMenu.contains(event.target)) openMenu.open = false;
  });

  // ---------------------------------------------------------------- timer
  function tick() {
    for (const timer of $$('.timer[data-running="true"]')) {
      if (!timer.dataset.since) timer.dataset.since = String(Date.now());
      const ms = Number(timer.dataset.elapsedMs) + Date.now() - Number(timer.dataset.since);
      const total = Math.floor(ms / 1000);
      const h = Math.floor(total / 3600);
      const m = Math.floor((total % 3600) / 60);
      const s = String(total % 60).padStart(2, "0");
      timer.textContent = h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
    }
  }
  setInterval(tick, 1000);

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", afterSwap);
  else afterSwap();
})();
