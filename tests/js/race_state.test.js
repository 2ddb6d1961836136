// The race room's reducer (rooms/static/rooms/race_state.js), by Node's test runner: pure
// state in, state out, with the effects the page must carry out.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  currentRows, initialState, keptCount, ordinal, phaseOf, progress, reduce, seatName,
} from "./static/rooms/race_state.js";

const T = {
  go: "Go!", get_ready: "Get ready", penalty: "Shuffle penalty: wait…",
  blocked_shuffle: "No more moves: shuffle to go on.", blocked_out: "No more moves and no shuffle left.",
  link_refused_one: "1 pair did not reach the server.", link_refused: "{n} pairs did not reach the server.",
  stand_in_on: "{name} is away: a CPU plays for them", stand_in_off: "{name} is back",
  you_stood_in: "You were away", you_are_back_one: "You are back: 1 pair", you_are_back: "You are back: {n} pairs",
  sitting_out: "You sit this race out", spectating: "You are watching",
  ordinals: { one: "{n}st", two: "{n}nd", few: "{n}rd", other: "{n}th" },
};
const T0 = Date.parse("2026-12-02T12:00:00Z");
const iso = (ms) => new Date(ms).toISOString();
// Four tiles in a row: the ends are free; faces once "go" came.
const TILES = [0, 2, 4, 6].map((x) => ({ x, y: 0, z: 0 }));
const FACES = ["1B", "2B", "2B", "1B"].map((face, i) => ({ ...TILES[i], face }));

function snapshot({ v = 5, race = "running", faces = true, entry = {}, standings, at = T0 } = {}) {
  const seats = [{ id: 1, nickname: "Ana", cpu: false }, { id: 2, nickname: "Bo", cpu: false }];
  return {
    type: "snapshot", v, server_now: iso(at), you: 1,
    room: { seats, owner_seat: 1, rules: {}, offer_at: null, ready_seconds: 30 },
    race: { number: 1, id: 9, status: race, go_at: iso(T0 - 1000), time_limit_at: iso(T0 + 600000), rules: {} },
    entry: {
      status: "playing", pairs_removed: 0, finished_ms: null, hints_left: 3, shuffles_left: 2, penalty_until: null,
      board: { tiles: faces ? FACES : TILES, alive: [0, 1, 2, 3] }, ...entry,
    },
    standings: standings || [
      { seat: 1, nickname: "Ana", status: "playing", progress: 0 },
      { seat: 2, nickname: "Bo", status: "playing", progress: 0 },
    ],
    table: [], history: [],
  };
}

// A page on this snapshot, its socket up.
function upPage(snap = snapshot()) {
  let s = reduce(initialState(snap, { T, pairGapMs: 350 }), { type: "start", now: T0 });
  s = reduce(s, { type: "message", message: snap, now: T0 });
  return s;
}
const message = (s, m, now = T0) => reduce(s, { type: "message", message: m, now });
const sends = (s) => s.effects.filter((e) => e.send).map((e) => e.send);

test("reduce never changes the state it is given", () => {
  const before = upPage();
  const frozen = JSON.stringify(before);
  reduce(before, { type: "pair", tiles: [0, 3], now: T0 + 10 });
  message(before, { type: "ack", v: 6, pairs_removed: 1 });
  assert.equal(JSON.stringify(before), frozen);
});

test("the page's own snapshot is first, and the socket's snapshot brings the link up", () => {
  const snap = snapshot();
  const first = reduce(initialState(snap, { T }), { type: "start", now: T0 });
  assert.equal(first.link, "first");
  assert.equal(phaseOf(first), "playing");
  const up = message(first, snap);
  assert.equal(up.link, "up");
  assert.equal(up.version, 5);
});

test("before go the phase is the countdown, with the seconds left over the board and a tick sound", () => {
  const snap = snapshot({ faces: false });
  snap.race.go_at = iso(T0 + 2500);
  const s = upPage(snap);
  assert.equal(phaseOf(s), "countdown");
  const later = reduce(s, { type: "tick", now: T0 + 600 });
  assert.deepEqual(later.countdown, { hidden: false, text: "2" });
  assert.ok(later.effects.some((e) => e.sound === "count"));
  const go = message(later, { type: "go", v: 6, board: { tiles: FACES, alive: [0, 1, 2, 3] } }, T0 + 2600);
  assert.equal(phaseOf(go), "playing");
  assert.ok(go.effects.some((e) => e.board === "faces"));
});

