// Solo practice (docs/RULES.md §Solo play): the board plays at once; every action goes to
// the server, one after another (the shared FetchQueue of ./net.js), and a refusal brings
// the board back to the server's state. An ES module.
import { formatTime, MahjongBoard } from "../mahjong/board.js";
import { FetchQueue } from "../mahjong/net.js";
import { MahjongSound } from "../mahjong/sound.js";
import { closeDialog, copyLink, openDialog, pageStrings, say as sayIn } from "../mahjong/ui.js";
import { endSentence, GhostRace, ghostLabel } from "./ghost.js";

const $ = (id) => document.getElementById(id);
const root = $("play");
const T = pageStrings();
const P = pageStrings("page-strings");
let game = null; // the server's last state (null: the link held no game)
let removed = []; // pairs removed, as the player sees them
let clock = { base: 0, since: null };

// Refusals and a lost connection are errors; a hint's word and the board's own news
// ("12 pairs open.") are information, not drawn in error red (site.css, message kinds).
const say = (text, kind = "error") => sayIn(text, kind, $("message"));
// Server calls, strictly in order; the page is marked busy while any waits. What the
// player does on the board (pairs, undos, pauses) is kept while the connection is down,
// across a reload too, and sent in order when it returns (docs/PRACTICE.md §Offline).
const KEPT_KEY = "mj-practice-kept";
const keptStore = {
  load: () => JSON.parse(localStorage.getItem(KEPT_KEY) || "[]"),
  save: (items) => {
    if (items.length) localStorage.setItem(KEPT_KEY, JSON.stringify(items));
    else localStorage.removeItem(KEPT_KEY);
  },
};
const server = new FetchQueue(root.dataset.api, {
  csrf: document.querySelector("meta[name=csrf-token]").content,
  store: keptStore,
  // Waiting for a lost network is not being busy: the board stays the player's.
  onBusy: (busy) => { if (busy && !server.offline) root.setAttribute("aria-busy", "true"); else root.removeAttribute("aria-busy"); },
  onRefused: (answer) => {
    say(refusal(answer.code));
    if (answer.state) applyState(answer.state);
  },
  onOffline: () => {
    root.removeAttribute("aria-busy");
    sayConnection(P.offline.queued, "warning");
  },
  onOnline: () => sayConnection(P.offline.sent, "success", BACK_ONLINE_MS),
});
const offline = () => server.offline || navigator.onLine === false;
// The connection's line stays above the board while it is down (a tap clears #message),
// and "Back online" for a few seconds.
const BACK_ONLINE_MS = 6000;
let connectionTimer = null;
function sayConnection(text, kind, forMs = 0) {
  const line = $("connection");
  clearTimeout(connectionTimer);
  line.textContent = text;
  line.dataset.kind = kind;
  line.hidden = false;
  if (forMs) connectionTimer = setTimeout(() => { line.hidden = true; }, forMs);
}
const board = new MahjongBoard($("board"), $("board-wrap"), {
  sprite: root.dataset.sprite, strings: T, onSay: (text) => say(text, "info"), onPair: playPair,
});

function draw(state, at) {
  root.hidden = false; // a link that held no game showed no board until now
  board.load(state.tiles);
  applyState(state, at);
  $("code").textContent = state.code;
  $("game-name").textContent = state.layout.label;
  document.title = `${state.layout.label} · ${state.code}`;
  frameDaily(state.code);
}

// The daily challenge's frame belongs to today's deal only: another game hides it.
function frameDaily(code) {
  const daily = $("daily");
  if (daily) daily.hidden = daily.dataset.code !== code;
}

// Bring the board to the server's state (after a draw, a refusal, an undo); `at` is
// when that state was true, on the performance.now() scale.
function applyState(state, at = performance.now()) {
  game = state;
  removed = state.removed.map((pair) => [...pair]);
  const gone = new Set(removed.flat());
  board.setAlive(state.tiles.map((_, i) => i).filter((i) => !gone.has(i)));
  const running = state.status === "playing" && !state.paused;
  clock = { base: state.clock_ms, since: running ? at : null };
  $("hints-used").textContent = state.hints_used;
  showOffline(state);
  setPaused(state.paused);
  showProgress();
  tick(); // the server's clock at once, not at the next beat
}

// The buttons that act on the board are enabled only when they can do something:
// not after a win (nothing left to undo into), not under the pause cover.
function showProgress() {
  $("progress").textContent = `${board.progress()}%`;
  const pairs = board.aliveCount() / 2;
  $("pairs-left").textContent = pairs === 1 ? P.pair_left : P.pairs_left.replace("{n}", pairs);
  const live = playing() && board.aliveCount() > 0;
  $("undo").disabled = !live || removed.length === 0;
  $("hint").disabled = !live;
  $("pause").disabled = !game || game.status !== "playing" || board.aliveCount() === 0;
}

