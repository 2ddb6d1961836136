// A replay (docs/ARCHITECTURE.md §Replays): every board of a finished race — or the one
// board of a practice game — redrawn from the timed moves the server rebuilt with the
// engine. Nothing here judges a move: the page only plays back what the referee accepted.
import { DEPTH, formatTime } from "../mahjong/board.js"; // DEPTH: a layer's offset in tile widths, as played
import { pageStrings } from "../mahjong/ui.js";
import { spriteUrl } from "../mahjong/tileset.js";

const $ = (id) => document.getElementById(id);
const root = $("replay");
const data = JSON.parse($("replay-data").textContent);
const T = pageStrings();
const fmt = formatTime;
let focused = null; // the board shown large (on a phone: the one shown)
const length = Math.max((data.race || data.game).length_ms || 0, ...data.players.map((p) => p.ended_ms || 0));
const boards = data.players.map(makeBoard);
// Every moment something happened, for stepping one move back or forward.
const moments = [...new Set(data.players.flatMap((p) => p.events.map((e) => e[0])))].sort((a, b) => a - b);
let now = 0;
let speed = 1;
let playing = false;
let lastFrame = null;

// --- one board ----------------------------------------------------------------------
function makeBoard(player) {
  const deal = data.deals[player.code];
  const figure = document.createElement("figure");
  figure.className = "replay-board";
  figure.tabIndex = 0;
  figure.setAttribute("aria-label", T.board_of.replace("{name}", player.nickname));
  const caption = document.createElement("figcaption");
  const box = document.createElement("div");
  box.className = "board-box board-wrap"; // the live board's colours and themes
  const boardEl = document.createElement("div");
  boardEl.className = "board";
  box.append(boardEl);
  figure.append(caption, box);
  const board = { player, deal, figure, caption, box, boardEl, applied: 0, tiles: [], places: null };
  board.reset = () => resetBoard(board);
  board.reset();
  figure.addEventListener("click", () => focus(board));
  figure.addEventListener("keydown", (e) => { if (e.key === "Enter") focus(board); });
  $("boards").append(figure);
  return board;
}

// Back to the deal. Only the state: the tiles already drawn are repainted where they
// differ (a jump in time must fit in one frame), redrawn only if a shuffle moved them.
function resetBoard(board) {
  const redraw = board.places !== board.deal.tiles;
  board.alive = board.deal.faces.map(() => true);
  board.faces = board.deal.faces;
  board.places = board.deal.tiles;
  board.applied = 0;
  board.pairs = 0;
  board.shuffles = 0;
  if (redraw) drawTiles(board);
}

function drawTiles(board) {
  const xs = board.places.map((p) => p[0]);
  const ys = board.places.map((p) => p[1]);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  board.cols = Math.max(...xs) + 2 - minX;
  board.rows = Math.max(...ys) + 2 - minY;
  board.layers = Math.max(...board.places.map((p) => p[2])) + 1;
  const style = board.boardEl.style;
  style.setProperty("--cols", board.cols);
  style.setProperty("--rows", board.rows);
  style.setProperty("--layers", board.layers);
  board.tiles = board.places.map(([x, y, z], i) => {
    const el = document.createElement("div");
    el.className = "tile";
    el.style.setProperty("--x", x - minX);
    el.style.setProperty("--y", y - minY);
    el.style.setProperty("--z", z);
    el.style.zIndex = String(z * 1000 + y * 30 + x);
    el.innerHTML = '<svg class="pic" viewBox="0 0 60 80" aria-hidden="true"><use></use></svg>';
    paint(board, el, i);
    return el;
  });
  board.boardEl.replaceChildren(...board.tiles);
  fit(board);
}

// Touch only what changed: a face's picture costs far more than a tile's visibility.
function paint(board, el, i) {
  if (el.dataset.face !== board.faces[i]) {
    el.querySelector("use").setAttribute("href", `${spriteUrl(root.dataset.sprite)}#tile-${board.faces[i]}`);
    el.dataset.face = board.faces[i];
  }
  // Gone by opacity, not display or visibility: no layout, and no restyle of the
  // picture inside (replay.css).
  if (el.classList.contains("gone") === board.alive[i]) el.classList.toggle("gone", !board.alive[i]);
}

