// A race room's state and its reducer (an ES module, pure: no DOM, no clock, no socket).
// `reduce(state, event)` returns a new state; it never changes the one it is given. What
// the page must do besides drawing (send a message, move the board component, play a
// sound) is listed in the new state's `effects`, which ./race.js carries out and clears.
// Node's test runner tests it (tests/js/race_state.test.js).
//
// Events: {type: "start"} (the page's own snapshot), {type: "message", message} (one from
// the socket, docs/PROTOCOL.md), {type: "opened", first} and {type: "lost", code} (the
// socket), {type: "pair", tiles} (the board took a pair), {type: "move_sent"} (a kept pair
// went out), {type: "say", text, kind}, {type: "to_lobby"} and {type: "tick"}; each has
// `now` (Date.now()), which the reducer keeps as `state.now`.
//
// The page is in one phase at a time (phaseOf): "lobby" (seats and rules), "countdown"
// (backs only: no game state is claimed), "playing", "done" (this player's board is over:
// the clock stops, the standings of everyone take over until the race ends) and
// "results". The link to the server (docs/PROTOCOL.md §Reconnecting) is "first" (the
// page's own snapshot, the socket not yet answered), "up", "down" (no socket, or one found
// dead: the board freezes under a cover, the pairs not yet acknowledged are kept),
// "resync" (a new socket: its snapshot is the truth; kept pairs it lacks are sent again
// one by one, and a last snapshot lifts the cover) or "gone" (no such room).

import { buildLinks, formatTime, isBlocked } from "../mahjong/rules.js";
import { sortKept } from "../mahjong/net.js";

export const COVERED = ["down", "resync", "gone"];
// A pair's message carries an id of its own ("pair-<n>"), so a refusal (which answers with
// the id) says which pair was not stored: its tiles come back with the next snapshot.
const pairId = (pair) => `pair-${pair.n}`;
const moveMessage = (pair) => ({ type: "move", tiles: pair.tiles, n: pair.n, id: pairId(pair) });
const refusedPair = (s, m) => s.pending.find((pair) => m.id === pairId(pair));

const RESNAPSHOT_CODES = ["illegal", "stale", "penalty", "too_fast", "entry_over", "race_over"];

const at = (iso) => (iso ? Date.parse(iso) : null);

// `snap`: the page's snapshot (rooms.core.serializers.snapshot); `T`: the page's words;
// `pairGapMs`: kept pairs sent again are spaced this far apart (docs/RULES.md §Fair play).
export function initialState(snap, { T = {}, pairGapMs = 350 } = {}) {
  return {
    T, pairGapMs,
    now: 0,
    snap,
    version: 0,
    standingsAt: 0, // server time (ms) of the standings shown
    offset: 0, // server clock minus ours, in ms
    pairsRemoved: 0,
    acked: { race: null, pairs: 0 }, // the most pairs the server has acknowledged
    penaltyUntil: 0,
    myStatus: null, // this seat's board in the current race: playing, finished, out, gave_up
    myFinishMs: null, // the server's finish time of this board, once cleared
    clockRace: null, // the race whose time the clock last showed running
    snapRace: null, // the race of the last snapshot: it said whether this seat has a board
    showingLobby: false, // after a race, the owner went back to the room's lobby
    goSeen: null, // the race whose "go" the server has told (its clock outranks ours)
    goShownUntil: 0, // "Go!" stays over the board until then
    sounded: null, // the 3-2-1 sounds once a second, "go" once a race
    link: "first",
    pending: [], // pairs sent or kept, not yet acknowledged, oldest first: {tiles, n}
    resend: null, // during a resync: the kept pairs still to send again (null: not sorted yet)
    refusedPairs: 0, // kept pairs the server did not take: their tiles came back
    heardServerAt: 0, // the server's time of its last word: a cut-off clock holds past the limit there
    lastPairAt: 0, // Date.now() of this page's last pair sent (the pace floor)
    standIns: {}, // "race:seat" -> a CPU plays it (each change is told once)
    message: { text: "", kind: "error" }, // refusals and the board's news (#message)
    notice: "", // news of the room (#notice)
    hintsLeft: "",
    shufflesLeft: "",
    cpusPaused: false,
    watchers: 0,
    board: { tiles: [], alive: [], links: [] }, // this seat's board, as the component shows it
    boardHidden: false,
    clock: { text: formatTime(0), overtime: false, held: false },
    countdown: { text: "", hidden: true },
    effects: [],
  };
}