test("a pair is sent with the count seen, kept until acknowledged, and counted only then", () => {
  let s = upPage();
  s = reduce(s, { type: "pair", tiles: [0, 3], now: T0 + 100 });
  assert.deepEqual(sends(s), [{ type: "move", tiles: [0, 3], n: 0, id: "pair-0" }]);
  assert.equal(s.pending.length, 1);
  assert.equal(progress(s), 0); // not yet the server's
  s = message(s, { type: "ack", v: 6, pairs_removed: 1, status: "playing" });
  assert.equal(s.pending.length, 0);
  assert.equal(progress(s), 50);
  assert.equal(currentRows(s)[0].seat, 1); // this player's own row takes the pair at once
});

test("a pair that leaves no matching free pair says the board is blocked, as information", () => {
  const snap = snapshot();
  // Two rows of two: every tile is free; the two 1B go, 2B and 3B are left.
  const faces = ["1B", "2B", "1B", "3B"].map((face, i) => ({ x: 2 * (i % 2), y: 2 * Math.floor(i / 2), z: 0, face }));
  snap.entry.board = { tiles: faces, alive: [0, 1, 2, 3] };
  const s = upPage(snap);
  assert.equal(s.message.text, "");
  const next = reduce(s, { type: "pair", tiles: [0, 2], now: T0 + 100 });
  assert.deepEqual(next.message, { text: T.blocked_shuffle, kind: "info" });
  const none = reduce(upPage(snapshot({ entry: { ...snap.entry, shuffles_left: 0 } })), { type: "pair", tiles: [0, 2], now: T0 + 100 });
  assert.equal(none.message.text, T.blocked_out);
});

test("a pair during a shuffle penalty is not sent: the server's board is asked for", () => {
  const s = upPage(snapshot({ entry: { penalty_until: iso(T0 + 5000) } }));
  const next = reduce(s, { type: "pair", tiles: [0, 3], now: T0 + 100 });
  assert.deepEqual(sends(next), [{ type: "snapshot" }]);
  assert.equal(next.message.text, T.penalty);
});

test("an event out of order asks for a snapshot; an old one is ignored", () => {
  const s = upPage();
  assert.deepEqual(sends(message(s, { type: "lobby", v: 8, room: s.snap.room })), [{ type: "snapshot" }]);
  const old = message(s, { type: "lobby", v: 5, room: { ...s.snap.room, seats: [] } });
  assert.equal(old.snap.room.seats.length, 2);
  assert.equal(message(s, { type: "lobby", v: 6, room: { ...s.snap.room, seats: [] } }).snap.room.seats.length, 0);
});

test("standings older than those shown are ignored", () => {
  const s = upPage();
  const rows = [{ seat: 2, nickname: "Bo", status: "playing", progress: 40 }];
  const newer = message(s, { type: "standings", v: 5, at: T0 + 10, standings: rows });
  assert.equal(newer.snap.standings, rows);
  const older = message(newer, { type: "standings", v: 5, at: T0 + 5, standings: [] });
  assert.equal(older.snap.standings, rows);
});

test("pairs made while the link is down are kept and sent again, one at a time, after the resync", () => {
  let s = upPage();
  s = reduce(s, { type: "lost", code: 1006, now: T0 + 100 });
  assert.equal(s.link, "down");
  s = reduce(s, { type: "pair", tiles: [0, 3], now: T0 + 200 });
  assert.deepEqual(sends(s), []); // kept, not sent
  assert.equal(keptCount(s), 1);
  s = reduce(s, { type: "opened", now: T0 + 300 });
  assert.equal(s.link, "resync");
  // The new socket's snapshot still has both tiles: the pair never arrived.
  s = message(s, snapshot({ at: T0 + 300 }), T0 + 300);
  const move = s.effects.find((e) => e.move);
  assert.deepEqual(move.move, { type: "move", tiles: [0, 3], n: 0, id: "pair-0" });
  assert.equal(move.notBefore, 350); // spaced past the pace floor from the last pair (none since load)
  s = message(s, { type: "ack", v: 6, pairs_removed: 1, status: "playing" }, T0 + 700);
  assert.deepEqual(sends(s), [{ type: "snapshot" }]); // the last word is the server's
  s = message(s, snapshot({ v: 6, at: T0 + 800, entry: { pairs_removed: 1, board: { tiles: FACES, alive: [1, 2] } } }), T0 + 800);
  assert.equal(s.link, "up");
});

test("a snapshot read before a kept pair sent again was taken keeps it off the board, and the next counts on", () => {
  let s = upPage();
  s = reduce(s, { type: "lost", code: 1006, now: T0 + 100 });
  s = reduce(s, { type: "pair", tiles: [0, 3], now: T0 + 200 });
  s = reduce(s, { type: "pair", tiles: [1, 2], now: T0 + 250 });
  s = reduce(s, { type: "opened", now: T0 + 300 });
  s = message(s, snapshot({ at: T0 + 300 }), T0 + 300); // sorted: both go again, one at a time
  assert.deepEqual(s.effects.find((e) => e.move).move, { type: "move", tiles: [0, 3], n: 0, id: "pair-0" });
  // A snapshot asked for meanwhile, read before the server took pair-0, comes before its ack.
  s = message(s, snapshot({ at: T0 + 400 }), T0 + 400);
  assert.deepEqual(s.board.alive, [false, true, true, false]);
  assert.equal(s.pairsRemoved, 1);
  s = message(s, { type: "ack", id: "pair-0", pairs_removed: 1, status: "playing" }, T0 + 800);
  assert.deepEqual(s.effects.find((e) => e.move).move, { type: "move", tiles: [1, 2], n: 1, id: "pair-1" });
});

