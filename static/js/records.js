// The statistics, record and replay pages: the reset question as a dialog (copy.js runs their
// Copy buttons; replay/stepper.js the replay's steps). Progressive enhancement only: without it
// reset asks on a page of its own.
"use strict";
(() => {
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