// --- derived --------------------------------------------------------------------------
export const serverNow = (s) => s.now + s.offset;
export const isOwner = (s) => s.snap.you !== null && s.snap.you === s.snap.room.owner_seat;
export const raceNumber = (s) => (s.snap.race ? s.snap.race.number : null);

export function phaseOf(s) {
  const race = s.snap.race;
  if (!race || s.showingLobby) return "lobby";
  if (race.status === "finished") return "results";
  if (s.goSeen !== race.number && serverNow(s) < at(race.go_at)) return "countdown";
  return s.myStatus && s.myStatus !== "playing" ? "done" : "playing";
}

export const seated = (s) => Boolean(s.snap.entry);
export const acting = (s) => phaseOf(s) === "playing" && seated(s) && ["first", "up"].includes(s.link);
const boardShown = (s) => ["countdown", "playing", "done"].includes(phaseOf(s));
export const aliveCount = (b) => b.alive.filter(Boolean).length;

// No board in this race: a visitor, or a seat that did not say Ready for a rematch. The
// whole table takes the board's place: a spectator never gets a face (docs/PROTOCOL.md).
// A seat learns it sits a race out from that race's snapshot, not from race_started.
export function watching(s) {
  const told = s.snap.you === null || (s.snap.race && s.snapRace === s.snap.race.number);
  return !seated(s) && Boolean(told) && boardShown(s);
}

export function blocked(s) {
  return phaseOf(s) === "playing" && aliveCount(s.board) > 0 && isBlocked(s.board.tiles, s.board.links, s.board.alive);
}

// What the server holds: a pair counts once it is acknowledged, so a board cleared here
// reads 100% only when the server has stored its last pair.
export function progress(s) {
  const total = s.board.tiles.length;
  if (!total) return 0;
  const unsure = s.pending.filter((pair) => !s.board.alive[pair.tiles[0]]).length;
  const removed = total - aliveCount(s.board);
  return Math.floor(((removed - 2 * unsure) * 100) / total);
}

// Pairs kept while the link is down or resyncing (shown on the cover).
export const keptCount = (s) => (s.link === "gone" ? 0 : s.pending.length + (s.resend ? s.resend.length : 0));

// The standings as last sent, with this seat's own row as its own answers tell it: the
// answer to the last pair comes before the next standings (so the row never lags the
// player's own acknowledged pairs), and the banner must not count a finished player
// among those still playing.
export function currentRows(s) {
  const rows = (s.snap.standings || []).map((row) => (row.seat === s.snap.you ? myRow(s, row) : row));
  const finished = rows.filter((row) => row.status === "finished").sort((a, b) => a.finished_ms - b.finished_ms);
  // The server's live order (docs/RULES.md §Races), with this seat's fresher progress.
  const playing = rows.filter((row) => row.status === "playing").sort((a, b) => b.progress - a.progress);
  return [...finished, ...playing, ...rows.filter((row) => !["finished", "playing"].includes(row.status))];
}

function myRow(s, row) {
  const pairs = s.acked.race === raceNumber(s) ? s.acked.pairs : 0;
  const tiles = s.board.tiles.length;
  const progressNow = Math.max(row.progress, tiles ? Math.floor((pairs * 200) / tiles) : 0);
  if (s.myStatus && s.myStatus !== "playing" && row.status === "playing") {
    return { ...row, status: s.myStatus, finished_ms: s.myFinishMs,
      progress: s.myStatus === "finished" ? 100 : progressNow };
  }
  return { ...row, progress: progressNow };
}

// A place is claimed by a pair: none before go, none for a board with nothing removed.
export const placed = (row) => row.status === "finished" || row.progress > 0;

export const stillPlaying = (s, rows) => rows.filter((row) => row.status === "playing" && row.seat !== s.snap.you).length;

// --- small steps: each takes a state and returns a new one -----------------------------
const withEffect = (s, ...effects) => ({ ...s, effects: [...s.effects, ...effects] });
const send = (s, message) => withEffect(s, { send: message });
const say = (s, text, kind = "error") => ({ ...s, message: { text: text || "", kind } });
const tell = (s, text) => ({ ...s, notice: text || "" });