// A game some of whose pairs reached the server late says it is on no table.
function showOffline(state) {
  $("offline-note").hidden = !state.played_offline;
}

function playing() { return game && game.status === "playing" && !game.paused; }

function playPair(pair) {
  const n = removed.length;
  removed.push(pair);
  showProgress();
  sendMove({ game: game.id, tiles: pair, n });
  if (board.aliveCount() > 0 && board.isBlocked()) setTimeout(() => openDialog($("blocked-dialog")), 250);
}

function sendMove(body, at) {
  send("move", body, at).then((state) => {
    if (!state) return;
    // The answer to a pair is older than a pause or resume clicked since (still queued
    // behind it): keep the player's latest choice, the server's answer to it follows.
    game = { ...state, paused: game.paused };
    showOffline(state);
    showProgress();
    if (state.status === "won") celebrate(state);
  });
}

// Kept while offline: what the player did on the board. A hint and a new game need the
// server, and are not sent while the connection is down.
const KEPT = ["move", "undo", "pause", "resume"];
function send(action, body, at) {
  return server.post(action, body, { keepalive: action === "pause", kept: KEPT.includes(action), at });
}

// The calls a page left unsent (it was reloaded or closed offline) are this game's
// moves: shown on the board and sent first, in order, with their first times. Calls of
// another game are dropped.
function sendLeftOver() {
  const left = server.restore().filter((item) => game && item.body.game === game.id);
  server.save(); // nothing kept until they are posted again below
  for (const item of left) {
    if (item.action === "move" && item.body.n === removed.length) removed.push(item.body.tiles);
    else if (item.action === "undo" && item.body.n === removed.length) removed.pop();
    else if (item.action === "move" || item.action === "undo") continue; // out of step: the server's state stands
    if (item.action === "move") sendMove(item.body, item.at);
    else send(item.action, item.body, item.at).then((state) => state && applyState(state));
  }
  if (!left.length) return;
  const gone = new Set(removed.flat());
  board.setAlive(game.tiles.map((_, i) => i).filter((i) => !gone.has(i)));
  showProgress();
  server.queue.then(() => {
    if (!server.kept.length && !server.offline) sayConnection(P.offline.sent, "success", BACK_ONLINE_MS);
  });
}

// The server's refusal in the player's words (practice.views.refusal_strings).
function refusal(code) {
  if (code === "offline") return T.offline;
  return P.errors[code] || P.errors.refused;
}

function undo() {
  if (!playing() || !removed.length) return;
  closeDialog($("blocked-dialog"));
  send("undo", { game: game.id, n: removed.length }).then((state) => state && applyState(state));
}

function hint() {
  if (!playing()) return;
  if (offline()) { sayConnection(P.offline.needs_network, "warning"); return; }
  send("hint", { game: game.id }).then((answer) => {
    if (!answer) return;
    game = answer.state;
    $("hints-used").textContent = answer.state.hints_used;
    if (!answer.pair) { say(T.no_moves, "info"); return; }
    board.highlight(answer.pair);
    say(answer.winning ? T.hint_winning : T.hint_playable, "info");
  });
}

function setPaused(paused) {
  root.classList.toggle("paused", paused);
  board.enabled = !paused;
  // Out of reach under the cover: no Tab, Enter or screen reader gets to a tile (or
  // its face's name); the focus goes to the cover's Resume.
  const inside = $("board").contains(document.activeElement);
  $("board").inert = paused;
  if (paused && inside) $("resume").focus();
  // A hint's glow would show through the cover, and it means nothing after a pause.
  if (paused) board.clearHints();
  $("paused-cover").hidden = !paused;
  // Its name stays "Pause" (a toggle's name never changes): pressed is paused.
  $("pause").setAttribute("aria-pressed", String(paused));
}

// `leaving`: the pause of a page being hidden or left (not a click).
function togglePause(leaving = false) {
  if (!game || game.status !== "playing") return;
  const action = game.paused ? "resume" : "pause";
  // The clock stops under the cover at once; the server's answer then sets it exactly.
  if (action === "pause") clock = { base: clockMs(), since: null };
  game.paused = !game.paused;
  setPaused(game.paused);
  showProgress();
  // The pause of a page being left names it: if a newer page (a reload) has the game by
  // the time it arrives, the server ignores it (docs/PRACTICE.md §The server is the
  // referee). A click on Pause, in any tab, always pauses.
  const body = leaving === true ? { game: game.id, page: game.page } : { game: game.id };
  send(action, body).then((state) => state && applyState(state));
}