// Apply this board's events up to `t` (from the start again when going back).
function advance(board, t) {
  const events = board.player.events;
  if (board.applied > 0 && events[board.applied - 1][0] > t) board.reset();
  let reshuffled = false;
  while (board.applied < events.length && events[board.applied][0] <= t) {
    const e = events[board.applied++];
    if (e[1] === "pair") {
      board.alive[e[2]] = false;
      board.alive[e[3]] = false;
      board.pairs += 1;
    } else {
      board.faces = e[2];
      board.shuffles += 1;
      if (e[3]) { board.places = e[3]; drawTiles(board); }
      reshuffled = true;
    }
  }
  board.tiles.forEach((el, i) => {
    if (el.classList.contains("gone") !== board.alive[i] && el.dataset.face === board.faces[i]) return;
    paint(board, el, i);
  });
  if (reshuffled && playing) flash(board.figure);
}

function flash(figure) {
  figure.classList.remove("shuffled");
  void figure.offsetWidth; // restart the animation
  figure.classList.add("shuffled");
}

function fit(board) {
  const width = board.box.clientWidth - 4;
  // The focused board takes the height the page leaves; the others are thumbnails.
  const top = board.box.getBoundingClientRect().top + window.scrollY;
  const maxHeight = board === focused ? Math.max(200, window.innerHeight - top - 60) : 80;
  const byWidth = width / (board.cols / 2 + DEPTH * board.layers + 0.1);
  const byHeight = maxHeight / ((board.rows / 2) * (4 / 3) + DEPTH * board.layers + 0.1);
  board.boardEl.style.setProperty("--w", `${Math.max(4, Math.min(64, byWidth, byHeight)).toFixed(2)}px`);
}

// --- standings at a moment (docs/RULES.md §Races: the live order) -------------------
function statusAt(player, t) {
  if (player.status === "finished" && t >= player.finished_ms) return "finished";
  if (player.status !== "finished" && player.status !== "playing" && player.ended_ms !== null && t >= player.ended_ms) return player.status;
  return "playing";
}

function standings(t) {
  const rows = boards.map((b) => ({
    board: b,
    status: statusAt(b.player, t),
    progress: Math.floor((b.pairs * 200) / b.deal.faces.length),
  }));
  const rank = (r) => (r.status === "finished" ? 0 : r.status === "playing" ? 1 : 2);
  return rows.sort((a, b) => rank(a) - rank(b) ||
    (a.status === "finished" ? a.board.player.finished_ms - b.board.player.finished_ms : b.progress - a.progress));
}

function label(row) {
  if (row.status === "finished") return fmt(row.board.player.finished_ms);
  if (row.status === "playing") return `${row.progress}%`;
  return `${T[row.status] || row.status} · ${row.progress}%`;
}

function showStandings(rows) {
  $("replay-standings").replaceChildren(...rows.map((row) => {
    const item = document.createElement("li");
    const p = row.board.player;
    item.textContent = `${p.nickname} ${label(row)}${helped(p, now) ? ` (${T.cpu_help})` : ""}`;
    if (row.board === focused) item.classList.add("me");
    return item;
  }));
  for (const row of rows) {
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = row.board.player.nickname;
    const state = document.createElement("span");
    state.textContent = label(row);
    row.board.caption.replaceChildren(name, state);
  }
}

// A stand-in played this human's board by `t` (docs/RULES.md §Leaving): not before.
function helped(player, t) {
  return player.cpu_pairs > 0 && player.stand_in_ms !== null && t >= player.stand_in_ms;
}

// Where each stand-in took over, marked under the timeline at that moment.
function markStandIns() {
  $("timeline-marks").replaceChildren(...data.players.filter((p) => p.cpu_pairs > 0 && p.stand_in_ms !== null).map((p) => {
    const mark = document.createElement("span");
    mark.className = "cpu-mark";
    mark.style.setProperty("--at", String(length ? p.stand_in_ms / length : 0));
    mark.title = T.cpu_help_from.replace("{name}", p.nickname).replace("{time}", fmt(p.stand_in_ms));
    mark.textContent = T.cpu_mark;
    return mark;
  }));
}

