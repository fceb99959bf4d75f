// This browser's settings as classes on <html>, set in <head> before the page paints so the
// board never flashes in the wrong colours or layout. board.js keeps them (the settings dialog);
// the server renders the same classes from the session for players without JavaScript, and a
// choice stored here wins over those once there is one.
"use strict";
(() => {
  const NAMES = ["four-colour", "left-handed", "reduced-motion", "auto-move"];
  let stored = null;
  try {
    stored = JSON.parse(window.localStorage.getItem("lucie.settings") || "null");
  } catch (error) {
    stored = null; // Storage denied (a cross-site frame, say): the server's classes stand.
  }
  if (!stored || typeof stored !== "object") return;
  const classes = document.documentElement.classList;
  for (const name of NAMES) classes.toggle(name, stored[name] === true);
})();
