// The statistics, record and replay pages: the replay's keys (← → Home End) and the reset
// question as a dialog (copy.js runs their Copy buttons). Progressive enhancement only: without
// it the replay's steps are links and reset asks on a page of its own.
"use strict";
(() => {
  const $ = (selector, root = document) => root.querySelector(selector);

  // ---------------------------------------------------------------- replay keys
  const KEYS = { ArrowLeft: "previous", ArrowRight: "next", Home: "start", End: "end" };

  // A key pressed while a step is on its way waits for it, so fast presses are not lost (each
  // link names the step after the one shown, and the one shown is about to change).
  let loading = false;
  const queued = [];

  function step(name) {
    const replay = document.getElementById("replay");
    const link = replay && $(`[data-step-link="${name}"]`, replay);
    if (!link) return;
    loading = true;
    link.click();
  }

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
    const replay = document.getElementById("replay");
    if (!replay || !(event.key in KEYS)) return;
    if (event.target.closest && event.target.closest("input, textarea, select, dialog")) return;
    event.preventDefault();
    if (loading) queued.push(KEYS[event.key]);
    else step(KEYS[event.key]);
  });
  document.addEventListener("htmx:afterSettle", (event) => {
    if (!event.target || event.target.id !== "replay") return;
    loading = false;
    if (queued.length) step(queued.shift());
  });
  document.addEventListener("htmx:responseError", () => { loading = false; queued.length = 0; });
  document.addEventListener("htmx:sendError", () => { loading = false; queued.length = 0; });

  // Keep focus on the same control across a step's swap, so holding → steps on.
  let focused = null;
  document.addEventListener("htmx:beforeRequest", () => {
    const active = document.activeElement;
    focused = active && active.closest && active.closest("#replay [data-step-link]") ? active.dataset.stepLink : null;
  });
  document.addEventListener("htmx:afterSettle", (event) => {
    if (!event.target || event.target.id !== "replay" || !focused) return;
    const again = $(`[data-step-link="${focused}"]`, event.target);
    (again || $(".steps", event.target) || event.target).focus();
    focused = null;
  });

  // ---------------------------------------------------------------- dialogs (the reset question)
  document.addEventListener("click", (event) => {
    const opener = event.target.closest && event.target.closest("[data-dialog]");
    if (!opener) return;
    const dialog = document.getElementById(opener.dataset.dialog);
    if (!dialog || typeof dialog.showModal !== "function") return;
    event.preventDefault();
    dialog.showModal();
  });
})();