// Follow the leader: once the first board is done, the first one still being played;
// the winner when the race is over.
function leader(rows, t) {
  const playing = t < length && rows.find((row) => row.status === "playing");
  return (playing || rows[0]).board;
}

// --- the moment shown ----------------------------------------------------------------
function show(t) {
  now = Math.max(0, Math.min(length, t));
  for (const board of boards) advance(board, now);
  const rows = standings(now);
  if ($("follow").checked && rows.length && leader(rows, now) !== focused) focus(leader(rows, now), false);
  showStandings(rows);
  $("timeline").value = String(Math.round(now));
  $("replay-clock").textContent = fmt(now);
}

function focus(board, byHand = true) {
  if (byHand) $("follow").checked = false;
  focused = board;
  for (const b of boards) b.figure.classList.toggle("focused", b === board);
  // The others stay in their order; the focused one moves to the large area.
  $("boards").replaceChildren(...boards.filter((b) => b !== board).map((b) => b.figure));
  $("focus-area").replaceChildren(board.figure);
  $("board-choice").value = String(boards.indexOf(board));
  boards.forEach(fit);
  show(now);
}

function setPlaying(on) {
  playing = on && now < length;
  if (on && now >= length) { show(0); playing = true; }
  $("play-pause").textContent = playing ? T.pause : T.play;
  $("play-pause").setAttribute("aria-pressed", String(playing));
  lastFrame = null;
  if (playing) requestAnimationFrame(frame);
}

function frame(stamp) {
  if (!playing) return;
  if (lastFrame !== null) show(now + (stamp - lastFrame) * speed);
  lastFrame = stamp;
  if (now >= length) { setPlaying(false); return; }
  requestAnimationFrame(frame);
}

function step(direction) {
  setPlaying(false);
  const next = direction > 0 ? moments.find((m) => m > now) : [...moments].reverse().find((m) => m < now);
  show(next === undefined ? (direction > 0 ? length : 0) : next);
}

// --- controls --------------------------------------------------------------------------
$("play-pause").addEventListener("click", () => setPlaying(!playing));
$("step-back").addEventListener("click", () => step(-1));
$("step-forward").addEventListener("click", () => step(1));
$("timeline").addEventListener("input", (e) => show(Number(e.target.value)));
$("follow").addEventListener("change", () => show(now));
for (const button of document.querySelectorAll("[data-speed]")) {
  button.addEventListener("click", () => {
    speed = Number(button.dataset.speed);
    for (const b of document.querySelectorAll("[data-speed]")) b.setAttribute("aria-pressed", String(b === button));
  });
}
data.players.forEach((p, i) => {
  const choice = new Option(p.nickname, String(i));
  $("board-choice").append(choice);
  if (p.ended_ms !== null) $("jump").append(new Option(`${p.nickname} (${fmt(p.ended_ms)})`, String(p.ended_ms)));
});
$("board-choice").addEventListener("change", (e) => focus(boards[Number(e.target.value)]));
$("jump").addEventListener("change", (e) => { if (e.target.value !== "") { setPlaying(false); show(Number(e.target.value)); } });
document.addEventListener("keydown", (event) => {
  if (event.target.matches("input:not([type=range]), select, textarea") || event.ctrlKey || event.metaKey) return;
  const keys = {
    " ": () => setPlaying(!playing),
    ArrowLeft: () => step(-1),
    ArrowRight: () => step(1),
    Home: () => { setPlaying(false); show(0); },
    End: () => { setPlaying(false); show(length); },
  };
  if (!keys[event.key]) return;
  keys[event.key]();
  event.preventDefault();
});
window.addEventListener("resize", () => boards.forEach(fit));
// One board (a practice game): nothing to follow, jump between or switch.
for (const el of document.querySelectorAll(".many-boards")) el.hidden = boards.length < 2;
root.classList.toggle("solo", boards.length < 2);
markStandIns();
focus(boards[0], false);