function newGame(body) {
  if (offline()) {
    sayConnection(P.offline.needs_network, "warning");
    return Promise.resolve(false);
  }
  return send("new", body).then((state) => {
    if (!state) return false;
    const noGame = $("no-game");
    if (noGame) noGame.remove();
    draw(state);
    history.replaceState(null, "", `${root.dataset.playUrl}${state.code}/`);
    say("");
    return true;
  });
}

// --- the win ----------------------------------------------------------------------------
function celebrate(state) {
  board.celebrate();
  MahjongSound.play("win");
  showWon(state);
}

function shareLink(code) {
  return new URL(`${root.dataset.playUrl}${code}/`, location.href).href;
}

function showWon(state) {
  const result = state.result;
  $("won-time").textContent = formatTime(result.time_ms);
  // One record line: a new record says so alone; another clean win its place and the
  // record to beat; a win that is practice only why (its rank text).
  $("won-rank").textContent = result.record ? "" : `— ${result.rank_text}`;
  $("won-hints").textContent = result.hints_used;
  let record = "";
  if (result.record) record = T.new_record;
  else if (result.clean && result.previous_best_ms !== null) {
    record = T.your_record.replace("{time}", formatTime(result.previous_best_ms));
  }
  $("won-record").textContent = record;
  $("won-record").hidden = !record;
  $("won-daily").hidden = !result.daily;
  if (result.daily) {
    $("won-place").textContent = result.daily.place_text;
    $("won-streak").textContent = result.daily.streak_text;
  }
  $("won-code").textContent = state.code;
  $("won-link").value = shareLink(state.code);
  $("won-copied").textContent = "";
  $("won-watch").href = root.dataset.replayUrl.replace("/0/", `/${state.id}/`);
  $("won-ghost").href = root.dataset.replayUrl.replace("/0/", `/${state.id}/ghost/`);
  const ghostEnd = racingGhost() ? endSentence(P, ghostData, result.time_ms, lang) : "";
  $("won-ghost-end").textContent = ghostEnd;
  $("won-ghost-end").hidden = !ghostEnd;
  openDialog($("won-dialog"), $("won-again"));
}

function fromWon(body) {
  return () => newGame(body).then((started) => { if (started) closeDialog($("won-dialog")); });
}

// A phone's own share sheet, where there is one (the link to copy stays beside it).
function shareDeal() {
  navigator.share({ title: document.title, url: $("won-link").value }).catch(() => {});
}

function clockMs() {
  if (game.status === "won") return game.result.time_ms;
  const running = clock.since !== null && playing();
  return clock.base + (running ? performance.now() - clock.since : 0);
}

function tick() {
  if (game) $("clock").textContent = formatTime(clockMs());
  showGhost();
}

// --- a ghost race (docs/RULES.md §Ghost races; ./ghost.js) ----------------------------
const ghostData = JSON.parse($("ghost-data").textContent);
const ghostRace = ghostData && new GhostRace(ghostData, { now: () => (game ? clockMs() : 0) });
const lang = document.documentElement.lang || "en";

// The race is this page's game only: a new game leaves the ghost behind.
const racingGhost = () => Boolean(ghostRace && game && String(game.id) === $("ghost-race").dataset.game);

function showGhost() {
  const box = $("ghost-race");
  if (!box) return;
  box.hidden = !racingGhost();
  if (box.hidden) return;
  const won = game.status === "won";
  const me = { progress: board.progress(), done: won, time: won ? game.result.time_ms : null };
  const rows = ghostRace.rows(me);
  const items = [...$("ghost-rows").children];
  rows.forEach((row, k) => {
    const item = items.find((li) => li.dataset.who === row.who);
    if ($("ghost-rows").children[k] !== item) $("ghost-rows").insertBefore(item, $("ghost-rows").children[k]);
    const name = row.who === "ghost" ? ghostLabel(P, ghostData, formatTime) : P.ghost_you;
    // The ghost's row names its time already: once there, it says it finished.
    const at = !row.done ? `${row.progress}%` : row.who === "ghost" ? P.ghost_finished : formatTime(row.time);
    const nameEl = item.querySelector(".ghost-name");
    const atEl = item.querySelector(".ghost-at");
    if (nameEl.textContent !== name) nameEl.textContent = name;
    if (atEl.textContent !== at) atEl.textContent = at;
  });
  const end = won ? endSentence(P, ghostData, game.result.time_ms, lang) : "";
  if ($("ghost-end").textContent !== end) $("ghost-end").textContent = end;
  $("ghost-end").hidden = !end;
}

