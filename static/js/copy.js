// Copy buttons, for every page of the main site: a <button data-copy="ID"> copies the value of
// the text box #ID. The buttons start hidden (without JavaScript the text is selected and copied
// by hand) and are shown here, including in content that htmx swaps in later (out of band too).
"use strict";
(() => {
  async function copy(button) {
    const field = document.getElementById(button.dataset.copy);
    const status = button.parentElement.querySelector(".copy-status");
    if (!field) return;
    let done = false;
    try {
      await navigator.clipboard.writeText(field.value);
      done = true;
    } catch (error) {
      // No clipboard API (or refused): select the text so a shortcut copies it.
      field.focus();
      field.select();
      try { done = document.execCommand("copy"); } catch (ignored) { done = false; }
    }
    // The words come from the status's data attributes, in the page's language.
    if (status) {
      status.textContent = done
        ? status.dataset.copied || "Copied."
        : status.dataset.notCopied || "Select the text and copy it.";
    }
  }

  function showButtons() {
    for (const button of document.querySelectorAll("button[data-copy][hidden]")) button.hidden = false;
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-copy]");
    if (button) copy(button);
  });
  document.addEventListener("htmx:afterSettle", showButtons);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", showButtons);
  else showButtons();
})();
