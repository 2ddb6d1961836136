// The layout editor (/layouts/edit/, docs/LAYOUTS.md §The editor): tiles placed and removed on
// a half-tile grid over layers, by mouse, touch or keyboard. Positions are the engine's
// (mahjong/engine/layout.py): a tile at (x, y, z) covers cells x..x+1, y..y+1 of layer z,
// and two tiles of one layer may not share a cell. The page checks that as you edit; the
// server checks everything again on Test, Export and Save (layouts/editor.py).
// Tiles are drawn like the board's (mahjong/static/mahjong/board.css: proportions, the
// lift of each layer, the theme variables) but by this file: board.js plays a deal, it
// does not edit one, and it is shared.
import { copyButton } from "../mahjong/ui.js";

const root = document.getElementById("editor");
const start = JSON.parse(document.getElementById("editor-start").textContent);
const T = JSON.parse(document.getElementById("editor-strings").textContent);
const csrf = document.querySelector("meta[name=csrf-token]").content;
const { cols: COLS, rows: ROWS, layers: LAYERS, max_tiles: MAX_TILES } = start.grid;
const DEPTH = 0.13; // a layer's lift in tile widths, as board.css --d
const PAD = 6; // px around the grid: room for shadows
const MIN_W = 30; // px: zooming out stops here, a narrower tile is hard to tap...
const MIN_FIT_W = 16; // ...but the first view shows the whole grid, even on a phone
const MAX_W = 84;
const ZOOM_STEP = 1.2;
const DRAFT_KEY = "mj-layout-draft"; // unsaved work survives a reload (this device only)

const $ = (id) => document.getElementById(id);
const grid = $("ed-grid");
const stage = $("ed-stage");
const tilesEl = $("ed-tiles");
const ghost = $("ed-ghost");
const cursorEl = $("ed-cursor");
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => values[k]);

// --- the model: tiles by position, and which tile holds each cell of a layer ---------
const tiles = new Map(); // "x,y,z" -> {x, y, z, el}
const cells = new Map(); // "cx,cy,z" -> the key of the tile covering that cell
const history = []; // each entry: {add: [...positions], remove: [...positions]}
const state = { layer: 0, mode: "place", cursor: { x: 0, y: 0 }, w: 40, least: MIN_W, edited: false };
const key = (x, y, z) => `${x},${y},${z}`;
const cornerCells = (x, y, z) => [key(x, y, z), key(x + 1, y, z), key(x, y + 1, z), key(x + 1, y + 1, z)];

function tileAt(cx, cy, z) { // the tile covering cell (cx, cy) of layer z, if any
  const k = cells.get(key(cx, cy, z));
  return k === undefined ? null : tiles.get(k);
}

function fits(x, y, z) {
  return x >= 0 && y >= 0 && x <= COLS - 2 && y <= ROWS - 2 && z >= 0 && z < LAYERS &&
    cornerCells(x, y, z).every((c) => !cells.has(c));
}

function addTile(x, y, z) {
  const k = key(x, y, z);
  const el = document.createElement("div");
  el.className = "ed-tile";
  el.dataset.x = x; el.dataset.y = y; el.dataset.z = z;
  el.dataset.layer = z + 1; // shown on the tile (editor.css)
  el.style.setProperty("--x", x);
  el.style.setProperty("--y", y);
  el.style.setProperty("--z", z);
  el.style.zIndex = String(z * 1000 + y * 30 + x); // as board.js: nearer tiles over farther
  tilesEl.append(el);
  tiles.set(k, { x, y, z, el });
  for (const c of cornerCells(x, y, z)) cells.set(c, k);
}

function removeTile(x, y, z) {
  const k = key(x, y, z);
  const t = tiles.get(k);
  if (!t) return;
  t.el.remove();
  tiles.delete(k);
  for (const c of cornerCells(x, y, z)) cells.delete(c);
}

