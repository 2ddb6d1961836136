// The board component: draws a layout of tiles, mirrors the engine's rules (freeness,
// matching) for instant feedback, and handles selection and keyboard focus
// (docs/RULES.md §Playing a board).
// It never decides a move: it reports a chosen pair through `onPair`, and the page's
// controller asks the server, which is the referee. A pair leaves at once (optimistic);
// a refusal brings it back through setAlive/load.
// It also owns how the board sits on the page (fit to the room the page leaves, zoom,
// pan, full screen) and its motion, so practice, races and /learn/ get them alike.
// An ES module (no build step): the pure rules it plays by are in ./rules.js, which Node
// imports too (tests/js/, tests/engine/test_js_freeness.py); this file is the DOM part, in
// sections (rules, drawing, frame, playing) marked below.
import * as rules from "./rules.js";
import { formatTime, matchClass } from "./rules.js";
import { MahjongSound } from "./sound.js";
import { spriteUrl } from "./tileset.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const DEPTH = 0.13; // a layer's offset, in tile widths (board.css --d says the same)
const MAX_FIT_W = 80; // px: a tile fitted to the window is at most this wide
const MAX_ZOOM_W = 112; // px: zooming in stops here
const ZOOM_STEP = 1.25;
const STRIP = 36; // px kept clear for the view controls until they can be measured
const CONTROLS_INSET = 4; // px: board.css sets the controls this far from the wrap's edge
const SLACK = 8; // px around the board at fit: room for shadows and a selected tile's lift
const MIN_WRAP = 120; // px: below this the page scrolls rather than shrink the board more
const DRAG_SLOP = 8; // px a press moves before it becomes a pan (and selects nothing)
const LEAVE_MS = 180; // a removed pair's lift and fade
const TAP_FRESH_MS = 1000; // a pointerup older than this did not cause the removal
const CLICK_AFTER_TAP_MS = 800; // the click that follows a tap played at pointerup
const DOUBLE_TAP_MS = 350; // two taps on the felt this close together are a double tap
const DOUBLE_TAP_SLOP = 32; // px between the two taps of a double tap, at most
// "Turn your phone" when upright, at fit: a board this much wider than tall (turned, a
// phone gives it about that much larger tiles), with tiles narrower than READABLE_W,
// and this much felt below it for the note.
const TURN_HINT_ASPECT = 1.25;
const READABLE_W = 36; // px
const TURN_HINT_ROOM = 56; // px
const TURN_HINT_KEY = "mj-turn-hint"; // localStorage: "off" once the player hid the hint

const sound = (name) => MahjongSound.play(name); // a property call: tests replace it
const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

// Small icons of our own, drawn on a 16×16 grid.
const ICONS = {
  out: "M3 8h10",
  in: "M3 8h10M8 3v10",
  fit: "M2 6V2h4M10 2h4v4M14 10v4h-4M6 14H2v-4",
  full: "M2 5V2h3M11 2h3v3M14 11v3h-3M5 14H2v-3M5 5h6v6H5z",
};

function icon(name) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", ICONS[name]);
  svg.append(path);
  return svg;
}

// The height `root`'s content would take if nothing stretched it: the bottom of its
// lowest in-flow child (board.css `.mj-measuring` stops <body>'s min-height meanwhile).
function naturalHeight(root) {
  const box = root.getBoundingClientRect();
  const style = getComputedStyle(root);
  let bottom = box.top + parseFloat(style.paddingTop) + parseFloat(style.borderTopWidth);
  for (const child of root.children) {
    const cs = getComputedStyle(child);
    if (cs.display === "none" || cs.position === "absolute" || cs.position === "fixed") continue;
    bottom = Math.max(bottom, child.getBoundingClientRect().bottom + parseFloat(cs.marginBottom));
  }
  return bottom - box.top + parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth);
}

class MahjongBoard {
  constructor(boardEl, wrapEl, { sprite, strings, onPair = () => {}, onSay = () => {} }) {
    Object.assign(this, { boardEl, wrapEl, sprite, T: strings, onPair, onSay });
    this.tiles = [];
    this.alive = [];
    this.selected = null;
    this.focusIndex = null;
    this.enabled = true;
    this.matchesShown = false;
    this.leaving = new Map(); // tile index -> its removal Animation
    this.hintTimers = [];
    this.zoom = 1; // times the fitted size
    this.fitW = 40;
    this.tapAt = null; // timeStamp of the last pointerup on the board (tap latency)
    this.pointerActed = null; // when a tap was played at its pointerup (its click is skipped)
    this.pageKeys = {};
    this.buildFrame();
    this.watchPointers();
    this.watchSize();
    boardEl.mahjongBoard = this; // for tests and the browser console
  }