test("a kept pair the server can no longer take is dropped and the player told once the cover lifts", () => {
  let s = upPage();
  s = reduce(s, { type: "lost", code: 1006, now: T0 + 100 });
  s = reduce(s, { type: "pair", tiles: [0, 3], now: T0 + 200 });
  s = reduce(s, { type: "opened", now: T0 + 300 });
  // A stand-in played tile 0 meanwhile: half the pair is gone.
  s = message(s, snapshot({ at: T0 + 300, entry: { pairs_removed: 1, board: { tiles: FACES, alive: [1, 3] } } }), T0 + 300);
  assert.equal(s.link, "up");
  assert.equal(s.message.text, T.link_refused_one);
  assert.equal(s.refusedPairs, 0);
});

test("a close with 4404 is a room gone: nothing is kept", () => {
  let s = reduce(upPage(), { type: "pair", tiles: [0, 3], now: T0 + 50 });
  s = reduce(s, { type: "lost", code: 4404, now: T0 + 100 });
  assert.equal(s.link, "gone");
  assert.equal(keptCount(s), 0);
});

test("cut off from the server, the clock holds past the time limit at the server's last word", () => {
  const snap = snapshot({ at: T0 });
  snap.race.time_limit_at = iso(T0 + 1000); // go was a second ago: the limit is now
  let s = upPage(snap);
  assert.equal(reduce(s, { type: "tick", now: T0 + 60000 }).clock.text, "0:02 +0:59"); // up: it runs on
  s = reduce(s, { type: "lost", code: 1006, now: T0 + 100 });
  s = reduce(s, { type: "tick", now: T0 + 60000 });
  assert.deepEqual(s.clock, { text: "0:02", overtime: false });
});

test("a snapshot older than an acknowledged pair is not shown: another is asked for", () => {
  let s = reduce(upPage(), { type: "pair", tiles: [0, 3], now: T0 + 50 });
  s = message(s, { type: "ack", v: 6, pairs_removed: 1, status: "playing" });
  const stale = message(s, snapshot({ v: 6 }));
  assert.deepEqual(sends(stale), [{ type: "snapshot" }]);
  assert.equal(stale.board.alive.filter(Boolean).length, 2);
});

test("a snapshot read before a pair on its way keeps that pair off the board, and the next pair counts on", () => {
  let s = reduce(upPage(), { type: "pair", tiles: [0, 3], now: T0 + 50 });
  s = message(s, snapshot({ v: 6, at: T0 + 60 })); // the server had not taken the pair yet
  assert.deepEqual(s.board.alive, [false, true, true, false]);
  assert.equal(s.pending.length, 1);
  s = message(s, { type: "ack", pairs_removed: 1, status: "playing" });
  assert.equal(s.pending.length, 0);
  s = reduce(s, { type: "pair", tiles: [1, 2], now: T0 + 500 });
  assert.deepEqual(sends(s), [{ type: "move", tiles: [1, 2], n: 1, id: "pair-1" }]);
  // A snapshot that holds the pair already keeps nothing more off the board.
  const held = message(s, snapshot({ v: 7, at: T0 + 600, entry: { pairs_removed: 2, board: { tiles: FACES, alive: [] } } }));
  assert.equal(held.pending.length, 0);
  assert.equal(held.pairsRemoved, 2);
});

test("a pair the server refused comes back with the snapshot asked for, though other answers are awaited", () => {
  let s = reduce(upPage(), { type: "pair", tiles: [0, 3], now: T0 + 50 });
  s = message(s, { type: "error", id: "pair-0", code: "unavailable", message: "nothing was stored" });
  assert.equal(s.pending.length, 0);
  s = message(s, snapshot({ v: 6, at: T0 + 1100 }), T0 + 1100);
  assert.deepEqual(s.board.alive, [true, true, true, true]);
  assert.equal(s.pairsRemoved, 0);
});

