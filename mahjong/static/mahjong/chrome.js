// The page-wide chrome of every page, once the page is parsed (a module: deferred): the
// Settings popover's controls and the phone menu. The theme itself is set before the
// first paint by the classic ./site.js, whose window.MahjongTheme this calls.
import { MahjongSound } from "./sound.js";
import { followTileSet } from "./tileset.js";

const KEYS = { theme: "mj-theme", contrast: "mj-contrast", sound: "mj-sound", tiles: "mj-tiles", board: "mj-board" };
const theme = window.MahjongTheme;

function write(key, value) {
  try { window.localStorage.setItem(key, value); } catch (e) { /* kept for this page */ }
}

// --- the Settings popover ---------------------------------------------------------
function syncControls(form) {
  const choice = theme.choice();
  form.querySelectorAll("input[name=theme]").forEach((input) => { input.checked = input.value === choice; });
  form.elements.contrast.checked = theme.read(KEYS.contrast) === "high";
  form.elements.sound.checked = theme.read(KEYS.sound) === "on";
  const tiles = document.documentElement.dataset.tiles || "classic";
  const board = document.documentElement.dataset.board || "plain";
  form.querySelectorAll("input[name=tiles]").forEach((input) => { input.checked = input.value === tiles; });
  form.querySelectorAll("input[name=board]").forEach((input) => { input.checked = input.value === board; });
}

function onSettingChange(event) {
  const input = event.target;
  if (input.name === "theme") write(KEYS.theme, input.value);
  if (input.name === "contrast") write(KEYS.contrast, input.checked ? "high" : "off");
  if (input.name === "tiles" || input.name === "board") write(KEYS[input.name], input.value);
  theme.apply();
  if (input.name === "sound") {
    write(KEYS.sound, input.checked ? "on" : "off");
    // A change is a user gesture: the moment to start audio, with a sample to hear.
    if (input.checked) MahjongSound.play("select");
  }
}

// --- the phone menu: at <= 600 px wide or 520 px high the links fold behind one button
function setupMenu() {
  const button = document.getElementById("menu-button");
  const panel = button && document.getElementById(button.getAttribute("aria-controls"));
  if (!panel) return;
  const header = button.closest("header");
  const isOpen = () => button.getAttribute("aria-expanded") === "true";
  function setOpen(open, returnFocus) {
    button.setAttribute("aria-expanded", open ? "true" : "false");
    header.classList.toggle("menu-open", open);
    if (open) {
      const first = panel.querySelector("a, button");
      if (first) first.focus();
    } else if (returnFocus) {
      button.focus();
    }
  }
  button.addEventListener("click", () => setOpen(!isOpen(), false));
  document.addEventListener("keydown", (event) => {
    // The settings popover closes itself on Escape first (it is in the top layer).
    if (event.key === "Escape" && isOpen() && !document.querySelector("#settings:popover-open")) {
      setOpen(false, true);
    }
  });
  document.addEventListener("click", (event) => {
    if (isOpen() && !header.contains(event.target)) setOpen(false, false);
  });
  // Tabbing past the last link leaves the menu: it closes rather than cover the page.
  header.addEventListener("focusout", (event) => {
    if (isOpen() && event.relatedTarget && !header.contains(event.relatedTarget)) setOpen(false, false);
  });
}

const form = document.getElementById("settings-form");
if (form) {
  syncControls(form);
  form.addEventListener("change", onSettingChange);
  form.addEventListener("submit", (event) => event.preventDefault());
  // Another tab changed a setting: site.js applies it, the controls follow it here.
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key.indexOf("mj-") === 0) syncControls(form);
  });
}
setupMenu();
followTileSet();

// --- the skip link: "Skip to the board" puts the keyboard on the board's free tile (the
// one the arrows start from), not merely scrolls to it; "Skip to content" lands on <main>.
function setupSkipLink() {
  const link = document.querySelector(".skip-link");
  if (!link) return;
  link.addEventListener("click", (event) => {
    const target = document.querySelector(link.getAttribute("href"));
    if (!target) return;
    event.preventDefault();
    const into = target.querySelector(".tile[tabindex='0']") || target.closest("[tabindex]") || target;
    if (!into.hasAttribute("tabindex") && !into.matches("a, button, input, select, textarea")) into.tabIndex = -1;
    into.focus();
  });
}

// --- a table wider than its box scrolls inside it: then the box takes the keyboard too
// (arrows scroll it), so it is a tab stop only while it has something to scroll to; and
// data-more names the edges ("start", "end") past which there is more, which site.css
// fades out: the cue that the table goes on.
function setupScrollers() {
  const boxes = document.querySelectorAll(".table-scroll, .daily-best ol");
  if (!boxes.length) return;
  const mark = (box) => {
    const more = box.scrollWidth > box.clientWidth + 1;
    if (more) box.tabIndex = 0;
    else box.removeAttribute("tabindex");
    const left = Math.abs(box.scrollLeft);
    const edges = [];
    if (more && left > 1) edges.push("start");
    if (more && left + box.clientWidth < box.scrollWidth - 1) edges.push("end");
    if (edges.length) box.dataset.more = edges.join(" ");
    else delete box.dataset.more;
  };
  boxes.forEach((box) => {
    mark(box);
    box.addEventListener("scroll", () => mark(box), { passive: true });
  });
  if (!window.ResizeObserver) return;
  const watch = new ResizeObserver((entries) => entries.forEach((entry) => mark(entry.target.closest(".table-scroll, .daily-best ol") || entry.target)));
  boxes.forEach((box) => {
    watch.observe(box);
    if (box.firstElementChild) watch.observe(box.firstElementChild);
  });
}

setupSkipLink();
setupScrollers();
