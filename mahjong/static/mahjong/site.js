// The theme, before the first paint. A classic script on purpose, the only one the pages
// keep: templates/base.html loads it in <head>, blocking, so <html data-theme> is set before
// anything is drawn (a module is deferred: it would run after the first paint, a flash of
// the wrong theme), and the site's CSP forbids an inline script. Everything else of the
// page-wide chrome is the module ./chrome.js.
//
// Contract (shared with the board and the races): <html data-theme="light|dark">, from the
// player's choice "system|light|dark" in localStorage "mj-theme" ("system" follows
// prefers-color-scheme, live); <html data-contrast="high"> when "mj-contrast" = "high";
// "mj-sound" = "on" lets mahjong/sound.js play; <html data-tiles="clear"> when "mj-tiles" =
// "clear" (the tile set, docs/TILES.md; mahjong/tileset.js swaps the sprites) and
// <html data-board="felt|blue|wood"> from "mj-board" (the board's background; none: plain).
// chrome.js calls window.MahjongTheme.apply() after a change in Settings.
(function () {
  "use strict";
  var root = document.documentElement;
  var dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  // Storage can throw (a private window, a blocked site): then choices last one page.
  var BOARDS = ["felt", "blue", "wood"];  // "plain" (the default) sets no attribute
  function read(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }
  function themeChoice() {
    var choice = read("mj-theme");
    return choice === "light" || choice === "dark" ? choice : "system";
  }
  function applyTheme() {
    var choice = themeChoice();
    var isDark = choice === "dark" || (choice === "system" && !!dark && dark.matches);
    root.setAttribute("data-theme", isDark ? "dark" : "light");
  }
  function applyAll() {
    applyTheme();
    if (read("mj-contrast") === "high") root.setAttribute("data-contrast", "high");
    else root.removeAttribute("data-contrast");
    if (read("mj-tiles") === "clear") root.setAttribute("data-tiles", "clear");
    else root.removeAttribute("data-tiles");
    var board = read("mj-board");
    if (BOARDS.indexOf(board) >= 0) root.setAttribute("data-board", board);
    else root.removeAttribute("data-board");
  }

  applyAll();
  root.setAttribute("data-js", "");  // the phone menu hides the links only when it can open them
  if (dark) {
    if (dark.addEventListener) dark.addEventListener("change", applyTheme);
    else if (dark.addListener) dark.addListener(applyTheme);  // older Safari
  }
  // Another tab changed a setting: follow it here too.
  window.addEventListener("storage", function (event) {
    if (event.key === null || event.key.indexOf("mj-") === 0) applyAll();
  });
  window.MahjongTheme = { apply: applyAll, choice: themeChoice, read: read };
})();
