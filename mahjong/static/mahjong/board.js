// The board component: draws a layout of tiles, mirrors the engine's rules (freeness,
// matching) for instant feedback, and handles selection and keyboard focus
// (docs/RULES.md §Playing a board).
// It never decides a move: it reports a chosen pair through `onPair`, and the page's
// controller asks the server, which is the referee.
"use strict";

(() => {
  const SVG_NS = "http://www.w3.org/2000/svg";
  const DEPTH = 0.12; // a layer's offset, in tile widths

  function matchClass(face) {
    if (/^F\d$/.test(face)) return "flower";
    if (/^S\d$/.test(face)) return "season";
    return face;
  }

  class MahjongBoard {
    constructor(boardEl, wrapEl, { sprite, strings, onPair = () => {}, onSay = () => {} }) {
      Object.assign(this, { boardEl, wrapEl, sprite, T: strings, onPair, onSay });
      this.tiles = [];
      this.alive = [];
      this.selected = null;
      this.focusIndex = null;
      this.enabled = true;
      window.addEventListener("resize", () => this.fit());
    }

    // --- rules ------------------------------------------------------------------------
    buildLinks() {
      const at = new Map();
      const key = (x, y, z) => `${x},${y},${z}`;
      this.tiles.forEach((t, i) => {
        for (const dx of [0, 1]) for (const dy of [0, 1]) at.set(key(t.x + dx, t.y + dy, t.z), i);
      });
      const maxZ = Math.max(...this.tiles.map((t) => t.z));
      const found = (cells) => [...new Set(cells.map((c) => at.get(key(...c))).filter((i) => i !== undefined))];
      this.links = this.tiles.map((t) => {
        const above = [];
        for (let z = t.z + 1; z <= maxZ; z++) {
          for (const dx of [0, 1]) for (const dy of [0, 1]) above.push([t.x + dx, t.y + dy, z]);
        }
        return {
          covers: found(above),
          left: found([[t.x - 1, t.y, t.z], [t.x - 1, t.y + 1, t.z]]),
          right: found([[t.x + 2, t.y, t.z], [t.x + 2, t.y + 1, t.z]]),
        };
      });
    }

    live(list) { return list.filter((i) => this.alive[i]); }

    isFree(i) {
      const l = this.links[i];
      return this.alive[i] && !this.live(l.covers).length &&
        (!this.live(l.left).length || !this.live(l.right).length);
    }

    whyBlocked(i) {
      const l = this.links[i];
      const parts = [];
      const covering = this.live(l.covers).length;
      if (covering) parts.push((covering === 1 ? this.T.covered_one : this.T.covered_many).replace("{n}", covering));
      if (this.live(l.left).length && this.live(l.right).length) parts.push(this.T.both_sides);
      return parts.join(this.T.and);
    }

    matches(i, j) {
      const a = this.tiles[i].face;
      const b = this.tiles[j].face;
      return Boolean(a && b) && matchClass(a) === matchClass(b);
    }

    isBlocked() {
      const seen = new Set();
      for (let i = 0; i < this.tiles.length; i++) {
        if (!this.isFree(i) || !this.tiles[i].face) continue;
        const c = matchClass(this.tiles[i].face);
        if (seen.has(c)) return false;
        seen.add(c);
      }
      return this.aliveCount() > 0;
    }

    aliveCount() { return this.alive.filter(Boolean).length; }
    removedCount() { return this.tiles.length - this.aliveCount(); }
    progress() { return Math.floor((this.removedCount() * 100) / this.tiles.length); }

    // --- drawing ----------------------------------------------------------------------
    faceName(face) { return face ? this.T.faces[face] || face : this.T.face_down; }

    // `tiles`: [{x, y, z, face?}] (no face: drawn face down); `alive`: indices or null.
    load(tiles, alive = null) {
      this.tiles = tiles.map((t) => ({ ...t }));
      this.buildLinks();
      const xs = this.tiles.map((t) => t.x);
      const ys = this.tiles.map((t) => t.y);
      const minX = Math.min(...xs);
      const minY = Math.min(...ys);
      this.cols = Math.max(...xs) + 2 - minX;
      this.rows = Math.max(...ys) + 2 - minY;
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
      el.addEventListener("click", () => this.activate(i));
      return el;
    }

    paintFace(t, el = t.el) {
      if (t.face) el.dataset.face = t.face; else delete el.dataset.face;
      el.classList.toggle("face-down", !t.face);
      el.querySelector("use").setAttribute("href", t.face ? `${this.sprite}#tile-${t.face}` : "");
      el.querySelector(".label").textContent = t.face || "";
    }

    // Faces arrive at "go" and after a shuffle; places change only in a rare shuffle.
    setFaces(tiles, alive) {
      const moved = tiles.some((t, i) => t.x !== this.tiles[i].x || t.y !== this.tiles[i].y || t.z !== this.tiles[i].z);
      if (moved) { this.load(tiles, alive); return; }
      tiles.forEach((t, i) => { this.tiles[i].face = t.face; this.paintFace(this.tiles[i]); });
      this.setAlive(alive);
    }

    setAlive(alive) {
      const set = alive ? new Set(alive) : null;
      this.alive = this.tiles.map((_, i) => (set ? set.has(i) : true));
      if (this.selected !== null && !this.alive[this.selected]) this.selected = null;
      this.refresh();
    }

    refresh() {
      this.tiles.forEach((t, i) => {
        const free = this.isFree(i);
        t.el.hidden = !this.alive[i];
        t.el.dataset.free = String(free);
        t.el.classList.toggle("selected", i === this.selected);
        t.el.setAttribute("aria-label", `${this.faceName(t.face)}, ${free ? this.T.free : this.T.blocked}`);
        t.el.setAttribute("aria-pressed", String(i === this.selected));
      });
      if (this.focusIndex === null || !this.isFree(this.focusIndex)) this.setFocus(this.firstFree(), false);
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

    setFocus(i, move = true) {
      if (this.focusIndex !== null && this.tiles[this.focusIndex]) this.tiles[this.focusIndex].el.tabIndex = -1;
      this.focusIndex = i;
      if (i === null) return;
      this.tiles[i].el.tabIndex = 0;
      if (move) this.tiles[i].el.focus();
    }

    // Size tiles to the room there is: the whole board on screen, tiles at most 80 px.
    fit() {
      if (!this.tiles.length) return;
      const width = this.wrapEl.clientWidth - 4;
      const height = Math.max(240, window.innerHeight - this.wrapEl.getBoundingClientRect().top - 12);
      const byWidth = width / (this.cols / 2 + DEPTH * this.layers + 0.1);
      const byHeight = height / ((this.rows / 2) * (4 / 3) + DEPTH * this.layers + 0.1);
      const w = Math.max(16, Math.min(80, byWidth, byHeight));
      this.boardEl.style.setProperty("--w", `${w.toFixed(2)}px`);
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
      } else if (this.matches(this.selected, i)) {
        const pair = [Math.min(this.selected, i), Math.max(this.selected, i)];
        this.removePair(...pair);
        this.onPair(pair);
        return;
      } else {
        this.selected = i;
      }
      this.onSay("");
      this.refresh();
    }

    removePair(i, j) {
      this.selected = null;
      this.alive[i] = this.alive[j] = false;
      for (const k of [i, j]) this.tiles[k].el.classList.add("leaving");
      setTimeout(() => {
        for (const k of [i, j]) this.tiles[k].el.classList.remove("leaving");
        this.refresh();
      }, 180);
      this.onSay("");
      this.refresh();
    }

    highlight(pair, ms = 2500) {
      this.selected = null;
      this.refresh();
      for (const k of pair) {
        this.tiles[k].el.classList.add("hinted");
        setTimeout(() => this.tiles[k].el.classList.remove("hinted"), ms);
      }
      this.setFocus(pair[0]);
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
  }

  // Shared by the pages: the m:ss clock, the "Numbers" tile style, arrow keys.
  MahjongBoard.formatTime = (ms) => {
    const s = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(s / 3600);
    const mm = String(Math.floor((s % 3600) / 60));
    const ss = String(s % 60).padStart(2, "0");
    return h ? `${h}:${mm.padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
  };

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

  MahjongBoard.ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  // Keys for a page: arrows move the focus; `keys` maps other keys to actions.
  MahjongBoard.listenKeys = (board, keys) => {
    document.addEventListener("keydown", (event) => {
      if (document.querySelector("dialog[open]") || event.target.matches("input, select, textarea")) return;
      const arrow = MahjongBoard.ARROWS[event.key];
      if (arrow) { board.moveFocus(...arrow); event.preventDefault(); return; }
      const ctrl = event.ctrlKey || event.metaKey;
      const name = (ctrl ? "Ctrl+" : "") + event.key.toLowerCase();
      if (event.altKey || !keys[name]) return;
      keys[name]();
      event.preventDefault();
    });
  };

  window.MahjongBoard = MahjongBoard;
})();