function loadBoard(s, tiles, alive) {
  const set = new Set(alive);
  return { ...s, board: { tiles, links: buildLinks(tiles), alive: tiles.map((_, i) => set.has(i)) } };
}

function setFaces(s, board, animate = false) {
  const moved = board.tiles.length !== s.board.tiles.length ||
    board.tiles.some((t, i) => t.x !== s.board.tiles[i].x || t.y !== s.board.tiles[i].y || t.z !== s.board.tiles[i].z);
  const next = loadBoard(s, board.tiles, board.alive);
  return withEffect(moved ? next : { ...next, board: { ...next.board, links: s.board.links } },
    { board: "faces", tiles: board.tiles, alive: board.alive, animate });
}

// A CPU took an away player's board, or the player is back (docs/PROTOCOL.md). Told once
// per change, whether the page learns it from the event or, after a missed event, from
// the standings of a snapshot. The player's own return, with the pairs the stand-in made
// (`pairs`, from the event only), is told even when the page saw no stand-in begin: it
// was closed meanwhile.
function noteStandIn(s, seat, nickname, on, pairs) {
  const { T } = s;
  const key = `${raceNumber(s) || 0}:${seat}`;
  const was = s.standIns[key];
  s = { ...s, standIns: { ...s.standIns, [key]: on } };
  if (seat === s.snap.you && !on && pairs) {
    return tell(s, pairs === 1 ? T.you_are_back_one : T.you_are_back.replace("{n}", pairs));
  }
  if (was === on || (was === undefined && !on)) return s;
  if (seat === s.snap.you) return tell(s, on ? T.you_stood_in : "");
  return tell(s, (on ? T.stand_in_on : T.stand_in_off).replace("{name}", nickname));
}

const isMyReturn = (s, m) => m.type === "stand_in" && m.seat === s.snap.you && !m.on && m.pairs !== undefined;

// The standings' stand-ins, told once each.
function noteRows(s) {
  for (const row of currentRows(s)) s = noteStandIn(s, row.seat, seatName(s.T, row), row.stand_in);
  return s;
}

// The clock: the countdown over the board before go, then time since go (+ over time
// past the limit), stopped at this board's finish time once it is cleared.
function clockStep(s) {
  const race = s.snap.race;
  const { T } = s;
  if (!race || race.status !== "running") return { ...s, countdown: { ...s.countdown, hidden: true } };
  const now = serverNow(s);
  const go = at(race.go_at);
  if (now < go && s.goSeen !== race.number) {
    const second = Math.ceil((go - now) / 1000);
    const gathering = race.countdown_at && now < at(race.countdown_at); // ranked: players arrive
    s = { ...s, countdown: { hidden: false, text: gathering ? T.get_ready : String(second) },
      clock: { text: formatTime(0), overtime: false, held: false }, goShownUntil: go + 800 };
    return gathering ? s : soundOnce(s, `${race.number}:${second}`, "count");
  }
  const shown = now < s.goShownUntil;
  s = { ...s, countdown: { hidden: !shown, text: T.go } };
  if (shown) s = soundOnce(s, `${race.number}:go`, "go");
  if (s.myFinishMs === null && ["gave_up", "out"].includes(s.myStatus)) {
    // The board ended unfinished: the clock holds where it was; a page opened after that
    // claims no time.
    return s.clockRace !== race.number ? { ...s, clock: { ...s.clock, text: "–", overtime: false } } : s;
  }
  const limit = at(race.time_limit_at) - go;
  let elapsed = s.myFinishMs !== null ? s.myFinishMs : now - go;
  // Cut off from the server the clock runs on by itself up to the limit only: past it, it
  // holds at the server's last word until the server speaks again.
  if (!["first", "up"].includes(s.link) && s.myFinishMs === null) elapsed = Math.min(elapsed, Math.max(limit, s.heardServerAt - go));
  const text = elapsed > limit ? `${formatTime(limit)} +${formatTime(elapsed - limit)}` : formatTime(elapsed);
  return { ...s, clockRace: race.number, clock: { text, overtime: elapsed > limit } };
}

function soundOnce(s, key, name) {
  if (s.sounded === key) return s;
  return withEffect({ ...s, sounded: key }, { sound: name });
}