  t(key) { return (this.T && this.T[key]) || ""; }

  // --- rules (./rules.js) -----------------------------------------------------------
  buildLinks() { this.links = rules.buildLinks(this.tiles); }

  isFree(i) { return rules.isFree(this.links, this.alive, i); }

  whyBlocked(i) {
    const { covering, bothSides } = rules.blockedBy(this.links, this.alive, i);
    const parts = [];
    if (covering) parts.push((covering === 1 ? this.T.covered_one : this.T.covered_many).replace("{n}", covering));
    if (bothSides) parts.push(this.T.both_sides);
    return parts.join(this.T.and);
  }

  matches(i, j) { return rules.facesMatch(this.tiles[i].face, this.tiles[j].face); }

  freeGroups() { return rules.freeGroups(this.tiles, this.links, this.alive); }

  isBlocked() { return rules.isBlocked(this.tiles, this.links, this.alive); }

  openPairs() { return rules.openPairs(this.tiles, this.links, this.alive); }

  aliveCount() { return this.alive.filter(Boolean).length; }
  removedCount() { return this.tiles.length - this.aliveCount(); }
  progress() { return Math.floor((this.removedCount() * 100) / this.tiles.length); }

  // --- drawing ----------------------------------------------------------------------
  faceName(face) { return face ? this.T.faces[face] || face : this.T.face_down; }

  // `tiles`: [{x, y, z, face?}] (no face: drawn face down); `alive`: indices or null.
  load(tiles, alive = null) {
    this.stopLeaving();
    this.clearHints();
    const before = this.tiles.length;
    this.tiles = tiles.map((t) => ({ ...t }));
    this.buildLinks();
    const xs = this.tiles.map((t) => t.x);
    const ys = this.tiles.map((t) => t.y);
    const minX = Math.min(...xs);
    const minY = Math.min(...ys);
    const [cols, rows] = [Math.max(...xs) + 2 - minX, Math.max(...ys) + 2 - minY];
    // The same board again (a race's snapshot, a refusal, the same layout): the
    // player's zoom stays; another shape starts at fit.
    if (cols !== this.cols || rows !== this.rows || tiles.length !== before) this.zoom = 1;
    this.cols = cols;
    this.rows = rows;
    this.layers = Math.max(...this.tiles.map((t) => t.z)) + 1;
    this.boardEl.style.setProperty("--cols", this.cols);
    this.boardEl.style.setProperty("--rows", this.rows);
    this.boardEl.style.setProperty("--layers", this.layers);
    this.boardEl.replaceChildren(...this.tiles.map((t, i) => (t.el = this.tileElement(t, i, minX, minY))));
    this.selected = null;
    this.focusIndex = null;
    this.setAlive(alive);
    this.fit();
  }

  tileElement(t, i, minX, minY) {
    const el = document.createElement("button");
    el.type = "button";
    el.className = "tile";
    el.tabIndex = -1;
    Object.assign(el.dataset, { x: t.x, y: t.y, z: t.z, index: i });
    el.style.setProperty("--x", t.x - minX);
    el.style.setProperty("--y", t.y - minY);
    el.style.setProperty("--z", t.z);
    el.style.zIndex = String(t.z * 1000 + t.y * 30 + t.x);
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("viewBox", "0 0 60 80");
    svg.setAttribute("class", "pic");
    svg.setAttribute("aria-hidden", "true");
    svg.append(document.createElementNS(SVG_NS, "use"));
    const label = document.createElement("span");
    label.className = "label";
    label.setAttribute("aria-hidden", "true");
    el.append(svg, label);
    this.paintFace(t, el);
    el.addEventListener("click", () => {
      // A pointer's tap was played at its pointerup already; this is its click.
      if (this.pointerActed !== null && performance.now() - this.pointerActed < CLICK_AFTER_TAP_MS) {
        this.pointerActed = null;
        return;
      }
      this.activate(i);
    });
    return el;
  }

  paintFace(t, el = t.el) {
    if (t.face) el.dataset.face = t.face; else delete el.dataset.face;
    el.classList.toggle("face-down", !t.face);
    el.querySelector("use").setAttribute("href", t.face ? `${spriteUrl(this.sprite)}#tile-${t.face}` : "");
    el.querySelector(".label").textContent = t.face || "";
  }

  // Faces arrive at "go" and after a shuffle; places change only in a rare shuffle.
  // `{animate: true}`: the tiles turn over to their new faces (a shuffle).
  setFaces(tiles, alive, { animate = false } = {}) {
    const moved = tiles.length !== this.tiles.length ||
      tiles.some((t, i) => t.x !== this.tiles[i].x || t.y !== this.tiles[i].y || t.z !== this.tiles[i].z);
    if (moved) {
      this.load(tiles, alive);
    } else {
      this.stopLeaving();
      tiles.forEach((t, i) => { this.tiles[i].face = t.face; this.paintFace(this.tiles[i]); });
      this.setAlive(alive);
    }
    if (animate) this.animateShuffle();
  }

