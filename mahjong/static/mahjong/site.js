// The page-wide settings of every page (templates/base.html loads this file in <head>,
// blocking, so the theme is set before the first paint: the site's CSP forbids inline
// scripts, so the contract's "inline" script is this small file).
//
// Contract (shared with the board and the races): <html data-theme="light|dark">, from the
// player's choice "system|light|dark" in localStorage "mj-theme" ("system" follows
// prefers-color-scheme, live); <html data-contrast="high"> when "mj-contrast" = "high";
// "mj-sound" = "on" lets mahjong/sound.js play. Then, once the page is parsed: the
// Settings popover's controls and the phone menu.
(function () {
  "use strict";
  var root = document.documentElement;
  var dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  var KEYS = { theme: "mj-theme", contrast: "mj-contrast", sound: "mj-sound" };

  // Storage can throw (a private window, a blocked site): then choices last one page.
  function read(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }
  function write(key, value) {
    try { window.localStorage.setItem(key, value); } catch (e) { /* kept for this page */ }
  }

  function themeChoice() {
    var choice = read(KEYS.theme);
    return choice === "light" || choice === "dark" ? choice : "system";
  }
  function applyTheme() {
    var choice = themeChoice();
    var isDark = choice === "dark" || (choice === "system" && !!dark && dark.matches);
    root.setAttribute("data-theme", isDark ? "dark" : "light");
  }
  function applyContrast() {
    if (read(KEYS.contrast) === "high") root.setAttribute("data-contrast", "high");
    else root.removeAttribute("data-contrast");
  }
  function applyAll() { applyTheme(); applyContrast(); }

  applyAll();
  root.setAttribute("data-js", "");  // the phone menu hides the links only when it can open them
  if (dark) {
    if (dark.addEventListener) dark.addEventListener("change", applyTheme);
    else if (dark.addListener) dark.addListener(applyTheme);  // older Safari
  }
  // Another tab changed a setting: follow it here too.
  window.addEventListener("storage", function (event) {
    if (event.key === null || event.key.indexOf("mj-") === 0) { applyAll(); syncControls(); }
  });

  // --- the Settings popover ---------------------------------------------------------
  function controls() {
    return document.getElementById("settings-form");
  }
  function syncControls() {
    var form = controls();
    if (!form) return;
    var choice = themeChoice();
    form.querySelectorAll("input[name=theme]").forEach(function (input) {
      input.checked = input.value === choice;
    });
    form.elements.contrast.checked = read(KEYS.contrast) === "high";
    form.elements.sound.checked = read(KEYS.sound) === "on";
  }
  function onSettingChange(event) {
    var input = event.target;
    if (input.name === "theme") { write(KEYS.theme, input.value); applyTheme(); }
    if (input.name === "contrast") { write(KEYS.contrast, input.checked ? "high" : "off"); applyContrast(); }
    if (input.name === "sound") {
      write(KEYS.sound, input.checked ? "on" : "off");
      // A change is a user gesture: the moment to start audio, with a sample to hear.
      if (input.checked && window.MahjongSound) window.MahjongSound.play("select");
    }
  }

  // --- the phone menu: at <= 600 px wide or 520 px high the links fold behind one button
  function setupMenu() {
    var button = document.getElementById("menu-button");
    var panel = button && document.getElementById(button.getAttribute("aria-controls"));
    if (!panel) return;
    var header = button.closest("header");
    function isOpen() { return button.getAttribute("aria-expanded") === "true"; }
    function setOpen(open, returnFocus) {
      button.setAttribute("aria-expanded", open ? "true" : "false");
      header.classList.toggle("menu-open", open);
      if (open) {
        var first = panel.querySelector("a, button");
        if (first) first.focus();
      } else if (returnFocus) {
        button.focus();
      }
    }
    button.addEventListener("click", function () { setOpen(!isOpen(), false); });
    document.addEventListener("keydown", function (event) {
      // The settings popover closes itself on Escape first (it is in the top layer).
      if (event.key === "Escape" && isOpen() && !document.querySelector("#settings:popover-open")) {
        setOpen(false, true);
      }
    });
    document.addEventListener("click", function (event) {
      if (isOpen() && !header.contains(event.target)) setOpen(false, false);
    });
    // Tabbing past the last link leaves the menu: it closes rather than cover the page.
    header.addEventListener("focusout", function (event) {
      if (isOpen() && event.relatedTarget && !header.contains(event.relatedTarget)) setOpen(false, false);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = controls();
    if (form) {
      syncControls();
      form.addEventListener("change", onSettingChange);
      form.addEventListener("submit", function (event) { event.preventDefault(); });
    }
    setupMenu();
  });
})();
