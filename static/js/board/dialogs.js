// The dialogs (New game, Settings, Statistics…), the menu, and the settings: classes on <html>
// kept in localStorage (prefs.js applies them before the page paints), or for the visit where
// storage is denied (a cross-site frame).
import { $, $$, board, html, setting } from "./page.js";

const SETTINGS_KEY = "lucie.settings";
const SETTING_NAMES = ["four-colour", "left-handed", "reduced-motion", "auto-move", "sounds", "one-tap"];
// The Themes choices (prefs.js applies them the same way): `<name>-<value>` classes, none for
// the first, default value.
const CHOICES = {
  felt: ["green", "blue", "red", "grey"],
  cards: ["classic", "large"],
  scheme: ["system", "light", "dark"],
};

export function closeMenu() {
  const menu = $("details.menu[open]");
  if (menu) menu.open = false;
  return Boolean(menu);
}

function openDialog(id) {
  const dialog = document.getElementById(id);
  if (!dialog || typeof dialog.showModal !== "function") return false;
  closeMenu();
  if (id === "settings-dialog") syncSettingsForm();
  dialog.showModal();
  return true;
}

// New game warns first when it would leave a game under way.
export function openNewGame() {
  const root = board();
  const warning = $("[data-in-progress-warning]");
  if (warning && root) {
    warning.hidden = !(root.dataset.status === "playing" && root.dataset.started === "true");
  }
  return openDialog("new-dialog");
}

function onClick(event) {
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
}

function choiceOf(name) {
  return CHOICES[name].find((value) => html.classList.contains(`${name}-${value}`)) || CHOICES[name][0];
}

function choose(name, value) {
  for (const other of CHOICES[name].slice(1)) html.classList.toggle(`${name}-${other}`, other === value);
}

function saveSettings() {
  const values = {};
  for (const name of SETTING_NAMES) values[name] = setting(name);
  for (const name of Object.keys(CHOICES)) values[name] = choiceOf(name);
  try {
    window.localStorage.setItem(SETTINGS_KEY, JSON.stringify(values));
  } catch (error) {
    // Storage denied or full: the settings still hold for this visit.
  }
}

function syncSettingsForm() {
  for (const box of $$("[data-settings-form] input[data-setting]")) box.checked = setting(box.dataset.setting);
  for (const radio of $$("[data-settings-form] input[data-choice]")) {
    radio.checked = choiceOf(radio.dataset.choice) === radio.value;
  }
}

function onChange(event) {
  const target = event.target;
  if (!target.closest || !target.closest("dialog")) return;
  const box = target.closest("[data-settings-form] input[data-setting]");
  const radio = target.closest("[data-settings-form] input[data-choice]");
  if (box) html.classList.toggle(box.dataset.setting, box.checked);
  else if (radio && radio.checked && CHOICES[radio.dataset.choice]) choose(radio.dataset.choice, radio.value);
  else return;
  saveSettings();
  document.dispatchEvent(new CustomEvent("lucie:settings"));
}

export function install() {
  document.addEventListener("click", onClick);
  document.addEventListener("change", onChange);
}