test("a pair made while kept pairs are sent again is sent after them, not left waiting", () => {
  let s = reduce(initialState(snapshot(), { T, pairGapMs: 350 }), { type: "start", now: T0 });
  s = reduce(s, { type: "pair", tiles: [0, 3], now: T0 + 10 }); // before the socket's snapshot: kept
  s = message(s, snapshot({ at: T0 + 100 }), T0 + 100); // the socket's snapshot: the kept pair goes again
  assert.notEqual(s.resend, null); // sorted: being sent again
  s = reduce(s, { type: "pair", tiles: [1, 2], now: T0 + 150 }); // tapped meanwhile
  s = message(s, { type: "ack", id: "pair-0", pairs_removed: 1, status: "playing" }, T0 + 200);
  const moves = s.effects.filter((e) => e.move).map((e) => e.move);
  assert.deepEqual(moves, [{ type: "move", tiles: [1, 2], n: 1, id: "pair-1" }]);
});

test("finishing stops the clock at the server's time and celebrates", () => {
  let s = reduce(upPage(), { type: "pair", tiles: [0, 3], now: T0 + 50 });
  s = message(s, { type: "ack", v: 6, pairs_removed: 1, status: "playing" });
  s = reduce(s, { type: "pair", tiles: [1, 2], now: T0 + 90 });
  s = message(s, { type: "ack", v: 7, pairs_removed: 2, status: "finished", finished_ms: 61500 });
  assert.equal(phaseOf(s), "done");
  assert.equal(s.clock.text, "1:01");
  assert.ok(s.effects.some((e) => e.board === "celebrate") && s.effects.some((e) => e.sound === "win"));
  assert.equal(currentRows(s)[0].status, "finished");
});

test("a stand-in is told once, from its event or from the standings", () => {
  let s = upPage();
  s = message(s, { type: "stand_in", v: 6, seat: 2, nickname: "Bo", on: true });
  assert.equal(s.notice, "Bo is away: a CPU plays for them");
  const rows = [{ seat: 2, nickname: "Bo", status: "playing", progress: 10, stand_in: true }];
  s = message({ ...s, notice: "" }, { type: "standings", v: 6, at: T0 + 10, standings: rows });
  assert.equal(s.notice, ""); // already told
  s = message(s, { type: "stand_in", v: 7, seat: 1, nickname: "Ana", on: false, pairs: 3 });
  assert.equal(s.notice, "You are back: 3 pairs");
});

test("the errors that mean the board moved ask for a snapshot; unavailable asks again a second later", () => {
  const s = upPage();
  assert.deepEqual(sends(message(s, { type: "error", code: "stale", message: "Stale" })), [{ type: "snapshot" }]);
  const away = message(s, { type: "error", code: "unavailable", message: "Try again" });
  assert.deepEqual(away.effects, [{ later: "resync", ms: 1000, send: { type: "snapshot" } }]);
  assert.equal(away.message.text, "Try again");
  assert.equal(away.message.kind, "error");
});

test("ordinals come from the page's words, by the language's plural rules", () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 23].map((n) => ordinal(T, "en", n)),
    ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd"]);
  const es = { ordinals: { one: "{n}.º", two: "{n}.º", few: "{n}.º", other: "{n}.º" } };
  assert.deepEqual([1, 2, 3].map((n) => ordinal(es, "es", n)), ["1.º", "2.º", "3.º"]);
});

test("a CPU seat is named in the page's language from its number and level; a player by their nickname", () => {
  const words = { cpu_names: { steady: "CPU {n} (Constante)", sharp: "CPU {n} (Ágil)" } };
  assert.equal(seatName(words, { nickname: "CPU 2 (Sharp)", cpu: "sharp", cpu_number: 2 }), "CPU 2 (Ágil)");
  assert.equal(seatName(words, { nickname: "Ana", cpu: null, cpu_number: null }), "Ana");
  // A row without a number (or a page without the words) keeps the stored name.
  assert.equal(seatName(words, { nickname: "CPU 1 (Steady)", cpu: "steady" }), "CPU 1 (Steady)");
  assert.equal(seatName({}, { nickname: "CPU 1 (Steady)", cpu: "steady", cpu_number: 1 }), "CPU 1 (Steady)");
});

test("a player who chose no name is named in the page's language from their number", () => {
  const words = { guest_name: "Jugador {n}" };
  assert.equal(seatName(words, { nickname: "Player 12", cpu: null, guest_number: 12 }), "Jugador 12");
  assert.equal(seatName(words, { nickname: "Ana", cpu: null, guest_number: null }), "Ana");
  assert.equal(seatName({}, { nickname: "Player 12", guest_number: 12 }), "Player 12");
});

test("a stand-in's news names a nameless player in the page's language", () => {
  const s = { ...upPage(), T: { ...T, guest_name: "Jugador {n}" } };
  const away = message(s, { type: "stand_in", v: 6, seat: 2, nickname: "Player 12", guest_number: 12, on: true });
  assert.equal(away.notice, "Jugador 12 is away: a CPU plays for them");
});
