// The daily pages' progressive enhancement: the rollover time in the player's own time zone,
// and the result box's name on each request, so that the answer that ends the board's game
// carries the box out of band (copy.js runs its Copy button).
// Without it the pages still work: the time shows in UTC and the share text can be copied by hand.
"use strict";
(() => {
  // ---------------------------------------------------------------- midnight UTC, locally
  // The page's own words and language: the templates give the sentences (daily/_rollover.html),
  // and dates are written in the page's language, not the browser's.
  // The browser's own variant of the page's language where it has one (en-GB writes "2 Dec"),
  // else the page's language itself.
  const page = document.documentElement.lang || "";
  const lang = (navigator.languages || []).find((l) => l.split("-")[0] === page) || page || undefined;
  const fill = (format, values) => format.replace(/\{(\w+)\}/g, (all, name) => values[name] ?? all);

  function localTimes(root = document) {
    for (const el of root.querySelectorAll("time[data-local-time]")) {
      const when = new Date(el.getAttribute("datetime"));
      if (Number.isNaN(when.getTime())) continue;
      const words = el.closest("[data-local-format]");
      const format = words?.dataset.localFormat || "{time} on {day}, your time{zone}";
      const zoneFormat = words?.dataset.zoneFormat || " ({zone})";
      const time = when.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
      const day = when.toLocaleDateString(lang, { weekday: "short", day: "numeric", month: "short" });
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      const zoneText = zone ? fill(zoneFormat, { zone: zone.replace(/_/g, " ") }) : "";
      el.textContent = fill(format, { time, day, zone: zoneText });
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
          el.textContent = el.dataset.out || "A new deal is out: reload to play it.";
          continue;
        }
        const s = Math.floor(left / 1000);
        const h = Math.floor(s / 3600);
        const m = Math.floor((s % 3600) / 60);
        const pad = (n) => String(n).padStart(2, "0");
        const format = el.dataset.format || "Next deal in {h} h {m} min {s} s.";
        el.textContent = fill(format, { h: String(h), m: pad(m), s: pad(s % 60) });
      }
    };
    show();
    window.setInterval(show, 1000);
  }

  // ---------------------------------------------------------------- the result box
  // The board is swapped by htmx on every move. When a move ends its game (or an undo brings it
  // back from a dead end), the server sends the result box below it out of band with the board
  // (game/daily/result_box.py): it is told here which box the page shows, so that it sends the
  // box only when the box is out of date.
  document.addEventListener("htmx:configRequest", (event) => {
    const box = document.getElementById("daily-result");
    if (!box || !box.dataset.day) return;
    event.detail.headers["X-Daily-Day"] = box.dataset.day;
    event.detail.headers["X-Daily-Status"] = box.dataset.status || "none";
  });

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
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