// --- options ----------------------------------------------------------------------------
// "Highlight matching tiles": a helper, off until the player turns it on; remembered.
function setupShowMatches(button) {
  const apply = (on) => {
    board.showMatches = on;
    button.setAttribute("aria-pressed", String(on));
    try { localStorage.setItem("mj-show-matches", on ? "on" : "off"); } catch (e) { /* private mode */ }
  };
  button.addEventListener("click", () => apply(!board.showMatches));
  let saved = "off";
  try { saved = localStorage.getItem("mj-show-matches") || saved; } catch (e) { /* private mode */ }
  apply(saved === "on");
}

// The New game dialog: counts and previews follow the flowers switch.
function showFlowers() {
  const on = $("flowers").checked;
  $("new-game-form").classList.toggle("with-flowers", on);
  document.querySelectorAll(".levels img[data-flowers]").forEach((img) => {
    img.src = on ? img.dataset.flowers : img.dataset.plain;
  });
}

// The dialog marks what is being played, and the clock stops while it is open: it
// goes on if the dialog closes without a new game.
let pausedForDialog = null; // the game the dialog paused
function openNewGame() {
  $("code-error").textContent = "";
  markCurrentChoice();
  if (playing() && board.aliveCount() > 0) {
    pausedForDialog = game.id;
    togglePause();
  }
  $("new-game-dialog").showModal();
}

function markCurrentChoice() {
  // The level is marked whatever the flowers switch says (it keeps the player's last
  // choice), and a library layout in the list below.
  const layout = game ? game.layout : {};
  document.querySelectorAll("#new-game-form button[name=level], #new-game-form button[name=layout]").forEach((button) => {
    const current = button.name === "level" ? button.value === layout.level : button.value === layout.name;
    button.classList.toggle("current", current);
    if (current) button.setAttribute("aria-current", "true"); else button.removeAttribute("aria-current");
  });
}

function closedNewGame() {
  if (pausedForDialog !== null && game && game.id === pausedForDialog && game.paused) togglePause();
  pausedForDialog = null;
}

// --- wiring ---------------------------------------------------------------------------
$("hint").addEventListener("click", hint);
$("undo").addEventListener("click", undo);
$("pause").addEventListener("click", () => togglePause());
// The first tap anywhere on the cover resumes (its button says so to a screen reader).
$("paused-cover").addEventListener("click", () => { if (game && game.paused) togglePause(); });
$("new-game").addEventListener("click", openNewGame);
if ($("no-game-new")) $("no-game-new").addEventListener("click", openNewGame);
$("blocked-undo").addEventListener("click", undo);
$("blocked-new").addEventListener("click", () => { closeDialog($("blocked-dialog")); openNewGame(); });
$("won-again").addEventListener("click", () => fromWon({ layout: game.layout.name })());
$("won-replay").addEventListener("click", () => fromWon({ code: game.code })());
$("won-copy").addEventListener("click", () => copyLink($("won-link"), $("won-copied"), { copied: P.copied, failed: P.copy_failed }));
if (navigator.share) {
  $("won-share").hidden = false;
  $("won-share").addEventListener("click", shareDeal);
}
$("won-new").addEventListener("click", () => { closeDialog($("won-dialog")); openNewGame(); });
$("flowers").addEventListener("change", showFlowers);
$("new-game-dialog").addEventListener("close", closedNewGame);
$("new-game-form").addEventListener("submit", (event) => {
  const button = event.submitter;
  if (!button || button.value === "cancel") return;
  event.preventDefault();
  let body;
  if (button.name === "level") body = { level: button.value, flowers: $("flowers").checked };
  else if (button.name === "layout") body = { layout: button.value };
  else body = { code: $("code-input").value };
  newGame(body).then((started) => {
    if (started) closeDialog($("new-game-dialog"));
    else $("code-error").textContent = $("message").textContent;
  });
});
document.addEventListener("visibilitychange", () => {
  if (document.hidden && playing()) togglePause(true);
});
// Under the pause cover the tiles are inert (setPaused) and C says nothing of them.
const sayOpenPairs = () => { if (playing()) board.sayOpenPairs(); };
MahjongBoard.listenKeys(board, { h: hint, u: undo, "Ctrl+z": undo, p: () => togglePause(), c: sayOpenPairs });
MahjongBoard.setupTileStyle(root, $("tile-style"));
setupShowMatches($("show-matches"));
showFlowers();

const first = JSON.parse($("game-state").textContent);
if (first) {
  // The page's own state was written when its answer began, not when this script ran:
  // counting from then keeps the clock in step with the server's while the page loads.
  const page = performance.getEntriesByType("navigation")[0];
  draw(first, page ? page.responseStart : performance.now());
  if (game.status === "won") showWon(game);
}
sendLeftOver();
setInterval(tick, 250);
tick();
