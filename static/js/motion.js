// Cards that travel. The server sends a whole new board after every change; this script makes
// the change visible: each card slides from where it was to where it now is (FLIP: First, Last,
// Invert, Play), cards sent home one after another, a redeal gathers the fans and deals them
// again, "Play it out" steps through the line, and a win ends in a cascade.
//
// It does not care how htmx swaps the board: before a swap it notes where every card is, by its
// stable name (data-card="6C"); after the swap settles it animates whatever card moved. The new
// board is in place and live at once, so an animation never delays the next input, and focus is
// left to the board's modules (static/js/board/). Animations use the Web Animations API (our CSP
// refuses inline styles, not this), and none runs under reduced motion: the setting or the
// system's preference.
"use strict";
(() => {
  const SLIDE_MS = 260;
  const HOME_STEP_MS = 110; // between cards sent home together (auto-moves)
  const LINE_STEP_MS = 420; // between moves of "Play it out"
  const html = document.documentElement;
  const board = () => document.getElementById("board");

  function reducedMotion() {
    return (
      html.classList.contains("reduced-motion") ||
      Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches)
    );
  }

  // ---------------------------------------------------------------- before the swap
  let before = null; // { cards: Map(code -> {rect, node}), status, redealsLeft, gather }

  function isBoardSwap(event) {
    const target = event.detail && event.detail.target;
    return Boolean(target && target.id === "board");
  }

  document.addEventListener("htmx:beforeSwap", (event) => {
    before = isBoardSwap(event) ? note() : null;
  });

  // Where every card is, and what the board says, before a change.
  function note() {
    const root = board();
    if (!root || reducedMotion()) return null;
    const cards = new Map();
    for (const card of root.querySelectorAll(".table [data-card]")) {
      cards.set(card.dataset.card, { rect: card.getBoundingClientRect(), node: card, place: placeOf(card) });
    }
    const table = root.querySelector(".fans");
    const felt = root.querySelector(".table");
    return {
      feltHeight: felt ? felt.getBoundingClientRect().height : 0,
      cards,
      status: root.dataset.status,
      redealsLeft: root.dataset.redealsLeft,
      moves: Number(root.dataset.moves),
      gather: table ? table.getBoundingClientRect() : null,
    };
  }

  // A move laid on the table before its answer (static/js/board/instant.js) slides the same way.
  let laying = null;
  document.addEventListener("lucie:lay", () => {
    laying = note();
  });
  document.addEventListener("lucie:laid", () => {
    const root = board();
    const noted = laying;
    laying = null;
    if (root && noted && slide(root, noted, false)) html.dataset.motion = String(Number(html.dataset.motion || 0) + 1);
  });

  // ---------------------------------------------------------------- after it settles
  document.addEventListener("htmx:afterSettle", (event) => {
    const root = board();
    const noted = before;
    before = null;
    if (!root || !noted || !isBoardSwap(event) || reducedMotion()) return;
    // A redeal (or its undo) moves most of the table; with unlimited redeals the count does not
    // change, so many cards changing place counts too.
    const changed = Array.from(root.querySelectorAll(".table [data-card]")).filter((card) => {
      const old = noted.cards.get(card.dataset.card);
      return old && old.place !== placeOf(card);
    }).length;
    const redealt = root.dataset.redealsLeft !== noted.redealsLeft || changed >= 8;
    const moved = slide(root, noted, redealt);
    if (redealt && moved) holdFelt(root, noted.feltHeight, moved);
    sendHome(root, noted);
    if (noted.status === "playing" && root.dataset.status === "won") celebrate(root);
    if (moved) html.dataset.motion = String(Number(html.dataset.motion || 0) + 1);
  });

  // A redeal deals fewer fans, so the felt would shrink at once and the cards on their way would
  // fly over the page below it: the felt keeps its old height until the deal is laid, then eases
  // to its new one.
  function holdFelt(root, height, count) {
    const felt = root.querySelector(".table");
    if (!felt || !height) return;
    const now = felt.getBoundingClientRect().height;
    if (now >= height - 1) return;
    felt.style.minHeight = `${height}px`;
    const laid = 520 + Math.min(count, 52) * 12;
    window.setTimeout(() => {
      felt.style.minHeight = "";
      felt.animate([{ minHeight: `${height}px` }, { minHeight: `${now}px` }], { duration: 320, easing: "ease-in-out" });
    }, laid);
  }

  // Where a card lies: its fan and depth, or its foundation. A card whose place is unchanged
  // but which shifted on the page (a message line grew, the win's panel came in) is not moved.
  function placeOf(card) {
    const fan = card.closest("[data-fan]");
    if (fan) return `fan ${fan.dataset.fan} ${Array.from(fan.querySelectorAll("[data-card]")).indexOf(card)}`;
    const foundation = card.closest("[data-foundation]");
    return foundation ? `home ${foundation.dataset.foundation}` : "";
  }

  // A copy of a card lives outside the table (on <body>), where no card size is computed: it
  // takes the table's, through the CSSOM, which our CSP allows.
  function sized(copy, from) {
    const style = getComputedStyle(from);
    for (const name of ["--card-w", "--card-h", "--peek"]) copy.style.setProperty(name, style.getPropertyValue(name));
    return copy;
  }

  function offset(from, to) {
    return { x: from.left - to.left, y: from.top - to.top };
  }

  // Every card still on the table slides from its old place to its new one.
  function slide(root, noted, redealt) {
    let count = 0;
    const centre = noted.gather && {
      left: noted.gather.left + noted.gather.width / 2,
      top: noted.gather.top + noted.gather.height / 3,
    };
    const cards = Array.from(root.querySelectorAll(".table [data-card]"));
    cards.forEach((card, index) => {
      const old = noted.cards.get(card.dataset.card);
      if (!old || old.place === placeOf(card)) return;
      const now = card.getBoundingClientRect();
      const d = offset(old.rect, now);
      if (Math.abs(d.x) < 1 && Math.abs(d.y) < 1) return;
      count += 1;
      if (redealt && centre) {
        // Gather to the middle of the felt, then deal out fan by fan.
        const g = { x: centre.left - now.left - now.width / 2, y: centre.top - now.top - now.height / 2 };
        card.animate(
          [
            { transform: `translate(${d.x}px, ${d.y}px)` },
            { transform: `translate(${g.x}px, ${g.y}px)`, offset: 0.45 },
            { transform: `translate(${g.x}px, ${g.y}px)`, offset: 0.55 },
            { transform: "none" },
          ],
          { duration: 520 + Math.min(index, 52) * 12, easing: "ease-in-out" },
        );
      } else {
        card.animate(
          [{ transform: `translate(${d.x}px, ${d.y}px)`, zIndex: 5 }, { transform: "none", zIndex: 5 }],
          { duration: SLIDE_MS, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" },
        );
      }
    });
    return count;
  }

  // Cards that went home under another (auto-moves play several in one answer) are no longer on
  // the board: a copy of each flies from its old place to its foundation, one after another.
  function sendHome(root, noted) {
    const gone = [];
    for (const [code, old] of noted.cards) {
      if (root.querySelector(`.table [data-card="${code}"]`)) continue;
      const foundation = root.querySelector(`[data-foundation="${code.slice(-1)}"]`);
      if (!foundation || !foundation.querySelector("[data-card]")) continue; // undone, not sent home
      gone.push({ code, old, foundation });
    }
    const rankOf = (code) => "A23456789TJQK".indexOf(code[0]);
    gone.sort((a, b) => rankOf(a.code) - rankOf(b.code));
    gone.forEach(({ old, foundation }, index) => {
      const ghost = old.node.cloneNode(true);
      ghost.removeAttribute("id");
      ghost.setAttribute("aria-hidden", "true");
      ghost.classList.remove("is-selected", "is-target", "buried");
      ghost.classList.add("is-top", "travelling");
      ghost.removeAttribute("data-hint");
      document.body.appendChild(sized(ghost, foundation));
      const to = foundation.getBoundingClientRect();
      const from = old.rect;
      const delay = index * HOME_STEP_MS;
      const animation = ghost.animate(
        [
          { transform: `translate(${from.left}px, ${from.top}px)`, opacity: 1 },
          { transform: `translate(${to.left + 3}px, ${to.top + 3}px)`, opacity: 1 },
        ],
        { duration: SLIDE_MS + 60, delay, easing: "ease-in-out", fill: "both" },
      );
      animation.finished.then(() => ghost.remove(), () => ghost.remove());
    });
  }

  // ---------------------------------------------------------------- a win
  // The four Kings leap off their foundations and bounce down the page, twice each, leaving
  // trails of copies, the way the old desktop solitaire did: about six seconds, and any press or
  // key ends it at once. Copies only: the board underneath is live.
  const CASCADE_COPIES = 10;
  function celebrate(root) {
    const layer = document.createElement("div");
    layer.className = "cascade";
    layer.setAttribute("aria-hidden", "true");
    document.body.appendChild(layer);
    const height = window.innerHeight;
    const width = window.innerWidth;
    const kings = Array.from(root.querySelectorAll("[data-foundation] [data-card]"));
    const runs = [];
    const launches = kings.concat(kings);
    launches.forEach((king, k) => {
      const start = king.getBoundingClientRect();
      const direction = (k + Math.floor(k / kings.length)) % 2 ? 1 : -1;
      const reach = Math.min(width * 0.45, 160 + 50 * (k % kings.length));
      for (let copy = 0; copy < CASCADE_COPIES; copy += 1) {
        const ghost = king.cloneNode(true);
        ghost.classList.add("travelling");
        layer.appendChild(sized(ghost, king));
        const dx = direction * reach;
        const floor = height - start.height - start.top;
        runs.push(
          ghost.animate(
            [
              { transform: `translate(${start.left}px, ${start.top}px)`, opacity: 1 },
              { transform: `translate(${start.left + dx * 0.3}px, ${start.top + floor}px)`, offset: 0.3 },
              { transform: `translate(${start.left + dx * 0.5}px, ${start.top + floor * 0.35}px)`, offset: 0.5 },
              { transform: `translate(${start.left + dx * 0.7}px, ${start.top + floor}px)`, offset: 0.7 },
              { transform: `translate(${start.left + dx * 0.85}px, ${start.top + floor * 0.7}px)`, offset: 0.85 },
              { transform: `translate(${start.left + dx}px, ${start.top + floor}px)`, opacity: 0 },
            ],
            { duration: 2400, delay: k * 430 + copy * 55, easing: "linear", fill: "both" },
          ),
        );
      }
    });
    const skip = () => {
      for (const run of runs) run.cancel();
      layer.remove();
      document.removeEventListener("pointerdown", skip, true);
      document.removeEventListener("keydown", skip, true);
    };
    document.addEventListener("pointerdown", skip, true);
    document.addEventListener("keydown", skip, true);
    Promise.allSettled(runs.map((run) => run.finished)).then(skip);
  }

  // ---------------------------------------------------------------- "Play it out", step by step
  // Instead of the whole line at once, press Next at a readable pace, each press once the board
  // of the last one has settled (so every move names the right move count). Any key or press of
  // the player's stops it there; the rest of the line stays one "Play it out" away.
  let stepping = false;
  let timer = null;

  function stopStepping() {
    stepping = false;
    if (timer) clearTimeout(timer);
    timer = null;
  }

  function pressNext() {
    timer = null;
    const next = board() && board().querySelector('[data-action="show-a-win-next"]');
    if (!stepping || !next || next.disabled) {
      stopStepping();
      return;
    }
    next.click();
  }

  document.addEventListener(
    "click",
    (event) => {
      const out = event.target.closest && event.target.closest('[data-action="show-a-win-out"]');
      if (!out || reducedMotion() || !window.htmx) return;
      event.preventDefault();
      event.stopPropagation();
      stopStepping();
      stepping = true;
      pressNext();
    },
    true,
  );
  document.addEventListener("htmx:afterSettle", (event) => {
    if (stepping && isBoardSwap(event)) timer = setTimeout(pressNext, LINE_STEP_MS);
  });
  for (const name of ["keydown", "pointerdown"]) {
    document.addEventListener(name, (event) => {
      if (stepping && event.isTrusted) stopStepping();
    }, true);
  }
  for (const name of ["htmx:responseError", "htmx:sendError"]) document.addEventListener(name, stopStepping);
})();