// Every edit goes through here, so Undo is its mirror and the page is redrawn once.
function apply(change, record = true) {
  change.remove.forEach((p) => removeTile(...p));
  change.add.forEach((p) => addTile(...p));
  if (record) history.push(change);
  state.edited = true;
  changed();
}

function positions() {
  return [...tiles.values()].map((t) => [t.x, t.y, t.z]);
}

// --- actions -----------------------------------------------------------------------
function place(x, y, z) {
  if (!fits(x, y, z)) return say(fill(T.overlap, { z: z + 1 }));
  if (tiles.size >= MAX_TILES) return say(fill(T.too_many, { n: MAX_TILES }));
  apply({ add: [[x, y, z]], remove: [] });
  say(fill(T.placed, { x: x + 1, y: y + 1, z: z + 1 }));
}

function erase(t) {
  if (!t) return say(T.nothing);
  apply({ add: [], remove: [[t.x, t.y, t.z]] });
  say(fill(T.removed, { x: t.x + 1, y: t.y + 1, z: t.z + 1 }));
}

function undo() {
  const last = history.pop();
  if (!last) return say(T.nothing_to_undo);
  apply({ add: last.remove, remove: last.add }, false);
  say(T.undone);
}

function clearAll() {
  if (!tiles.size) return;
  apply({ add: [], remove: positions() });
  say(T.cleared);
}

function setLayer(z) {
  state.layer = clamp(z, 0, LAYERS - 1);
  drawLayer();
}

function setMode(mode) {
  state.mode = mode;
  $("ed-place").setAttribute("aria-pressed", String(mode === "place"));
  $("ed-erase").setAttribute("aria-pressed", String(mode === "erase"));
  root.dataset.mode = mode;
}

// --- drawing -------------------------------------------------------------------------
function changed() {
  const n = tiles.size;
  $("ed-count").textContent = n === 1 ? T.tiles_one : fill(T.tiles_many, { n });
  $("ed-odd").textContent = n % 2 ? T.odd : "";
  $("ed-odd").hidden = !(n % 2);
  $("ed-undo").disabled = !history.length;
  $("ed-clear").disabled = !n;
  $("ed-result").textContent = ""; // a test's answer was about other tiles
  $("ed-result").className = "ed-result";
  $("ed-shared").hidden = true; // its link is the layout as it was saved
  saveDraft();
  drawLayer();
}

function drawLayer() {
  const z = state.layer;
  root.style.setProperty("--layer", z);
  $("ed-layer").textContent = fill(T.layer, { z: z + 1, layers: LAYERS });
  $("ed-layer-down").disabled = z === 0;
  $("ed-layer-up").disabled = z === LAYERS - 1;
  for (const t of tiles.values()) {
    t.el.dataset.rel = t.z < z ? "below" : t.z > z ? "above" : "here";
  }
  drawCursor();
}

function drawCursor() {
  const { x, y } = state.cursor;
  cursorEl.style.setProperty("--x", x);
  cursorEl.style.setProperty("--y", y);
  const t = tiles.get(key(x, y, state.layer));
  cursorEl.classList.toggle("on-tile", Boolean(t));
  cursorEl.classList.toggle("blocked", !t && !fits(x, y, state.layer));
}

// Zooming out stops at MIN_W, or at the first view's width when that was smaller.
function setZoom(w) {
  state.w = clamp(w, state.least, MAX_W);
  grid.style.setProperty("--w", `${state.w.toFixed(1)}px`);
  $("ed-zoom-in").disabled = state.w >= MAX_W;
  $("ed-zoom-out").disabled = state.w <= state.least;
}

