// The board's progressive enhancement: tap-to-select, drag and drop, keyboard play, dialogs, the timer.
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
    // A refused move (400), a stale board (409), a rate limit (429) or a busy site (503) still
    // carries the board as it stands, saying why: show it.
    window.htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "40[09]|429|503", swap: true, error: false },
      { code: "[45]..", swap: false, error: true },
    ];
  }

  // ---------------------------------------------------------------- selection
  let selection = null; // { card, targets: Map(element -> move text) }

  // The visible message line, and the page's one live region (#announce, outside the board;
  // the server fills it after each change, this script for what happens here alone).
  function say(text, spoken = text) {
    const message = $(".message", board() || document);
    if (message) message.textContent = text;
    const region = document.getElementById("announce");
    if (region) region.textContent = spoken;
  }

  // The words this script says, in the page's language: the server renders them on #announce
  // (game/templatetags/cards.py's board_words), with the card names as the board says them.
  let WORDS = null;
  function words() {
    if (WORDS) return WORDS;
    const region = document.getElementById("announce");
    try {
      WORDS = JSON.parse((region && region.dataset.words) || "{}");
    } catch (error) {
      WORDS = {};
    }
    return WORDS;
  }

  // A sentence from its words: "%(card)s has no move just now." with { card: "…" }.
  function fill(key, values = {}) {
    const text = words()[key] || "";
    return text.replace(/%\((\w+)\)s/g, (all, name) => (name in values ? String(values[name]) : all));
  }

  function plural(key, count, values = {}) {
    const [one, many] = words()[key] || ["", ""];
    const single = count === 1 || (count === 0 && words().zero_is_one);
    return (single ? one : many).replace(/%\((\w+)\)s/g, (all, name) =>
      name === "count" ? String(count) : name in values ? String(values[name]) : all);
  }

  function capitalised(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function named(patterns, code) {
    const pattern = (words()[patterns] || [])["A23456789TJQK".indexOf(code.slice(0, -1))];
    return pattern ? pattern.replace("%(suit)s", (words().suits || {})[code.slice(-1)] || "") : code;
  }

  function cardName(code) {
    return named("names", code);
  }

  function theCard(code) {
    return named("the", code);
  }

  function fanNumber(element) {
    const fan = element && element.closest("[data-fan]");
    return fan ? Number(fan.dataset.fan) + 1 : null;
  }

  function listing(items, last) {
    const word = words()[last] || last;
    return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} ${word} ${items[items.length - 1]}`;
  }

  // Where a move takes its card, in the words of game/board/announce.py: "onto the Seven of Clubs on
  // fan 9", "to its foundation", "into empty fan 3".
  function goes(moveText) {
    const target = moveText.replace("*", "").split(">")[1];
    if (target === "F") return fill("home");
    if (target.startsWith("@")) return fill("empty_fan", { fan: Number(target.slice(1)) + 1 });
    const on = fanNumber($(`.fan [data-card="${target}"]`, board()));
    return on ? fill("onto_on", { card: theCard(target), fan: on }) : fill("onto", { card: theCard(target) });
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

  // Say what the player's own hand does: tap on a touch screen, click with a mouse or pen, keys on
  // a keyboard. Until the first input, the kind of pointer the device mainly has decides.
  let lastInput =
    window.matchMedia && window.matchMedia("(pointer: coarse)").matches ? "touch" : "mouse";
  document.addEventListener("pointerdown", (event) => {
    lastInput = event.pointerType === "touch" ? "touch" : "mouse";
  }, true);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " " || event.key.startsWith("Arrow")) lastInput = "keyboard";
  }, true);

  function placeWord() {
    if (lastInput === "touch") return fill("tap");
    if (lastInput === "keyboard") return fill("keys");
    return fill("click");
  }

  function select(card, how = placeWord()) {
    clearSelection();
    const moves = (card.dataset.moves || "").split(" ").filter(Boolean);
    const name = card.getAttribute("aria-label");
    if (!moves.length) {
      say(fill("no_move", { card: capitalised(theCard(card.dataset.card)) }));
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
    const from = fanNumber(card);
    const places = listing(moves.map(goes), "or");
    say(
      capitalised(fill("picked_short", { card: name, how })),
      capitalised(from ? fill("picked_from", { card: name, fan: from, places }) : fill("picked", { card: name, places })),
    );
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

  // A double tap sends a top card home when it can go there. Both taps must land on that card: a
  // phone counts two quick taps within a finger's width of each other as a double tap, so the tap
  // that plays a move and a quick tap on a card beside it would otherwise bank that card unasked.
  const clickedCards = [null, null]; // the cards the last two clicks landed on
  document.addEventListener(
    "click",
    (event) => {
      const card = event.target.closest && event.target.closest(".fan button[data-card]");
      clickedCards.shift();
      clickedCards.push(card ? card.dataset.card : null);
    },
    true,
  );
  document.addEventListener("dblclick", (event) => {
    const card = event.target.closest && event.target.closest(".fan button.is-top[data-moves]");
    if (!card || !board() || !board().contains(card)) return;
    if (clickedCards.some((code) => code !== card.dataset.card)) return;
    const home = card.dataset.moves.split(" ").find((move) => move.endsWith(">F") && !move.startsWith("*"));
    if (home) {
      event.preventDefault();
      submitMove(home);
    }
  });

  // ---------------------------------------------------------------- dragging
  // A mouse, a pen or a finger may also drag a card that has moves onto a lit place. The drag
  // only picks the same moves a tap would and posts them through the same form; a press that
  // hardly moves is left to be a click or a tap, exactly as without dragging. A card that can
  // move takes no scrolling gesture (touch-action: none in board.css), so dragging it never
  // scrolls the page; the rest of the page scrolls as ever.
  const DRAG_THRESHOLD = 5; // px: below this a press and release is a click (or a double click)
  const TOUCH_THRESHOLD = 9; // a fingertip wobbles more than a mouse
  let drag = null; // { card, pointerId, x, y, left, top, ghost, started }
  let swallowClick = false;

  function reducedMotion() {
    return (
      html.classList.contains("reduced-motion") ||
      (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches)
    );
  }

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
    // Set through the CSSOM from this file, which style-src 'self' allows (an inline style
    // attribute in markup would not be).
    drag.ghost.style.transform = `translate(${drag.left + dx}px, ${drag.top + dy}px)`;
  }

  function dropTarget(x, y) {
    if (!selection) return null;
    drag.ghost.style.visibility = "hidden";
    const under = document.elementFromPoint(x, y);
    drag.ghost.style.visibility = "";
    if (!under) return null;
    const lit = under.closest(".is-target");
    if (lit && selection.targets.has(lit)) return lit;
    return fanTarget(under);
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
      const rect = drag.card.getBoundingClientRect(); // before the selection lifts the card
      select(drag.card, "drop it on a lit place");
      if (!selection) {
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
      submitMove(selection.targets.get(target));
    } else {
      cancelDrag(ended);
    }
  }

  function onDragCancel(event) {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const ended = endDrag();
    if (ended.started) cancelDrag(ended);
  }

  document.addEventListener("pointerdown", (event) => {
    if (drag || event.button !== 0 || !event.isPrimary) return;
    const card = event.target.closest && event.target.closest(".fan button[data-card][data-moves]");
    const root = board();
    if (!card || !root || !root.contains(card) || !card.dataset.moves) return;
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
  });

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

  // ---------------------------------------------------------------- keyboard
  // The arrow keys' stops: each foundation, then each fan by its top card (or its empty place
  // when that can be pressed). Buried cards that the merci may take are reached by typing their
  // name or with Tab.
  function fanStop(fan) {
    return $("button.is-top, button.slot", fan) || $("button", fan);
  }

  function stops() {
    const root = board();
    if (!root) return [];
    const foundations = $$(".foundations button", root);
    const fans = $$(".fans [data-fan]", root).map(fanStop);
    return foundations.concat(fans).filter((el) => el && !el.disabled);
  }

  function stopOf(element, all) {
    const at = all.indexOf(element);
    if (at >= 0 || !element || !element.closest) return at;
    const fan = element.closest("[data-fan]");
    return fan ? all.indexOf(fanStop(fan)) : -1;
  }

  function centre(el) {
    const rect = el.getBoundingClientRect();
    return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2, top: rect.top };
  }

  function moveFocus(key) {
    const all = stops();
    if (!all.length) return false;
    const current = stopOf(document.activeElement, all);
    if (current < 0) {
      ($(".fans button.is-top, .fans .slot", board()) || all[0]).focus();
      return true;
    }
    let next = null;
    // The left-handed layout is mirrored: the arrows follow what the player sees.
    if (html.classList.contains("left-handed") && (key === "ArrowRight" || key === "ArrowLeft")) {
      key = key === "ArrowRight" ? "ArrowLeft" : "ArrowRight";
    }
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

  // Typing a card's name jumps to it: a rank (A or 1, 2-9, 10 or T, J, Q, K), an optional
  // space, then a suit (C, D, H, S or its symbol): "6 c", "6c", "6♣", "10h", "q s". A rank key
  // waits a moment for its suit; "a" alone, once that moment has passed, is still auto-finish.
  // The page's language adds its own letters (French V D R for Valet, Dame, Roi and T K C P for
  // the suits; German B D K for Bube, Dame, König): the server renders them with the words
  // (board_words' rank_keys, suit_keys). Its letters come first; the English ones still work
  // wherever the language's letters leave them free.
  const ENGLISH_RANK_KEYS = { a: "A", 1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
    t: "T", j: "J", q: "Q", k: "K" };
  const ENGLISH_SUIT_KEYS = { c: "C", d: "D", h: "H", s: "S", "♣": "C", "♦": "D", "♥": "H", "♠": "S",
    "♧": "C", "♢": "D", "♡": "H", "♤": "S" };
  let KEYS = null;
  function typingKeys() {
    if (KEYS) return KEYS;
    const ranks = {};
    (words().rank_keys || []).forEach((letter, index) => {
      const key = letter.toLowerCase();
      if (key.length === 1 && !/[0-9]/.test(key)) ranks[key] = "A23456789TJQK"[index];
    });
    const suits = {};
    (words().suit_keys || []).forEach((letter, index) => {
      if (letter.length === 1) suits[letter.toLowerCase()] = "CDHS"[index];
    });
    KEYS = { ranks: { ...ENGLISH_RANK_KEYS, ...ranks }, suits: { ...ENGLISH_SUIT_KEYS, ...suits } };
    return KEYS;
  }
  // A key that both begins a card's name and has a job of its own (A auto-finish; R redo, where R
  // names a King): alone, once the moment for a suit has passed, it does its job.
  const KEY_JOBS = { a: "auto", r: "redo" };
  const TYPING_MS = 1200;
  let typed = null; // { rank, key, timer }

  function stopTyping() {
    if (!typed) return null;
    clearTimeout(typed.timer);
    const { rank } = typed;
    typed = null;
    return rank;
  }

  function startTyping(rank, key = "") {
    stopTyping();
    typed = {
      rank,
      key,
      timer: setTimeout(() => {
        const job = typed && KEY_JOBS[typed.key];
        stopTyping();
        if (job) clickAction(job);
      }, TYPING_MS),
    };
  }

  // Returns true when the key was part of a card's name.
  function typeCard(key) {
    const lower = key.toLowerCase();
    const { ranks: RANK_KEYS, suits: SUIT_KEYS } = typingKeys();
    if (typed) {
      if (key === " ") return true;
      if (key === "Escape") {
        stopTyping();
        return true;
      }
      if (typed.rank === "1" && lower === "0") {
        startTyping("T", "1");
        return true;
      }
      if (lower in SUIT_KEYS) {
        const rank = stopTyping();
        jumpTo((rank === "1" ? "A" : rank) + SUIT_KEYS[lower]);
        return true;
      }
      const job = KEY_JOBS[typed.key];
      stopTyping();
      if (job) clickAction(job);
      return false;
    }
    if (lower in RANK_KEYS) {
      startTyping(RANK_KEYS[lower], lower);
      return true;
    }
    if (key in SUIT_KEYS && key.length === 1 && !/[a-z]/i.test(key)) return true;
    return false;
  }

  function jumpTo(code) {
    const root = board();
    if (!root) return;
    const name = capitalised(theCard(code));
    const card = $(`.fan [data-card="${code}"]`, root);
    if (card && card.matches("button:not([disabled])")) {
      card.focus();
      return;
    }
    if (card) {
      const fan = card.closest("[data-fan]");
      const cards = $$("[data-card]", fan);
      const over = cards.slice(cards.indexOf(card) + 1).map((el) => theCard(el.dataset.card));
      const stop = fanStop(fan);
      if (stop) stop.focus();
      say("", fill("in_fan", { card: name, fan: fanNumber(fan), cards: listing(over, "and") }));
      return;
    }
    const foundation = $(`.foundations [data-foundation="${code.slice(-1)}"]`, root);
    const rank = "A23456789TJQK".indexOf(code.slice(0, -1)) + 1;
    if (foundation && Number(foundation.dataset.count) >= rank) {
      if (!foundation.disabled) foundation.focus();
      say("", fill("on_foundation", { card: name }));
    } else {
      say("", fill("not_on_table", { card: name }));
    }
  }

  // The counters, read on demand (I): the same figures the info line shows.
  function sayStatus() {
    const root = board();
    if (!root) return;
    const data = root.dataset;
    const timer = $(".timer", root);
    const left = data.redealsLeft === "unlimited" ? fill("unlimited") : plural("redeals_left", Number(data.redealsLeft));
    const parts = [
      fill("deal", { number: data.deal }),
      plural("moves", Number(data.moves)),
      timer ? fill("time", { time: timer.textContent.trim() }) : "",
      left,
      data.mercisLeft !== undefined && $(".merci", root) ? plural("mercis_left", Number(data.mercisLeft)) : "",
      data.home !== undefined ? plural("cards_home", Number(data.home)) : "",
    ];
    say("", `${parts.filter(Boolean).join(", ")}.`);
  }

  function redealReady() {
    const button = board() && $('[data-action="redeal"]', board());
    return Boolean(button && !button.disabled);
  }

  function clickAction(name) {
    const button = board() && $(`[data-action="${name}"]`, board());
    if (button && !button.disabled) button.click();
  }

  function toggleFullScreen() {
    if (document.fullscreenElement) document.exitFullscreen();
    else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {});
  }

  const SHORTCUTS = { u: "undo", z: "undo", r: "redo", h: "hint", " ": "redeal" };

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || !board()) return;
    if ($("dialog[open]")) return;
    const target = event.target;
    if (target.closest && target.closest("input, select, textarea")) return;
    const key = event.key;
    if (typeCard(key)) {
      event.preventDefault();
      return;
    }
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
    // Space redeals whenever no card is picked up, whatever has focus (after a mouse move the
    // focus rests on the moved fan's card). With a card picked up, or no redeal left, Space and
    // Enter press the focused control as usual.
    if (key === " " && !selection && redealReady()) {
      event.preventDefault();
      clickAction("redeal");
      return;
    }
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
    } else if (lower === "i") {
      event.preventDefault();
      sayStatus();
    }
  });

  // Keep keyboard focus on the same fan, foundation or control across a board swap; when that
  // is gone (an emptied fan, a button now disabled) the nearest one takes it, and when the game
  // has just ended, the end panel's first action (New game, or Undo after a loss).
  let focusKey = null;
  let statusBefore = null;
  document.addEventListener("htmx:beforeRequest", () => {
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
  });

  function afterSwap() {
    selection = null;
    const root = board();
    if (!root) return;
    // Controls that only work with this script (the embed's ⚙) come hidden in every board.
    for (const element of $$("[data-needs-js]", root)) element.hidden = false;
    const preselected = $(".fan .is-selected", root);
    if (preselected) select(preselected);
    const menu = $("details.menu", root);
    if (menu) menu.open = false;
    if (focusKey) {
      const ended = statusBefore === "playing" && root.dataset.status !== "playing";
      const stop = ended ? $(".end .actions button, .end .actions a", root) : focusAfterSwap(root, focusKey);
      if (stop) stop.focus();
      focusKey = null;
    }
  }

  function focusAfterSwap(root, key) {
    const place = $(key, root);
    if (!place) return null;
    if (place.matches("[data-fan]")) {
      // This fan's top card, else the nearest fan that has one.
      const all = $$(".fans [data-fan]", root);
      const at = all.indexOf(place);
      const order = all.map((fan, index) => ({ fan, far: Math.abs(index - at) + (index < at ? 0.5 : 0) }));
      order.sort((a, b) => a.far - b.far);
      for (const { fan } of order) {
        const stop = fanStop(fan);
        if (stop && !stop.disabled) return stop;
      }
      return null;
    }
    const hidden = place.closest("details:not([open])");
    if (hidden) return $("summary", hidden);
    if (!place.disabled) return place;
    // A control that is now disabled (Undo at the first move): the nearest one in its bar.
    const controls = $$(".bar button, .bar a, .bar summary", root);
    const at = controls.indexOf(place);
    const after = controls.slice(at + 1).find((el) => !el.disabled);
    return after || controls.slice(0, at).reverse().find((el) => !el.disabled) || null;
  }

  // On htmx:afterSwap, in the same task as the swap itself: waiting for the settle (20 ms later)
  // left a window where a key typed at once ("8 c" to jump to a card) moved focus, and the
  // restore then took it back.
  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.target && event.target.id === "board") afterSwap();
  });
  document.addEventListener("htmx:sendError", () => say(fill("unreachable")));
  document.addEventListener("htmx:responseError", (event) => {
    const status = event.detail && event.detail.xhr ? event.detail.xhr.status : 0;
    if (status === 503) say(fill("busy"));
    else if (status === 429) say(fill("too_many"));
    else say(fill("failed"));
  });
  // A dropped card waits faded for the new board; when none comes, show it again.
  for (const name of ["htmx:sendError", "htmx:responseError"]) {
    document.addEventListener(name, () => $$(".is-dragged").forEach((el) => el.classList.remove("is-dragged")));
  }

  // ---------------------------------------------------------------- dialogs
  function openDialog(id) {
    const dialog = document.getElementById(id);
    if (!dialog || typeof dialog.showModal !== "function") return false;
    const menu = $("details.menu[open]");
    if (menu) menu.open = false;
    if (id === "settings-dialog") syncSettingsForm();
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

  // ---------------------------------------------------------------- settings
  // Kept in localStorage ("lucie.settings"), applied at once as classes on <html> (prefs.js sets
  // them before the page paints). Where storage is denied (a cross-site frame) they last for the
  // visit. The auto-move setting rides on every board POST as `auto=1` or `auto=0`.
  const SETTINGS_KEY = "lucie.settings";
  const SETTING_NAMES = ["four-colour", "left-handed", "reduced-motion", "auto-move", "sounds"];
  // The Themes choices (prefs.js applies them the same way): `<name>-<value>` classes, none for
  // the first, default value.
  const CHOICES = { felt: ["green", "blue", "red", "grey"], cards: ["classic", "large"], scheme: ["system", "light", "dark"] };
  const html = document.documentElement;

  function choiceOf(name) {
    return CHOICES[name].find((value) => html.classList.contains(`${name}-${value}`)) || CHOICES[name][0];
  }

  function choose(name, value) {
    for (const other of CHOICES[name].slice(1)) html.classList.toggle(`${name}-${other}`, other === value);
  }

  function saveSettings() {
    const values = {};
    for (const name of SETTING_NAMES) values[name] = html.classList.contains(name);
    for (const name of Object.keys(CHOICES)) values[name] = choiceOf(name);
    try {
      window.localStorage.setItem(SETTINGS_KEY, JSON.stringify(values));
    } catch (error) {
      // Storage denied or full: the settings still hold for this visit.
    }
  }

  function syncSettingsForm() {
    for (const box of $$("[data-settings-form] input[data-setting]")) {
      box.checked = html.classList.contains(box.dataset.setting);
    }
    for (const radio of $$("[data-settings-form] input[data-choice]")) {
      radio.checked = choiceOf(radio.dataset.choice) === radio.value;
    }
  }

  document.addEventListener("change", (event) => {
    const target = event.target;
    if (!target.closest || !target.closest("dialog")) return;
    const box = target.closest("[data-settings-form] input[data-setting]");
    const radio = target.closest("[data-settings-form] input[data-choice]");
    if (box) html.classList.toggle(box.dataset.setting, box.checked);
    else if (radio && radio.checked && CHOICES[radio.dataset.choice]) choose(radio.dataset.choice, radio.value);
    else return;
    saveSettings();
    document.dispatchEvent(new CustomEvent("lucie:settings"));
  });

  document.addEventListener("htmx:configRequest", (event) => {
    const detail = event.detail;
    if (detail.verb !== "post" || !detail.parameters || detail.parameters.n === undefined) return;
    detail.parameters.auto = html.classList.contains("auto-move") ? "1" : "0";
    // The board the request is made on: its move count (a form the last answer kept in place
    // may carry an older one) and its key, which lets the server leave out what is unchanged.
    const root = board();
    if (root && root.dataset.moves !== undefined) detail.parameters.n = root.dataset.moves;
    if (root && root.dataset.position) detail.parameters.v = root.dataset.position;
  });

  // ---------------------------------------------------------------- timer
  // The server keeps the time (game/board/clock.py): the sum of the stretches while the page is visible.
  // The display ticks from the server's reading while the page is visible and freezes while it is
  // hidden; hiding sends `pause` (a beacon, which survives the page going away) and showing sends
  // `resume`, whose answer resets the display to the server's figure. A move marks the game
  // active on the server too, and the new board carries the new reading.
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

  document.addEventListener("visibilitychange", () => {
    if (visible()) resumeClock();
    else pauseClock();
  });
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target && event.target.id === "board") readTimer();
  });
  setInterval(tick, 250);

  // ---------------------------------------------------------------- the merci, on asking
  // "Show what it can take" marks the buried cards the merci may take (each has a place to go:
  // the server lists its moves). Never by default, since it is a clue; once asked it stays on
  // across board swaps while the merci is open.
  let merciShown = false;

  function merciCards(root) {
    return $$(".fan .card.buried[data-moves]", root).filter((card) => card.dataset.moves);
  }

  function showMerci() {
    const root = board();
    if (!root) return;
    const button = $("[data-merci-show]", root);
    if (!button) merciShown = false;
    root.classList.toggle("show-merci", merciShown);
    if (button) button.setAttribute("aria-pressed", String(merciShown));
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-merci-show]");
    if (!button) return;
    merciShown = !merciShown;
    showMerci();
    if (!merciShown) return;
    const names = merciCards(board()).map((card) => card.getAttribute("aria-label"));
    if (!names.length) {
      say(fill("merci_none"));
      return;
    }
    const count = plural("merci_count", names.length);
    // On screen the marks speak for themselves; a screen reader hears the cards' names.
    say(fill("merci_marked", { count }), fill("merci_cards", { count, cards: listing(names, "and") }));
  });

  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target && event.target.id === "board") showMerci();
  });

  function start() {
    for (const element of $$("[data-needs-js]")) element.hidden = false;
    afterSwap();
    readTimer();
    // A reload (or a tab brought back) says the page is in view: the clock runs again from the
    // server's reading, whatever the last page's pause left.
    if (visible()) resumeClock();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