// What a change of phase or link decides beyond the drawing: the notices of the phase.
function settle(s) {
  const { T } = s;
  const phase = phaseOf(s);
  if (acting(s) && blocked(s)) {
    s = say(s, Number(s.shufflesLeft) > 0 ? T.blocked_shuffle : T.blocked_out, "info");
  }
  if (phase === "countdown" || phase === "done") s = say(s, "");
  const note = !watching(s) ? "" : s.snap.you !== null ? T.sitting_out : T.spectating;
  if (note) s = tell(s, note);
  else if ([T.sitting_out, T.spectating].includes(s.notice)) s = tell(s, "");
  return clockStep(s);
}

function setLink(s, link) {
  const { T } = s;
  s = settle({ ...s, link });
  if (link === "up" && s.refusedPairs) {
    s = say(s, s.refusedPairs === 1 ? T.link_refused_one : T.link_refused.replace("{n}", s.refusedPairs));
    s = { ...s, refusedPairs: 0 };
  }
  return s;
}

// A snapshot: the server's truth (docs/PROTOCOL.md). Returns null when it is older than a
// pair the server has since acknowledged (socket answers run on threads, so one may
// overtake another): it would put tiles back and restart a stopped clock, so another is
// asked for (a state with that effect comes back instead).
function applySnapshot(s, m) {
  const same = m.race && s.acked.race === m.race.number;
  if (same && m.entry && m.entry.pairs_removed < s.acked.pairs) return { stale: send(s, { type: "snapshot" }) };
  const entry = m.entry;
  // On a live socket, pairs sent and not yet answered that the snapshot does not hold
  // (it was read before the server took them) are still on their way: their tiles stay
  // off the board and their answers still count. A refused one brings its own snapshot.
  // So too for a kept pair sent again in a resync (a snapshot asked for meanwhile can
  // come between it and its answer); kept pairs not yet sorted are the resync's to sort.
  const live = s.link === "up" || resending(s);
  const onTheirWay = live && entry && m.race && raceNumber(s) === m.race.number
    ? s.pending.filter((p) => p.n >= entry.pairs_removed) : [];
  if (live) s = { ...s, pending: onTheirWay };
  s = { ...s, snap: m, snapRace: m.race ? m.race.number : null, offset: at(m.server_now) - s.now,
    myStatus: entry ? entry.status : null, myFinishMs: entry ? entry.finished_ms : null };
  if (entry) {
    const taken = new Set(onTheirWay.flatMap((p) => p.tiles));
    const alive = entry.board.alive.filter((i) => !taken.has(i));
    s = { ...s, pairsRemoved: entry.pairs_removed + onTheirWay.length, penaltyUntil: at(entry.penalty_until) || 0,
      hintsLeft: entry.hints_left, shufflesLeft: entry.shuffles_left, boardHidden: false };
    if ("face" in (entry.board.tiles[0] || {})) s = { ...s, goSeen: m.race.number };
    s = loadBoard(s, entry.board.tiles, alive);
    s = withEffect(s, { board: "load", tiles: entry.board.tiles, alive });
  }
  return { fresh: settle(noteRows(s)) };
}

// Kept pairs are being sent again, after a new socket's snapshot (the page's first socket
// too: its board was playable from the page before the socket came).
const resending = (s) => ["first", "resync"].includes(s.link) && s.resend !== null;

// After (re)connecting: the kept pairs sorted by the snapshot's board (net.sortKept), sent
// again one at a time; once none is left, the link is up.
function resyncFrom(s, m) {
  if (s.resend === null) {
    const open = Boolean(m.entry) && m.entry.status === "playing" && m.race.status === "running";
    const { resend, refused } = sortKept(s.pending, m.entry ? m.entry.board.alive : [], open);
    s = { ...s, resend, refusedPairs: s.refusedPairs + refused, pending: [] };
  }
  if (s.resend.length || s.pending.length) return resendNext(s);
  return setLink({ ...s, resend: null }, "up");
}

// One kept pair at a time, each after the last one's answer; after the last, a snapshot.
function resendNext(s) {
  if (s.pending.length) return s;
  if (!s.resend.length) return send(s, { type: "snapshot" }); // the last word is the server's
  const pair = { tiles: s.resend[0].tiles, n: s.pairsRemoved };
  s = { ...s, resend: s.resend.slice(1), pending: [pair], pairsRemoved: s.pairsRemoved + 1 };
  return withEffect(s, { move: moveMessage(pair), notBefore: s.lastPairAt + s.pairGapMs });
}