  setAlive(alive) {
    const set = alive ? new Set(alive) : null;
    this.alive = this.tiles.map((_, i) => (set ? set.has(i) : true));
    for (const [k, animation] of this.leaving) {
      if (this.alive[k]) { animation.cancel(); this.leaving.delete(k); } // refused: back at once
    }
    if (this.selected !== null && !this.alive[this.selected]) this.selected = null;
    this.refresh();
  }

  // Tiles matching the selected one get class `match` (a helper a race may not allow).
  get showMatches() { return this.matchesShown; }

  set showMatches(on) {
    if (Boolean(on) === this.matchesShown) return;
    this.matchesShown = Boolean(on);
    if (this.tiles.length) this.refresh();
  }

  label(t, i, free) {
    return (this.t("tile_label") || "{face}, {state}, layer {layer} of {layers}")
      .replace("{face}", this.faceName(t.face))
      .replace("{layer}", t.z + 1)
      .replace("{layers}", this.layers)
      .replace("{state}", free ? this.T.free : this.T.blocked);
  }

  refresh() {
    const domFocus = this.boardEl.contains(document.activeElement);
    const chosen = this.selected !== null && this.matchesShown ? matchClass(this.tiles[this.selected].face || "") : null;
    this.tiles.forEach((t, i) => {
      const free = this.isFree(i);
      t.el.hidden = !this.alive[i] && !this.leaving.has(i);
      t.el.dataset.free = String(free);
      t.el.classList.toggle("selected", i === this.selected);
      t.el.classList.toggle("match", Boolean(chosen) && i !== this.selected && this.alive[i] &&
        Boolean(t.face) && matchClass(t.face) === chosen);
      t.el.setAttribute("aria-label", this.label(t, i, free));
      t.el.setAttribute("aria-pressed", String(i === this.selected));
    });
    if (this.focusIndex === null || !this.isFree(this.focusIndex)) {
      const near = this.focusIndex === null ? this.firstFree() : this.nearestFree(this.focusIndex);
      // The keyboard's place stays on the board: a focused tile that left hands it on.
      this.setFocus(near, domFocus, { preventScroll: this.byPointer });
    }
  }

  firstFree() {
    let best = null;
    this.tiles.forEach((t, i) => {
      if (!this.isFree(i)) return;
      const b = this.tiles[best];
      if (best === null || t.y < b.y || (t.y === b.y && t.x < b.x)) best = i;
    });
    return best;
  }

  // The free tile closest to where tile `k` is (or was).
  nearestFree(k) {
    const from = this.tiles[k];
    let best = null;
    let bestDistance = Infinity;
    this.tiles.forEach((t, i) => {
      if (i === k || !this.isFree(i)) return;
      const distance = Math.hypot(t.x - from.x, (t.y - from.y) * 1.33) + Math.abs(t.z - from.z) * 0.1;
      if (distance < bestDistance) { bestDistance = distance; best = i; }
    });
    return best;
  }

  setFocus(i, move = true, options = {}) {
    if (this.focusIndex !== null && this.tiles[this.focusIndex]) this.tiles[this.focusIndex].el.tabIndex = -1;
    this.focusIndex = i;
    if (i === null) {
      if (move) this.scrollEl.focus({ preventScroll: true }); // never down to <body>
      return;
    }
    this.tiles[i].el.tabIndex = 0;
    if (move) this.tiles[i].el.focus(options);
  }