// The tile width at which the whole grid fits the stage's width and the window's
// height: no sideways scroll inside the page, a phone's too. Zoom in to tap finer.
function fitZoom() {
  const across = COLS / 2 + (LAYERS - 1) * DEPTH;
  const down = (ROWS / 2) * (4 / 3) + (LAYERS - 1) * DEPTH;
  const width = stage.clientWidth - 2 * PAD - 4;
  const top = stage.getBoundingClientRect().top + window.scrollY;
  const height = Math.max(240, window.innerHeight - top - 12) - 2 * PAD;
  const fit = Math.floor(Math.min(width / across, height / down));
  state.least = clamp(fit, MIN_FIT_W, MIN_W);
  setZoom(fit);
}

// --- where a pointer is on the grid, in the current layer's half-tile cells ----------
function cellsAt(event) {
  const box = grid.getBoundingClientRect();
  const d = state.w * DEPTH;
  const lift = (LAYERS - 1 - state.layer) * d + PAD;
  return {
    fx: (event.clientX - box.left - lift) / (state.w / 2),
    fy: (event.clientY - box.top - lift) / ((state.w * 4) / 3 / 2),
  };
}

// The tile of this layer under the pointer, or the place a new one would go: the
// half-tile position whose centre is nearest.
function target(event) {
  const { fx, fy } = cellsAt(event);
  const hit = tileAt(Math.floor(fx), Math.floor(fy), state.layer);
  const x = clamp(Math.round(fx - 1), 0, COLS - 2);
  const y = clamp(Math.round(fy - 1), 0, ROWS - 2);
  return { hit, x, y, inside: fx >= 0 && fy >= 0 && fx < COLS && fy < ROWS };
}

grid.addEventListener("click", (event) => {
  const { hit, x, y, inside } = target(event);
  if (!inside) return;
  state.cursor = { x: hit ? hit.x : x, y: hit ? hit.y : y };
  if (state.mode === "erase" || hit) erase(hit);
  else place(x, y, state.layer);
});

grid.addEventListener("contextmenu", (event) => {
  const { hit, inside } = target(event);
  if (!inside) return;
  event.preventDefault();
  erase(hit);
});

grid.addEventListener("pointermove", (event) => {
  if (event.pointerType !== "mouse") return;
  const { hit, x, y, inside } = target(event);
  ghost.hidden = !inside;
  if (!inside) return;
  const at = hit || { x, y };
  ghost.style.setProperty("--x", at.x);
  ghost.style.setProperty("--y", at.y);
  ghost.dataset.act = state.mode === "erase" || hit ? "erase" : fits(x, y, state.layer) ? "place" : "blocked";
});
grid.addEventListener("pointerleave", () => { ghost.hidden = true; });

// --- keyboard ------------------------------------------------------------------------
const MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function moveCursor(dx, dy) {
  const c = state.cursor;
  state.cursor = { x: clamp(c.x + dx, 0, COLS - 2), y: clamp(c.y + dy, 0, ROWS - 2) };
  drawCursor();
  cursorEl.scrollIntoView({ block: "nearest", inline: "nearest" });
  const { x, y } = state.cursor;
  const on = tiles.has(key(x, y, state.layer));
  say(fill(on ? T.cursor_on : T.cursor, { x: x + 1, y: y + 1, z: state.layer + 1 }));
}

function toggleAtCursor() {
  const { x, y } = state.cursor;
  const exact = tiles.get(key(x, y, state.layer));
  if (state.mode === "erase" || exact) erase(exact || tileAt(x, y, state.layer));
  else place(x, y, state.layer);
}

grid.addEventListener("keydown", (event) => {
  const k = event.key;
  if ((event.ctrlKey || event.metaKey) && k.toLowerCase() === "z") undo();
  else if (MOVES[k]) moveCursor(...MOVES[k].map((v) => v * (event.shiftKey ? 2 : 1)));
  else if (k === "Enter" || k === " ") toggleAtCursor();
  else if (k === "Delete" || k === "Backspace") {
    erase(tileAt(state.cursor.x, state.cursor.y, state.layer));
  } else if (k === "PageUp" || k === "]") setLayer(state.layer + 1);
  else if (k === "PageDown" || k === "[") setLayer(state.layer - 1);
  else return;
  event.preventDefault();
});