// The server refused a kept pair: it and those after it come back with its snapshot, and
// the player is told once the cover lifts.
function refuseResends(s) {
  s = { ...s, refusedPairs: s.refusedPairs + s.pending.length + s.resend.length, pending: [], resend: [] };
  return send(s, { type: "snapshot" });
}

// --- messages from the server (docs/PROTOCOL.md §Server → client) --------------------
const HANDLERS = {
  snapshot: (s, m) => {
    s = { ...s, cpusPaused: Boolean(m.cpus_paused), version: m.v, standingsAt: at(m.server_now) };
    const shown = applySnapshot(s, m);
    if (shown.stale) return shown.stale;
    s = shown.fresh;
    return ["first", "resync"].includes(s.link) ? resyncFrom(s, m) : s;
  },
  lobby: (s, m) => settle({ ...s, snap: { ...s.snap, room: m.room } }),
  race_started: (s, m) => {
    // Every socket is sent a snapshot next: a seat's board of backs, and the standings.
    // Notices belong to the race they happened in; the last race's board is not this
    // one's (its snapshot brings this seat's new board, or none: it sits out).
    s = { ...s, snap: { ...s.snap, race: m.race, results: null, standings: [] }, showingLobby: false,
      notice: "", boardHidden: true };
    return s.snap.you === null ? settle(s) : s;
  },
  go: (s, m) => {
    s = { ...s, goSeen: raceNumber(s), goShownUntil: Math.max(s.goShownUntil, serverNow(s) + 800) };
    s = setFaces(s, m.board);
    return settle(say(s, ""));
  },
  standings: (s, m) => {
    // Not a versioned event but a whole state: keep the latest, and none read before an
    // event this page has already seen (docs/PROTOCOL.md).
    if (m.v < s.version || m.at <= s.standingsAt) return s;
    s = { ...s, standingsAt: m.at, snap: { ...s.snap, standings: m.standings } };
    return settle(noteRows(s));
  },
  race_finished: (s, m) => settle({ ...s, showingLobby: false,
    snap: { ...s.snap, race: m.race, results: m.results, table: m.table, history: m.history } }),
  ack: (s, m) => {
    if (m.pairs_removed !== undefined && s.snap.race) {
      const race = s.snap.race.number;
      s = { ...s, acked: { race, pairs: Math.max(m.pairs_removed, s.acked.race === race ? s.acked.pairs : 0) },
        pending: s.pending.filter((pair) => pair.n >= m.pairs_removed) };
      s = noteRows(s); // this player's own row takes the pair at once (currentRows)
      if (phaseOf(s) === "done") s = say(s, ""); // the done banner speaks for the board
      if (resending(s)) s = resendNext(s);
    }
    if (m.finished_ms !== undefined) s = { ...s, myFinishMs: m.finished_ms };
    if (m.status && m.status !== "playing") {
      s = settle({ ...s, myStatus: m.status });
      if (m.status === "finished") s = withEffect(s, { board: "celebrate" }, { sound: "win" });
    }
    return s;
  },
  stand_in: (s, m) => noteStandIn(s, m.seat, seatName(s.T, m), m.on, m.pairs),
  watchers: (s, m) => ({ ...s, watchers: m.count }), // sockets without a seat watching the room
  hint: (s, m) => withEffect({ ...s, hintsLeft: m.hints_left }, { board: "highlight", pair: m.pair }),
  shuffled: (s, m) => {
    s = setFaces(s, m.board, true);
    s = withEffect({ ...s, penaltyUntil: at(m.penalty_until) || 0, shufflesLeft: m.shuffles_left }, { sound: "shuffle" });
    if (blocked(s)) s = say(s, Number(s.shufflesLeft) > 0 ? s.T.blocked_shuffle : s.T.blocked_out, "info");
    return s;
  },
  pong: (s, m) => ({ ...s, offset: at(m.server_now) - (m.t + s.now) / 2 }),
  error: (s, m) => {
    if (m.code === "no_room") return s; // the close (4404) that follows puts it on the cover
    s = say(s, m.message);
    if (resending(s) && s.pending.length) return refuseResends(s);
    const refused = refusedPair(s, m);
    if (refused) s = { ...s, pending: s.pending.filter((pair) => pair !== refused) };
    if (RESNAPSHOT_CODES.includes(m.code)) s = send(s, { type: "snapshot" });
    // The database is away: nothing was stored, so the board this page already moved on
    // must come back. Asked again each second until the server can answer.
    if (m.code === "unavailable") s = withEffect(s, { later: "resync", ms: 1000, send: { type: "snapshot" } });
    return s;
  },
};

