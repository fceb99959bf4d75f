// The daily pages' progressive enhancement: the rollover time in the player's own time zone,
// and the result box fetched when the board's game ends (copy.js runs its Copy button).
// Without it the pages still work: the time shows in UTC and the share text can be copied by hand.
"use strict";
(() => {
  // ---------------------------------------------------------------- midnight UTC, locally
  function localTimes(root = document) {
    for (const el of root.querySelectorAll("time[data-local-time]")) {
      const when = new Date(el.getAttribute("datetime"));
      if (Number.isNaN(when.getTime())) continue;
      const time = when.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
      const day = when.toLocaleDateString(undefined, { weekday: "short", day: "numeric", month: "short" });
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      el.textContent = `${time} on ${day}, your time${zone ? ` (${zone.replace(/_/g, " ")})` : ""}`;
      el.title = el.getAttribute("datetime");
    }
  }

  // ---------------------------------------------------------------- the next deal, counting down
  // Ticks each second to midnight UTC; past it, the page says a new deal is out (a reload shows it).
  function countdown(root = document) {
    const clocks = Array.from(root.querySelectorAll("[data-countdown]"));
    if (!clocks.length) return;
    const show = () => {
      for (const el of clocks) {
        const left = new Date(el.dataset.countdown).getTime() - Date.now();
        if (Number.isNaN(left)) continue;
        el.hidden = false;
        if (left <= 0) {
          el.textContent = "A new deal is out: reload to play it.";
          continue;
        }
        const s = Math.floor(left / 1000);
        const h = Math.floor(s / 3600);
        const m = Math.floor((s % 3600) / 60);
        const pad = (n) => String(n).padStart(2, "0");
        el.textContent = `Next deal in ${h} h ${pad(m)} min ${pad(s % 60)} s.`;
      }
    };
    show();
    window.setInterval(show, 1000);
  }

  // ---------------------------------------------------------------- the result box
  // The board is swapped by htmx on every move; when its game ends (or comes back from a dead
  // end by undo) the result box below it is fetched again.
  function refreshResult() {
    const board = document.getElementById("board");
    const box = document.getElementById("daily-result");
    if (!board || !box || board.dataset.status === box.dataset.status) return;
    fetch(box.dataset.resultUrl, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
      .then((html) => {
        const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("daily-result");
        if (!fresh) return;
        box.replaceWith(fresh);
        document.dispatchEvent(new Event("lucie:swapped"));  // copy.js shows its Copy button
      })
      .catch(() => {});
  }

  document.addEventListener("htmx:afterSettle", refreshResult);

  // ---------------------------------------------------------------- the month on a phone
  // A month of figures is 31 rows, a long scroll on a phone, where each calendar day already says
  // how many won: the table starts closed there, a tap away.
  function compactOnPhones() {
    if (!window.matchMedia || !window.matchMedia("(max-width: 640px)").matches) return;
    for (const details of document.querySelectorAll("details[data-closed-on-phones]")) details.open = false;
  }

  function start() {
    compactOnPhones();
    localTimes();
    countdown();
    refreshResult();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
