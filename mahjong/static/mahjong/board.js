// The solo practice board: draws the deal, plays SPEC §4 locally at once, and lets the
// server referee every action (a refused one is rolled back to the server's state).
"use strict";

(() => {
  const root = document.getElementById("play");
  const boardEl = document.getElementById("board");
  const wrapEl = document.getElementById("board-wrap");
  const T = JSON.parse(document.getElementById("strings").textContent);
  const csrf = document.querySelector("meta[name=csrf-token]").content;
  const $ = (id) => document.getElementById(id);

  let game = null;          // the server's last state
  let tiles = [];           // [{x, y, z, face, el}]
  let links = [];           // per tile: {covers: [], left: [], right: []}
  let alive = [];           // booleans
  let removed = [];         // stack of [i, j], as the player sees it
  let selected = null;
  let focusIndex = null;
  let clock = { base: 0, since: null };
  let queue = Promise.resolve();  // server calls, strictly in order

  // --- rules, mirrored from the engine for instant feedback ------------------------
  function matchClass(face) {
    if (/^F\d$/.test(face)) return "flower";
    if (/^S\d$/.test(face)) return "season";
    return face;
  }

  function buildLinks() {
    const at = new Map();
    const key = (x, y, z) => `${x},${y},${z}`;
    tiles.forEach((t, i) => {
      for (const dx of [0, 1]) for (const dy of [0, 1]) at.set(key(t.x + dx, t.y + dy, t.z), i);
    });
    const maxZ = Math.max(...tiles.map((t) => t.z));
    links = tiles.map((t) => {
      const found = (cells) => [...new Set(cells.map((c) => at.get(key(...c))).filter((i) => i !== undefined))];
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

  const live = (list) => list.filter((i) => alive[i]);
  function isFree(i) {
    const l = links[i];
    return alive[i] && !live(l.covers).length && (!live(l.left).length || !live(l.right).length);
  }
  function whyBlocked(i) {
    const l = links[i];
    const parts = [];
    const covering = live(l.covers).length;
    if (covering) parts.push((covering === 1 ? T.covered_one : T.covered_many).replace("{n}", covering));
    if (live(l.left).length && live(l.right).length) parts.push(T.both_sides);
    return parts.join(T.and);
  }
  function isBlocked() {
    const seen = new Set();
    for (let i = 0; i < tiles.length; i++) {
      if (!isFree(i)) continue;
      const c = matchClass(tiles[i].face);
      if (seen.has(c)) return false;
      seen.add(c);
    }
    return alive.some(Boolean);
  }
  const aliveCount = () => alive.filter(Boolean).length;

  // --- drawing ----------------------------------------------------------------------
  function faceName(face) {
    return T.faces[face] || face;
  }

  function tileElement(t, i, minX, minY) {
    const el = document.createElement("button");
    el.type = "button";
    el.className = "tile";
    el.tabIndex = -1;
    Object.assign(el.dataset, { x: t.x, y: t.y, z: t.z, face: t.face, index: i });
    el.style.setProperty("--x", t.x - minX);
    el.style.setProperty("--y", t.y - minY);
    el.style.setProperty("--z", t.z);
    el.style.zIndex = String(t.z * 1000 + t.y * 30 + t.x);
    const svgNS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(svgNS, "svg");
    svg.setAttribute("viewBox", "0 0 60 80");
    svg.setAttribute("class", "pic");
    svg.setAttribute("aria-hidden", "true");
    const use = document.createElementNS(svgNS, "use");
    use.setAttribute("href", `${root.dataset.sprite}#tile-${t.face}`);
    svg.append(use);
    const label = document.createElement("span");
    label.className = "label";
    label.setAttribute("aria-hidden", "true");
    label.textContent = t.face;
    el.append(svg, label);
    el.addEventListener("click", () => activate(i));
    return el;
  }

  function draw(state) {
    game = state;
    tiles = state.tiles.map((t) => ({ ...t }));
    buildLinks();
    const minX = Math.min(...tiles.map((t) => t.x));
    const minY = Math.min(...tiles.map((t) => t.y));
    const cols = Math.max(...tiles.map((t) => t.x)) + 2 - minX;
    const rows = Math.max(...tiles.map((t) => t.y)) + 2 - minY;
    const layers = Math.max(...tiles.map((t) => t.z)) + 1;
    boardEl.style.setProperty("--cols", cols);
    boardEl.style.setProperty("--rows", rows);
    boardEl.style.setProperty("--layers", layers);
    boardEl.replaceChildren(...tiles.map((t, i) => (t.el = tileElement(t, i, minX, minY))));
    selected = null;
    focusIndex = null;
    applyState(state);
    fit();
    $("code").textContent = state.code;
    document.title = `${state.layout.label} · ${state.code}`;
  }

  // Bring the board to the server's state (after a draw, a refusal, an undo).
  function applyState(state) {
    game = state;
    alive = tiles.map(() => true);
    removed = state.removed.map((pair) => [...pair]);
    for (const [i, j] of removed) alive[i] = alive[j] = false;
    if (selected !== null && !alive[selected]) selected = null;
    clock = { base: state.clock_ms, since: state.status === "playing" && !state.paused ? performance.now() : null };
    $("hints-used").textContent = state.hints_used;
    setPaused(state.paused);
    refresh();
  }

  function refresh() {
    tiles.forEach((t, i) => {
      const free = isFree(i);
      t.el.hidden = !alive[i];
      t.el.dataset.free = String(free);
      t.el.classList.toggle("selected", i === selected);
      t.el.setAttribute("aria-label", `${faceName(t.face)}, ${free ? T.free : T.blocked}`);
      t.el.setAttribute("aria-pressed", String(i === selected));
    });
    if (focusIndex === null || !isFree(focusIndex)) setFocus(firstFree(), false);
    const total = tiles.length;
    $("progress").textContent = `${Math.floor(((total - aliveCount()) * 100) / total)}%`;
    $("undo").disabled = removed.length === 0;
  }

  function firstFree() {
    let best = null;
    tiles.forEach((t, i) => {
      if (isFree(i) && (best === null || t.y < tiles[best].y || (t.y === tiles[best].y && t.x < tiles[best].x))) best = i;
    });
    return best;
  }

  function setFocus(i, move = true) {
    if (focusIndex !== null && tiles[focusIndex]) tiles[focusIndex].el.tabIndex = -1;
    focusIndex = i;
    if (i === null) return;
    tiles[i].el.tabIndex = 0;
    if (move) tiles[i].el.focus();
  }

  // Size the tiles to the room there is: every tile on screen, none wider than 80 px.
  function fit() {
    const cols = Number(boardEl.style.getPropertyValue("--cols"));
    const rows = Number(boardEl.style.getPropertyValue("--rows"));
    const layers = Number(boardEl.style.getPropertyValue("--layers"));
    const depth = 0.12;
    const width = wrapEl.clientWidth - 4;
    const height = Math.max(240, window.innerHeight - wrapEl.getBoundingClientRect().top - 12);
    const byWidth = width / (cols / 2 + depth * layers + 0.1);
    const byHeight = height / ((rows / 2) * (4 / 3) + depth * layers + 0.1);
    const w = Math.max(16, Math.min(80, byWidth, byHeight));
    boardEl.style.setProperty("--w", `${w.toFixed(2)}px`);
  }

  // --- playing (SPEC §4) --------------------------------------------------------------
  function activate(i) {
    if (!game || game.status !== "playing" || game.paused) return;
    setFocus(i, false);
    if (!isFree(i)) {
      selected = null;
      say(`${faceName(tiles[i].face)}: ${whyBlocked(i)}`);
      refresh();
      return;
    }
    if (selected === null || selected === i) {
      selected = selected === i ? null : i;
    } else if (matchClass(tiles[selected].face) === matchClass(tiles[i].face)) {
      removePair(selected, i);
      return;
    } else {
      selected = i;
    }
    say("");
    refresh();
  }

  function removePair(i, j) {
    const pair = [Math.min(i, j), Math.max(i, j)];
    const n = removed.length;
    selected = null;
    alive[i] = alive[j] = false;
    removed.push(pair);
    for (const k of pair) tiles[k].el.classList.add("leaving");
    setTimeout(() => { for (const k of pair) tiles[k].el.classList.remove("leaving"); refresh(); }, 180);
    say("");
    refresh();
    send("move", { game: game.id, tiles: pair, n }).then((state) => {
      if (!state) return;
      game = state;
      if (state.status === "won") showWon(state.result);
    });
    if (aliveCount() > 0 && isBlocked()) setTimeout(() => $("blocked-dialog").showModal(), 250);
  }

  // Server calls run one after another; a refusal resyncs the board with its reason.
  function send(action, body) {
    const call = async () => {
      let response;
      try {
        response = await fetch(`${root.dataset.api}${action}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
          body: JSON.stringify(body),
          keepalive: action === "pause",
        });
      } catch (error) {
        say(T.offline);
        return null;
      }
      const answer = await response.json().catch(() => ({ error: T.offline }));
      if (!response.ok) {
        say(answer.error);
        if (answer.state) applyState(answer.state);
        return null;
      }
      return answer;
    };
    queue = queue.then(call, call);
    return queue;
  }

  function undo() {
    if (!game || !removed.length || game.paused || game.status !== "playing") return;
    $("blocked-dialog").close();
    send("undo", { game: game.id, n: removed.length }).then((state) => state && applyState(state));
  }

  function hint() {
    if (!game || game.paused || game.status !== "playing") return;
    send("hint", { game: game.id }).then((answer) => {
      if (!answer) return;
      $("hints-used").textContent = answer.state.hints_used;
      game = answer.state;
      if (!answer.pair) { say(T.no_moves); return; }
      selected = null;
      refresh();
      for (const k of answer.pair) {
        tiles[k].el.classList.add("hinted");
        setTimeout(() => tiles[k].el.classList.remove("hinted"), 2500);
      }
      setFocus(answer.pair[0]);
      say(answer.winning ? T.hint_winning : T.hint_playable);
    });
  }

  function setPaused(paused) {
    root.classList.toggle("paused", paused);
    $("paused-cover").hidden = !paused;
    $("pause").setAttribute("aria-pressed", String(paused));
    $("pause").textContent = paused ? T.resume : T.pause;
  }

  function togglePause() {
    if (!game || game.status !== "playing") return;
    const action = game.paused ? "resume" : "pause";
    setPaused(!game.paused);
    send(action, { game: game.id }).then((state) => state && applyState(state));
  }

  function newGame(body) {
    return send("new", body).then((state) => {
      if (!state) return false;
      draw(state);
      history.replaceState(null, "", `${root.dataset.playUrl}${state.code}/`);
      say("");
      return true;
    });
  }

  function showWon(result) {
    $("won-time").textContent = formatTime(result.time_ms);
    $("won-hints").textContent = result.hints_used;
    $("won-record").textContent = result.record
      ? T.new_record
      : T.your_record.replace("{time}", formatTime(result.previous_best_ms));
    $("won-dialog").showModal();
  }

  // --- clock, messages, keyboard --------------------------------------------------------
  function formatTime(ms) {
    const s = Math.floor(ms / 1000);
    const h = Math.floor(s / 3600);
    const mm = String(Math.floor((s % 3600) / 60));
    const ss = String(s % 60).padStart(2, "0");
    return h ? `${h}:${mm.padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
  }
  function tick() {
    if (!game) return;
    const running = clock.since !== null && game.status === "playing" && !game.paused;
    const ms = game.status === "won" ? game.result.time_ms : clock.base + (running ? performance.now() - clock.since : 0);
    $("clock").textContent = formatTime(ms);
  }
  function say(text) {
    $("message").textContent = text || "";
  }

  function nearestFree(dx, dy) {
    if (focusIndex === null) return firstFree();
    const from = tiles[focusIndex];
    let best = null;
    let bestScore = Infinity;
    tiles.forEach((t, i) => {
      if (i === focusIndex || !isFree(i)) return;
      const along = (t.x - from.x) * dx + (t.y - from.y) * dy;
      if (along <= 0) return;
      const across = Math.abs((t.x - from.x) * dy) + Math.abs((t.y - from.y) * dx);
      const score = along + 2 * across;
      if (score < bestScore) { bestScore = score; best = i; }
    });
    return best;
  }

  const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  document.addEventListener("keydown", (event) => {
    if (document.querySelector("dialog[open]") || event.target.matches("input, select, textarea")) return;
    const key = event.key;
    if (ARROWS[key]) {
      const next = nearestFree(...ARROWS[key]);
      if (next !== null) setFocus(next);
      event.preventDefault();
    } else if ((key === "z" || key === "Z") && (event.ctrlKey || event.metaKey)) {
      undo();
      event.preventDefault();
    } else if (event.ctrlKey || event.metaKey || event.altKey) {
      return;
    } else if (key === "h" || key === "H") {
      hint();
    } else if (key === "u" || key === "U") {
      undo();
    } else if (key === "p" || key === "P") {
      togglePause();
    }
  });

  // --- wiring ---------------------------------------------------------------------------
  function setTileStyle(style) {
    root.classList.toggle("numbers", style === "numbers");
    $("tile-style").setAttribute("aria-pressed", String(style === "numbers"));
    try { localStorage.setItem("mj-tile-style", style); } catch (e) { /* private mode */ }
  }

  $("hint").addEventListener("click", hint);
  $("undo").addEventListener("click", undo);
  $("pause").addEventListener("click", togglePause);
  $("resume").addEventListener("click", togglePause);
  $("tile-style").addEventListener("click", () =>
    setTileStyle(root.classList.contains("numbers") ? "pictures" : "numbers"));
  $("new-game").addEventListener("click", () => {
    $("code-error").textContent = "";
    $("new-game-dialog").showModal();
  });
  $("blocked-undo").addEventListener("click", undo);
  $("blocked-new").addEventListener("click", () => { $("blocked-dialog").close(); $("new-game").click(); });
  $("won-new").addEventListener("click", () => { $("won-dialog").close(); $("new-game").click(); });
  $("new-game-form").addEventListener("submit", (event) => {
    const button = event.submitter;
    if (!button || button.value === "cancel") return;
    event.preventDefault();
    let body;
    if (button.name === "level") body = { level: button.value, flowers: $("flowers").checked };
    else if (button.name === "layout") body = { layout: $("layout-choice").value };
    else body = { code: $("code-input").value };
    newGame(body).then((started) => {
      if (started) $("new-game-dialog").close();
      else $("code-error").textContent = $("message").textContent;
    });
  });
  document.addEventListener("visibilitychange", () => {
    if (document.hidden && game && game.status === "playing" && !game.paused) togglePause();
  });
  window.addEventListener("resize", fit);

  try { setTileStyle(localStorage.getItem("mj-tile-style") || "pictures"); } catch (e) { setTileStyle("pictures"); }
  const initialMessage = $("message").textContent;
  draw(JSON.parse(document.getElementById("game-state").textContent));
  say(initialMessage);
  if (game.status === "won") showWon(game.result);
  setInterval(tick, 250);
  tick();
})();