function receive(s, message) {
  if (message.v !== undefined && !["snapshot", "standings"].includes(message.type)) {
    if (message.v <= s.version && isMyReturn(s, message)) s = noteStandIn(s, message.seat, seatName(s.T, message), false, message.pairs);
    if (message.v <= s.version) return s; // sent before the snapshot that already holds it
    if (message.v !== s.version + 1) return send(s, { type: "snapshot" });
    s = { ...s, version: message.v };
  }
  const handler = HANDLERS[message.type];
  return handler ? handler(s, message) : s;
}

// Whatever it says, a message is the server's word at its time: a clock cut off from the
// server later holds there past the limit (clockStep).
const heard = (s, message) => {
  s = receive(s, message);
  return { ...s, heardServerAt: serverNow(s) };
};

// --- the page's own events --------------------------------------------------------------
// The board took a pair (it is already off the board: optimistic, docs/RULES.md).
function pair(s, tiles) {
  const { T } = s;
  const alive = s.board.alive.map((a, i) => a && !tiles.includes(i));
  s = { ...s, board: { ...s.board, alive } };
  if (serverNow(s) < s.penaltyUntil) return send(say(s, T.penalty), { type: "snapshot" });
  if (resending(s)) {
    // The kept pairs are being sent again, one at a time: this one joins the end of that
    // line (in `pending` it would pass for the pair on its way, and wait for ever).
    s = { ...s, resend: [...s.resend, { tiles }] };
  } else {
    const kept = { tiles, n: s.pairsRemoved };
    s = { ...s, pending: [...s.pending, kept], pairsRemoved: s.pairsRemoved + 1 };
    if (s.link === "up") { // else kept: the resync sends it
      s = send({ ...s, lastPairAt: s.now }, moveMessage(kept));
    }
  }
  if (blocked(s)) s = say(s, Number(s.shufflesLeft) > 0 ? T.blocked_shuffle : T.blocked_out, "info");
  return s;
}

export function reduce(state, event) {
  let s = { ...state, now: event.now === undefined ? state.now : event.now, effects: [] };
  switch (event.type) {
    case "start": {
      const shown = applySnapshot(s, s.snap);
      return shown.stale || shown.fresh;
    }
    case "message": return heard(s, event.message);
    case "opened":
      // A new socket after a drop: its first message is a snapshot, that sorts the kept pairs.
      if (s.link === "first") return s;
      return setLink({ ...s, pending: s.pending.concat(s.resend || []), resend: null }, "resync");
    case "lost": return setLink(s, event.code === 4404 ? "gone" : "down");
    case "pair": return pair(s, event.tiles);
    case "move_sent": return { ...s, lastPairAt: s.now };
    case "say": return say(s, event.text, event.kind);
    case "to_lobby": return settle({ ...s, showingLobby: true });
    case "tick": {
      const before = phaseOf(state);
      s = clockStep(s);
      return phaseOf(s) !== before ? settle(s) : s; // "go" passed: the phase moves on even before the board comes
    }
    default: return s;
  }
}

// "1st", "2nd", "1.º": the page's own ordinal patterns (T.ordinals, by the plural
// category of `lang`'s ordinals), never a rule written here for one language.
export function ordinal(T, lang, n) {
  const patterns = T.ordinals || {};
  const category = new Intl.PluralRules(lang, { type: "ordinal" }).select(n);
  return (patterns[category] || patterns.other || "{n}").replace("{n}", n);
}

// A seat's name as this page shows it: a player's nickname, a CPU seat's made from its
// number and level in the page's language (T.cpu_names: "CPU {n} (Constante)"), a player
// who chose no name from their number (T.guest_name: "Jugador {n}"). Events are encoded
// once for every socket of the room, whatever each reader's language, so they carry the
// CPU's `cpu` level and `cpu_number` and the nameless player's `guest_number`, never a
// translated name.
export function seatName(T, row) {
  const names = T.cpu_names || {};
  if (row.cpu && row.cpu_number && names[row.cpu]) return names[row.cpu].replace("{n}", row.cpu_number);
  if (row.guest_number && T.guest_name) return T.guest_name.replace("{n}", row.guest_number);
  return row.nickname;
}