  // --- the frame: scroller, view controls, fit ----------------------------------------
  // The board sits in a scroller inside the page's wrap, so covers and countdowns laid
  // over the wrap stay put while a zoomed board pans under them.
  buildFrame() {
    this.scrollEl = document.createElement("div");
    this.scrollEl.className = "board-scroll";
    this.scrollEl.tabIndex = -1; // focus lands here when no tile is free
    this.boardEl.replaceWith(this.scrollEl);
    this.scrollEl.append(this.boardEl);
    const group = document.createElement("div");
    group.className = "board-controls";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", this.t("view_controls") || "View");
    const button = (cls, name, label, action) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = cls;
      b.setAttribute("aria-label", label);
      b.title = label;
      b.append(icon(name));
      b.addEventListener("click", action);
      group.append(b);
      return b;
    };
    this.zoomOutButton = button("zoom-out", "out", this.t("zoom_out") || "Zoom out", () => this.zoomBy(1 / ZOOM_STEP));
    this.fitButton = button("zoom-fit", "fit", this.t("zoom_fit") || "Fit the board", () => this.setZoom(1));
    this.zoomInButton = button("zoom-in", "in", this.t("zoom_in") || "Zoom in", () => this.zoomBy(ZOOM_STEP));
    this.fullButton = button("full-screen", "full", this.t("full_screen") || "Full screen", () => this.toggleFullScreen());
    this.fullButton.setAttribute("aria-pressed", "false");
    this.fullButton.hidden = !this.fullScreenTarget();
    this.wrapEl.append(group);
    this.controls = group;
    this.buildTurnHint();
    // The height fit() sets must hold in a flex column too (a page's `flex: 1` would
    // make it grow from 0 and collapse the wrap); in a row it still grows to fill.
    this.wrapEl.style.flexBasis = "auto";
  }

  // "Turn your phone": a board much wider than an upright phone is tall fits with small
  // tiles and empty felt above and below. A small note at the foot of the wrap offers
  // the double tap and the phone on its side until the player hides it (remembered).

  buildTurnHint() {
    const note = document.createElement("p");
    note.className = "turn-hint";
    note.hidden = true;
    const text = document.createElement("span");
    text.textContent = this.t("turn_hint") || "Small tiles? Double-tap an empty spot to zoom in, or turn your phone sideways.";
    const close = document.createElement("button");
    close.type = "button";
    close.className = "turn-hint-close";
    const label = this.t("turn_hint_close") || "Hide this tip";
    close.setAttribute("aria-label", label);
    close.title = label;
    close.textContent = "×";
    close.addEventListener("click", () => {
      try { localStorage.setItem(TURN_HINT_KEY, "off"); } catch (error) { /* private mode */ }
      this.turnHintOff = true;
      note.hidden = true;
    });
    note.append(text, close);
    this.wrapEl.append(note);
    this.turnHint = note;
    try { this.turnHintOff = localStorage.getItem(TURN_HINT_KEY) === "off"; } catch (error) { /* private mode */ }
  }

  // Wanted on an upright touch screen for a board much wider than tall, with small
  // tiles (a narrow layout already fills the height; a phone on its side has no more
  // to give); shown only at fit, in the felt below the board, so it covers no tile.
  // `room`: the wrap's height left to the board, in px.
  wantTurnHint(across, down, room) {
    const upright = window.matchMedia("(orientation: portrait) and (pointer: coarse)").matches;
    const below = (room - this.fitW * down - SLACK) / 2;
    this.turnHintWanted = upright && across / down >= TURN_HINT_ASPECT && this.fitW < READABLE_W &&
      below >= TURN_HINT_ROOM;
  }

  fullScreenTarget() {
    const target = this.wrapEl.closest(".play") || this.wrapEl;
    return document.fullscreenEnabled && target.requestFullscreen ? target : null;
  }

  toggleFullScreen() {
    if (document.fullscreenElement) { document.exitFullscreen().catch(() => {}); return; }
    const target = this.fullScreenTarget();
    if (target) target.requestFullscreen().catch(() => {});
  }

  fullScreenChanged() {
    const on = Boolean(document.fullscreenElement && document.fullscreenElement.contains(this.wrapEl));
    this.fullButton.setAttribute("aria-pressed", String(on));
    const label = on ? this.t("exit_full_screen") || "Exit full screen" : this.t("full_screen") || "Full screen";
    this.fullButton.setAttribute("aria-label", label);
    this.fullButton.title = label;
    this.fit();
  }

  // Refit on resize, rotation, full screen, and whenever anything beside the board on
  // the way up to <body> changes height (a toolbar wraps, a notice shows).
  watchSize() {
    const again = () => {
      if (this.fitQueued) return;
      this.fitQueued = true;
      requestAnimationFrame(() => { this.fitQueued = false; this.fit(); });
    };
    window.addEventListener("resize", again);
    window.addEventListener("orientationchange", again);
    document.addEventListener("fullscreenchange", () => this.fullScreenChanged());
    if (!window.ResizeObserver) return;
    const observer = new ResizeObserver((entries) => {
      // The wrap's own height is ours to set; only its width is news.
      if (entries.some((e) => e.target !== this.wrapEl || Math.abs(e.contentRect.width - this.fittedWidth) > 0.5)) again();
    });
    observer.observe(this.wrapEl);
    for (let node = this.wrapEl; node.parentElement && node !== document.body; node = node.parentElement) {
      for (const sibling of node.parentElement.children) if (sibling !== node) observer.observe(sibling);
    }
  }

  fit() {
    if (!this.tiles.length || !this.wrapEl.getClientRects().length) return; // hidden: nothing to measure
    this.fitHeight();
    this.fitTiles();
  }

  // The wrap takes the height the page leaves it: the page's other content is measured
  // (not assumed), so the page itself never scrolls while the room allows. It starts
  // at the whole window and gives back what overflows: content beside the board (a
  // column of controls taller than it) then costs the board nothing.
  fitHeight() {
    const full = document.fullscreenElement;
    const root = full && full.contains(this.wrapEl) ? full : document.body;
    const room = Math.floor(root === document.body ? window.innerHeight : root.clientHeight);
    const html = document.documentElement;
    let height = room;
    html.classList.add("mj-measuring");
    try {
      for (let round = 0; round < 4; round++) { // a line that wraps may move things again
        this.wrapEl.style.height = `${height}px`;
        const over = naturalHeight(root) - room;
        const next = Math.max(MIN_WRAP, Math.floor(height - over));
        if (over <= 0 || next === height) return;
        height = next;
      }
      this.wrapEl.style.height = `${height}px`;
    } finally {
      html.classList.remove("mj-measuring");
    }
  }

  // Tiles as large as the wrap allows (at most MAX_FIT_W). The view controls take a
  // strip at the top or at the right, whichever costs the tiles less.
  fitTiles() {
    const width = this.wrapEl.clientWidth;
    const height = this.wrapEl.clientHeight;
    this.fittedWidth = width;
    const across = this.cols / 2 + DEPTH * this.layers;
    const down = (this.rows / 2) * (4 / 3) + DEPTH * this.layers;
    const strip = this.controlsStrip();
    const size = (w, h) => Math.min(MAX_FIT_W, (w - SLACK) / across, (h - SLACK) / down);
    const top = size(width, height - strip);
    const side = size(width - strip, height);
    const onTop = top >= side;
    this.wrapEl.dataset.controls = onTop ? "top" : "side";
    this.wrapEl.style.setProperty("--strip", `${strip}px`);
    this.fitW = Math.max(10, top, side);
    // A double tap's close-up: the board fills the wrap both ways (docs/PRACTICE.md).
    const [w, h] = onTop ? [width, height - strip] : [width - strip, height];
    this.coverW = Math.min(MAX_ZOOM_W, Math.max((w - SLACK) / across, (h - SLACK) / down));
    this.wantTurnHint(across, down, h);

    this.applyZoom();
  }

  // The strip kept clear for the view controls: their bar's thickness and its inset
  // (the bar is 44 px thick on a phone, 32 px with a mouse: board.css).
  controlsStrip() {
    const thick = Math.min(this.controls.offsetWidth, this.controls.offsetHeight);
    return thick ? thick + CONTROLS_INSET : STRIP;
  }

  tileWidth() { return this.fitW * this.zoom; }

  applyZoom() {
    this.boardEl.style.setProperty("--w", `${this.tileWidth().toFixed(2)}px`);
    const zoomed = this.zoom > 1.001;
    this.wrapEl.classList.toggle("zoomed", zoomed);
    this.zoomOutButton.disabled = !zoomed;
    this.fitButton.disabled = !zoomed;
    this.zoomInButton.disabled = this.tileWidth() >= MAX_ZOOM_W - 0.5;
    this.turnHint.hidden = !this.turnHintWanted || zoomed || this.turnHintOff;
  }

  // Zoom to `zoom` times the fitted size, keeping the board point under `anchor`
  // (client coordinates; the middle of the view by default) where it is.
  setZoom(zoom, anchor = null) {
    const view = this.scrollEl.getBoundingClientRect();
    const at = anchor || { x: view.left + view.width / 2, y: view.top + view.height / 2 };
    const before = this.boardEl.getBoundingClientRect();
    const fx = (at.x - before.left) / (before.width || 1);
    const fy = (at.y - before.top) / (before.height || 1);
    this.zoom = clamp(zoom, 1, Math.max(1, MAX_ZOOM_W / this.fitW));
    this.applyZoom();
    const after = this.boardEl.getBoundingClientRect();
    this.scrollEl.scrollLeft += after.left + fx * after.width - at.x;
    this.scrollEl.scrollTop += after.top + fy * after.height - at.y;
  }

  zoomBy(factor, anchor = null) { this.setZoom(this.zoom * factor, anchor); }

  // Pinch with two pointers, pan by dragging (or the wheel, natively) when zoomed;
  // Ctrl+wheel (a trackpad's pinch) zooms. A press that moved is a pan, never a tap.
  watchPointers() {
    const s = this.scrollEl;
    const points = new Map();
    let gesture = null;
    const midpoint = () => {
      const [a, b] = [...points.values()];
      return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) || 1 };
    };
    const startPan = (p) => ({ kind: "pan", x: p.x, y: p.y, left: s.scrollLeft, top: s.scrollTop });
    s.addEventListener("pointerdown", (e) => {
      if (e.pointerType === "mouse" && e.button !== 0) return;
      this.byPointer = true;
      points.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (points.size === 1) {
        this.dragged = false;
        this.pointerActed = null;
        const tile = e.target.closest(".tile");
        gesture = { kind: "press", x: e.clientX, y: e.clientY, left: s.scrollLeft, top: s.scrollTop, tile };
      } else if (points.size === 2) {
        const m = midpoint();
        gesture = { kind: "pinch", zoom: this.zoom, d: m.d, x: m.x, y: m.y };
        this.dragged = true;
      }
    });
    s.addEventListener("pointermove", (e) => {
      const p = points.get(e.pointerId);
      if (!p || !gesture) return;
      p.x = e.clientX;
      p.y = e.clientY;
      if (gesture.kind === "press" && Math.hypot(p.x - gesture.x, p.y - gesture.y) > DRAG_SLOP) {
        gesture.kind = "pan";
        this.dragged = true;
        try { s.setPointerCapture(e.pointerId); } catch (error) { /* already gone */ }
      }
      if (gesture.kind === "pan") {
        s.scrollLeft = gesture.left - (p.x - gesture.x);
        s.scrollTop = gesture.top - (p.y - gesture.y);
      } else if (gesture.kind === "pinch" && points.size === 2) {
        const m = midpoint();
        this.setZoom(gesture.zoom * (m.d / gesture.d), m);
        s.scrollLeft -= m.x - gesture.x;
        s.scrollTop -= m.y - gesture.y;
        gesture.x = m.x;
        gesture.y = m.y;
      }
    });
    const lift = (e) => {
      if (!points.delete(e.pointerId)) return;
      if (e.type === "pointerup" && gesture && gesture.kind === "press") this.tapped(e, gesture.tile);
      else this.feltTap = null; // a pan or a pinch between two taps: no double tap
      if (points.size === 1) gesture = startPan([...points.values()][0]); // one finger of a pinch stays
      else if (!points.size) gesture = null;
    };
    s.addEventListener("pointerup", lift);
    s.addEventListener("pointercancel", lift);
    s.addEventListener("click", (e) => {
      if (!this.dragged) return;
      this.dragged = false;
      e.stopPropagation();
      e.preventDefault();
    }, true);
    s.addEventListener("wheel", (e) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      this.zoomBy(e.deltaY < 0 ? 1.1 : 1 / 1.1, { x: e.clientX, y: e.clientY });
    }, { passive: false });
    s.addEventListener("keydown", () => { this.byPointer = false; this.dragged = false; }, true);

  }

  // A tap is played at its pointerup, not at the click that follows: on touch the click
  // comes a task (often a frame) later, and the removal must start in the tap's frame.
  tapped(e, tile) {
    this.tapAt = e.timeStamp;
    try {
      performance.clearMarks("mj-tap"); // one at a time: a long session keeps no pile
      performance.mark("mj-tap", { startTime: e.timeStamp });
      // The browser's share: the event's time to its handler (a busy main thread, input
      // queued behind a frame). The board's share follows in measureTap.
      performance.measure("mj-input-delay", { start: e.timeStamp, end: performance.now() });
    } catch (error) { /* an old browser without User Timing L3 */ }
    const over = document.elementFromPoint(e.clientX, e.clientY);
    if (!tile && over && !over.closest(".tile")) { this.tappedFelt(e); return; }
    this.feltTap = null;
    if (!tile || !this.enabled || !over || over.closest(".tile") !== tile) return;
    this.pointerActed = performance.now();
    this.activate(Number(tile.dataset.index));
  }

  // A double tap (or double click) on the felt, never on a tile, zooms in around that
  // point until the board fills the wrap both ways; zoomed, it fits the board again. A
  // tap on a tile is always a play, and a single tap on the felt does nothing, so the
  // first tap of a double tap never selects nor removes anything.
  tappedFelt(e) {
    const first = this.feltTap;
    this.feltTap = { at: e.timeStamp, x: e.clientX, y: e.clientY };
    if (!first || e.timeStamp - first.at > DOUBLE_TAP_MS ||
      Math.hypot(e.clientX - first.x, e.clientY - first.y) > DOUBLE_TAP_SLOP) return;
    this.feltTap = null;
    // The click after this tap is aimed once the board has moved, at whatever tile is
    // now under the finger: it is swallowed like a pan's (watchPointers).
    this.dragged = true;
    if (this.zoom > 1.001) this.setZoom(1);
    else this.setZoom(Math.max(this.coverW / this.fitW, ZOOM_STEP ** 2), { x: e.clientX, y: e.clientY });
  }

  // --- playing (docs/RULES.md §Playing a board) ---------------------------------------
  activate(i) {
    if (!this.enabled) return;
    this.setFocus(i, false);
    if (!this.isFree(i)) {
      this.selected = null;
      this.onSay(`${this.faceName(this.tiles[i].face)}: ${this.whyBlocked(i)}`);
      this.refresh();
      return;
    }
    if (this.selected === null || this.selected === i) {
      this.selected = this.selected === i ? null : i;
      if (this.selected !== null) sound("select");
    } else if (this.matches(this.selected, i)) {
      const pair = [Math.min(this.selected, i), Math.max(this.selected, i)];
      this.removePair(...pair);
      this.onPair(pair);
      return;
    } else {
      this.selected = i;
      sound("wrong");
    }
    this.onSay("");
    this.refresh();
  }

  removePair(i, j) {
    // The lift starts first, in the tap's own task: the rest can wait a few µs.
    for (const k of [i, j]) this.animateLeaving(k);
    this.measureTap();
    sound("pair");
    this.selected = null;
    this.alive[i] = this.alive[j] = false;
    this.onSay("");
    this.refresh();
  }

  animateLeaving(k) {
    const el = this.tiles[k].el;
    if (reducedMotion() || !el.animate) return;
    const rise = (this.tileWidth() * 0.35).toFixed(1);
    const animation = el.animate(
      [{ opacity: 1, transform: "none" }, { opacity: 0, transform: `translate(0, -${rise}px) scale(1.08)` }],
      { duration: LEAVE_MS, easing: "ease-out" },
    );
    this.leaving.set(k, animation);
    el.classList.add("leaving");
    animation.onfinish = () => {
      if (this.leaving.get(k) !== animation) return;
      this.leaving.delete(k);
      el.classList.remove("leaving");
      el.hidden = !this.alive[k];
    };
    animation.oncancel = () => el.classList.remove("leaving");
  }

  stopLeaving() {
    for (const animation of this.leaving.values()) animation.cancel();
    this.leaving.clear();
  }

  // docs/PRACTICE.md §Tap latency: pointerup to the removal's start, and to the start
  // of the first frame drawn after it.
  measureTap() {
    const start = this.tapAt;
    this.tapAt = null;
    if (start === null || performance.now() - start > TAP_FRESH_MS) return;
    try {
      this.measured = (this.measured || 0) + 1;
      if (this.measured % 1000 === 0) {
        for (const name of ["mj-input-delay", "mj-tap-to-removal", "mj-tap-to-frame"]) performance.clearMeasures(name);
      }
      performance.measure("mj-tap-to-removal", { start, end: performance.now() });
      requestAnimationFrame((frame) => performance.measure("mj-tap-to-frame", { start, end: Math.max(start, frame) }));
    } catch (error) { /* an old browser without User Timing L3 */ }
  }

  animateShuffle() {
    if (reducedMotion()) return;
    this.tiles.forEach((t, i) => {
      if (!this.alive[i] || !t.el.animate) return;
      t.el.animate(
        [{ transform: "rotateY(90deg) scale(.85)", opacity: 0.4 }, { transform: "none", opacity: 1 }],
        { duration: 260, delay: (i % 24) * 9, easing: "ease-out", fill: "backwards" },
      );
    });
  }

  // A short win: tiles and confetti of our own drawing rain over the wrap (CSS only).
  celebrate() {
    if (reducedMotion()) return;
    const layer = document.createElement("div");
    layer.className = "celebration";
    layer.setAttribute("aria-hidden", "true");
    for (let n = 0; n < 36; n++) {
      const piece = document.createElement("i");
      piece.className = n % 3 ? "confetti" : "mini-tile";
      piece.style.setProperty("--i", n);
      piece.style.setProperty("--left", `${(n * 37) % 100}%`);
      piece.style.setProperty("--drift", `${((n * 53) % 120) - 60}px`);
      layer.append(piece);
    }
    this.wrapEl.append(layer);
    setTimeout(() => layer.remove(), 2600);
  }

  clearSelection() {
    if (this.selected === null) return;
    this.selected = null;
    this.refresh();
  }

  highlight(pair, ms = 2500) {
    this.clearHints();
    this.selected = null;
    this.refresh();
    for (const k of pair) this.tiles[k].el.classList.add("hinted");
    this.hintTimers.push(setTimeout(() => this.clearHints(), ms));
    this.setFocus(pair[0]);
  }

  clearHints() {
    for (const timer of this.hintTimers) clearTimeout(timer);
    this.hintTimers = [];
    for (const el of this.boardEl.querySelectorAll(".tile.hinted")) el.classList.remove("hinted");
  }

  sayOpenPairs() {
    const n = this.openPairs();
    const text = n === 0 ? this.t("pairs_open_none") : n === 1 ? this.t("pairs_open_one") : this.t("pairs_open_many");
    this.onSay(text.replace("{n}", n));
  }

  // Arrow keys: the nearest free tile in that direction.
  moveFocus(dx, dy) {
    if (this.focusIndex === null) { this.setFocus(this.firstFree()); return; }
    const from = this.tiles[this.focusIndex];
    let best = null;
    let bestScore = Infinity;
    this.tiles.forEach((t, i) => {
      if (i === this.focusIndex || !this.isFree(i)) return;
      const along = (t.x - from.x) * dx + (t.y - from.y) * dy;
      if (along <= 0) return;
      const score = along + 2 * (Math.abs((t.x - from.x) * dy) + Math.abs((t.y - from.y) * dx));
      if (score < bestScore) { bestScore = score; best = i; }
    });
    if (best !== null) this.setFocus(best);
  }

  // The board's own keys (listed in the help); a page's keys come first.
  keyAction(key) {
    const actions = {
      escape: () => this.clearSelection(),
      "?": () => this.showHelp(),
      c: () => this.sayOpenPairs(),
      "+": () => this.zoomBy(ZOOM_STEP),
      "=": () => this.zoomBy(ZOOM_STEP),
      "-": () => this.zoomBy(1 / ZOOM_STEP),
      0: () => this.setZoom(1),
    };
    return actions[key];
  }

  // `?`: a short keyboard help, built here from the board's strings.
  showHelp() {
    const page = [["h", "help_hint", "H"], ["u", "help_undo", "U"], ["p", "help_pause", "P"]];
    const rows = [
      ["← ↑ → ↓", this.t("help_arrows")],
      [this.t("key_enter"), this.t("help_select")],
      [this.t("key_escape"), this.t("help_escape")],
      ["C", this.t("help_pairs")],
      ["+ − 0", this.t("help_zoom")],
      ...page.filter(([key]) => this.pageKeys[key]).map(([, text, shown]) => [shown, this.t(text)]),
      ["?", this.t("help_help")],
    ];
    if (this.helpDialog) this.helpDialog.remove();
    const dialog = document.createElement("dialog");
    dialog.className = "board-help";
    dialog.id = "board-help";
    dialog.setAttribute("aria-labelledby", "board-help-title");
    const title = document.createElement("h2");
    title.id = "board-help-title";
    title.textContent = this.t("help_title") || "Keyboard";
    const list = document.createElement("dl");
    for (const [keys, text] of rows) {
      const dt = document.createElement("dt");
      for (const part of keys.split(" ")) {
        const kbd = document.createElement("kbd");
        kbd.textContent = part;
        dt.append(kbd, " ");
      }
      const dd = document.createElement("dd");
      dd.textContent = text;
      list.append(dt, dd);
    }
    const form = document.createElement("form");
    form.method = "dialog";
    const close = document.createElement("button");
    close.className = "primary";
    close.textContent = this.t("help_close") || "Close";
    form.append(close);
    dialog.append(title, list, form);
    document.body.append(dialog);
    this.helpDialog = dialog;
    dialog.showModal();
    close.focus();
  }
}