// --- the toolbar ---------------------------------------------------------------------
$("ed-place").addEventListener("click", () => setMode("place"));
$("ed-erase").addEventListener("click", () => setMode("erase"));
$("ed-layer-up").addEventListener("click", () => setLayer(state.layer + 1));
$("ed-layer-down").addEventListener("click", () => setLayer(state.layer - 1));
$("ed-undo").addEventListener("click", undo);
$("ed-clear").addEventListener("click", clearAll);
$("ed-zoom-in").addEventListener("click", () => setZoom(state.w * ZOOM_STEP));
$("ed-zoom-out").addEventListener("click", () => setZoom(state.w / ZOOM_STEP));

function say(text) { $("ed-say").textContent = text; }

// --- the server: test, export, save ---------------------------------------------------
function result(text, ok) {
  const el = $("ed-result");
  el.textContent = text;
  el.className = `ed-result ${ok ? "ok" : "bad"}`;
}

async function post(url) {
  const body = JSON.stringify({ positions: positions(), name: $("ed-name").value });
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
    body,
  });
}

async function answerOf(response) {
  try { return await response.json(); } catch { return { ok: false, error: T.failed }; }
}

async function call(url, busyText, onOk) {
  if (!tiles.size) return result(T.need_tiles, false);
  result(busyText, true);
  try {
    const response = await post(url);
    await onOk(response);
  } catch {
    result(T.failed, false);
  }
}

$("ed-test").addEventListener("click", () => call(root.dataset.testUrl, T.testing, async (r) => {
  const answer = await answerOf(r);
  result(answer.ok ? answer.message : answer.error, answer.ok);
}));

$("ed-export").addEventListener("click", () => call(root.dataset.exportUrl, "", async (r) => {
  if (!r.ok) {
    const answer = await answerOf(r);
    return result(answer.error, false);
  }
  const name = /filename="([^"]+)"/.exec(r.headers.get("Content-Disposition") || "");
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await r.blob());
  link.download = name ? name[1] : "layout.layout";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  result("", true);
}));

$("ed-save-form").addEventListener("submit", (event) => {
  event.preventDefault();
  call(root.dataset.saveUrl, T.saving, async (r) => {
    const answer = await answerOf(r);
    if (!answer.ok) return result(answer.error, false);
    result(answer.message, true);
    $("ed-link").value = answer.share_url;
    $("ed-play").href = answer.play_url;
    $("ed-shared").hidden = false;
    $("ed-copied").textContent = "";
    localStorage.removeItem(DRAFT_KEY);
  });
});
$("ed-link").addEventListener("focus", (event) => event.target.select());
copyButton($("ed-copy"), $("ed-link"), $("ed-copied"), { copied: T.copied, failed: T.copy_failed });

// --- the draft kept on this device ---------------------------------------------------
function saveDraft() {
  if (!state.edited) return; // opening a layout does not replace an earlier draft
  try {
    if (tiles.size) localStorage.setItem(DRAFT_KEY, JSON.stringify(positions()));
    else localStorage.removeItem(DRAFT_KEY);
  } catch { /* private mode: no draft, nothing else lost */ }
}

function draft() {
  try {
    const saved = JSON.parse(localStorage.getItem(DRAFT_KEY) || "[]");
    return Array.isArray(saved) ? saved : [];
  } catch { return []; }
}

// --- start ---------------------------------------------------------------------------
grid.style.setProperty("--cols", COLS);
grid.style.setProperty("--rows", ROWS);
grid.style.setProperty("--layers", LAYERS);
const first = start.positions.length ? start.positions : draft();
for (const p of first) if (Array.isArray(p) && fits(...p)) addTile(...p);
const top = Math.max(0, ...positions().map((p) => p[2]));
setMode("place");
setLayer(top);
changed();
fitZoom();
grid.mahjongEditor = { positions, setLayer }; // for tests and the browser console
