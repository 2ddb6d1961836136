// "Learn on the board": a small fixed board (pages/views.py) played on the real
// board component, with no server game. Each step waits for one action; the step
// reached is kept in localStorage, so a reload resumes it.
import { MahjongBoard } from "../mahjong/board.js";
import { pageStrings, say as sayIn } from "../mahjong/ui.js";

const $ = (id) => document.getElementById(id);
const T = pageStrings();
const TILES = JSON.parse($("tutorial-tiles").textContent);
const KEY = "mj-learn-step";
// `pair`: the pair the step waits for; `tap`: a blocked tile; `button`: Hint or Shuffle.
const STEPS = [
  { name: "blocked", tap: true },
  { name: "why", pair: [0, 2] },
  { name: "pair", pair: [1, 4] },
  { name: "flowers", pair: [5, 6] },
  { name: "seasons", pair: [7, 8] },
  { name: "hint", button: "hint" },
  { name: "hinted", pair: [3, 9] },
  { name: "shuffle", button: "shuffle" },
  { name: "finish", clear: true },
  { name: "done" },
];
const HINT_PAIR = [3, 9];
const SHUFFLED = { 12: "2B", 13: "7C" }; // the shuffle swaps these two faces: ends match
let step = 0;

const board = new MahjongBoard($("board"), $("board-wrap"), {
  sprite: $("learn").dataset.sprite, strings: T, onPair, onSay: (text) => say(text),
});

// Info by default: the board's explanations and counts are news, not faults (site.css).
const say = (text, kind = "info") => sayIn(text, kind, $("message"));

function save() { try { localStorage.setItem(KEY, String(step)); } catch (e) { /* private mode */ } }

function saved() {
  let value = 0;
  try { value = Number(localStorage.getItem(KEY)) || 0; } catch (e) { /* private mode */ }
  return Math.min(Math.max(value, 0), STEPS.length - 1);
}

// The board as it stands when step `n` begins: the pairs of the steps before it gone.
function tilesAt(n) {
  const shuffled = n > STEPS.findIndex((s) => s.button === "shuffle");
  return TILES.map((t, i) => ({ ...t, face: (shuffled && SHUFFLED[i]) || t.face }));
}

function aliveAt(n) {
  const gone = new Set(STEPS.slice(0, n).flatMap((s) => s.pair || []));
  if (n === STEPS.length - 1) return [];
  return TILES.map((_, i) => i).filter((i) => !gone.has(i));
}

function show(n) {
  step = n;
  save();
  const current = STEPS[n];
  const last = n === STEPS.length - 1;
  $("step-count").textContent = last ? "" : T.step_of.replace("{n}", n + 1).replace("{total}", STEPS.length - 1);
  $("step-text").textContent = T.steps[current.name];
  $("learn").dataset.step = current.name;
  $("hint").disabled = current.button !== "hint";
  $("shuffle").disabled = current.button !== "shuffle";
  $("skip").hidden = last;
  $("finished").hidden = !last;
  board.enabled = !last;
}

function start(n) {
  board.load(tilesAt(n), aliveAt(n));
  say("");
  show(n);
}

function onPair(pair) {
  const current = STEPS[step];
  const expected = current.pair && current.pair.join() === pair.join();
  if (current.clear || expected) {
    if (current.clear && board.aliveCount() > 0) return;
    show(step + 1);
    return;
  }
  board.setAlive(board.alive.map((a, i) => a || pair.includes(i)).flatMap((a, i) => (a ? [i] : [])));
  say(T.wrong, "error");
}

// Tapping a blocked tile: the board explains why (onSay); the first step waits for it.
$("board").addEventListener("click", (event) => {
  const tile = event.target.closest(".tile");
  if (tile && STEPS[step].tap && !board.isFree(Number(tile.dataset.index))) show(step + 1);
});

$("hint").addEventListener("click", () => {
  board.highlight(HINT_PAIR, 4000);
  show(step + 1);
});

$("shuffle").addEventListener("click", () => {
  const next = step + 1;
  board.setFaces(tilesAt(next), aliveAt(next));
  say("");
  show(next);
});

$("restart").addEventListener("click", () => start(0));
$("skip").addEventListener("click", () => start(STEPS.length - 1));

MahjongBoard.setupTileStyle($("learn"), $("tile-style"));
MahjongBoard.listenKeys(board, {}); // arrow keys move between free tiles
start(saved());