// Shared by the pages: the m:ss clock, the "Numbers" tile style, arrow keys.
MahjongBoard.formatTime = formatTime;

MahjongBoard.setupTileStyle = (root, button) => {
  const apply = (style) => {
    root.classList.toggle("numbers", style === "numbers");
    button.setAttribute("aria-pressed", String(style === "numbers"));
    try { localStorage.setItem("mj-tile-style", style); } catch (e) { /* private mode */ }
  };
  button.addEventListener("click", () => apply(root.classList.contains("numbers") ? "pictures" : "numbers"));
  let saved = "pictures";
  try { saved = localStorage.getItem("mj-tile-style") || saved; } catch (e) { /* private mode */ }
  apply(saved);
};

MahjongBoard.DEPTH = DEPTH; // the replay draws boards the same way (replays/)
MahjongBoard.ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// Keys for a page: arrows move the focus; `keys` maps other keys to actions; then the
// board's own (Escape, ?, C, zoom).
MahjongBoard.listenKeys = (board, keys) => {
  board.pageKeys = keys;
  document.addEventListener("keydown", (event) => {
    if (document.querySelector("dialog[open]") || event.target.matches("input, select, textarea")) return;
    board.byPointer = false;
    const arrow = MahjongBoard.ARROWS[event.key];
    if (arrow) { board.moveFocus(...arrow); event.preventDefault(); return; }
    const ctrl = event.ctrlKey || event.metaKey;
    const name = (ctrl ? "Ctrl+" : "") + event.key.toLowerCase();
    if (event.altKey) return;
    const action = keys[name] || (!ctrl && board.keyAction(name));
    if (!action) return;
    action();
    event.preventDefault();
  });
};

export { DEPTH, MahjongBoard, formatTime };
