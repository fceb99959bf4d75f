// This browser's settings as classes on <html>, set in <head> before the page paints so the
// board never flashes in the wrong colours or layout. board/dialogs.js keeps them (Settings);
// the server renders the same classes from the session for players without JavaScript, and a
// choice stored here wins over those once there is one.
// On/off settings are a class of their name; the Themes choices are `<name>-<value>` classes
// (felt-blue, cards-large, scheme-dark), none for the default (green felt, classic faces,
// the system's light or dark).
"use strict";
(() => {
  const NAMES = ["four-colour", "left-handed", "reduced-motion", "auto-move", "sounds", "one-tap"];
  // On for a new player, as in the rule books' app: unless this browser turned them off.
  const ON_UNLESS_OFF = ["auto-move", "one-tap"];
  const CHOICES = { felt: ["green", "blue", "red", "grey"], cards: ["classic", "large"], scheme: ["system", "light", "dark"] };
  let stored = null;
  try {
    stored = JSON.parse(window.localStorage.getItem("lucie.settings") || "null");
  } catch (error) {
    stored = null; // Storage denied (a cross-site frame, say): the server's classes stand.
  }
  const classes = document.documentElement.classList;
  if (!stored || typeof stored !== "object") {
    if (stored === null) for (const name of ON_UNLESS_OFF) classes.add(name);
    return;
  }
  // A name not stored leaves the server's class (a setting made without JavaScript), unless it
  // is one of those on for a new player.
  for (const name of NAMES) {
    if (name in stored) classes.toggle(name, stored[name] === true);
    else if (ON_UNLESS_OFF.includes(name)) classes.add(name);
  }
  for (const [name, values] of Object.entries(CHOICES)) {
    if (!values.includes(stored[name])) continue;
    for (const value of values.slice(1)) classes.toggle(`${name}-${value}`, stored[name] === value);
  }
})();
