// A ghost race's pure module (practice/static/practice/ghost.js), its clock injected: the
// ghost's progress at chosen moments, and the end sentence both ways, without waiting.
import assert from "node:assert/strict";
import { test } from "node:test";

import { formatTime } from "./static/mahjong/rules.js";
import {
  endSentence, gapSeconds, GhostRace, ghostLabel, ghostPairsAt, ghostProgress,
} from "./static/practice/ghost.js";

const T = {
  ghost_row: "{name}'s ghost, best {time}",
  ghost_beaten: "You beat the ghost by {s} s",
  ghost_faster: "The ghost was {s} s faster",
  ghost_tie: "Dead heat",
  ghost_row_own: "Your ghost, best {time}",
  ghost_beaten_own: "You beat your ghost by {s} s",
  ghost_faster_own: "Your ghost was {s} s faster",
  ghost_tie_own: "Dead heat with your ghost",
};
// Ana's board of 8 pairs: a pair every 1.5 s from 2 s, the last at 12.5 s (her finish).
const ana = {
  nickname: "Ana", code: "X", finished_ms: 12500, total_pairs: 8,
  pair_ms: [2000, 3500, 5000, 6500, 8000, 9500, 11000, 12500],
};

test("the ghost's pairs and progress follow its recorded times, to the millisecond", () => {
  assert.equal(ghostPairsAt(ana, 0), 0);
  assert.equal(ghostPairsAt(ana, 1999), 0);
  assert.equal(ghostPairsAt(ana, 2000), 1);
  assert.equal(ghostPairsAt(ana, 6499), 3);
  assert.equal(ghostPairsAt(ana, 6500), 4);
  assert.equal(ghostPairsAt(ana, 99999), 8);
  assert.equal(ghostProgress(ana, 2000), 12); // 2 of 16 tiles, rounded down
  assert.equal(ghostProgress(ana, 6500), 50);
  assert.equal(ghostProgress(ana, 12500), 100);
});

test("a ghost race reads the clock it is given: paused, the ghost waits too", () => {
  let now = 0;
  const race = new GhostRace(ana, { now: () => now });
  assert.deepEqual(race.ghostAt(), { pairs: 0, progress: 0, done: false });
  now = 5000;
  assert.deepEqual(race.ghostAt(), { pairs: 3, progress: 37, done: false });
  // The player paused: their game clock stands still, and so does the ghost.
  assert.deepEqual(race.ghostAt(), { pairs: 3, progress: 37, done: false });
  now = 13000;
  assert.deepEqual(race.ghostAt(), { pairs: 8, progress: 100, done: true });
});

test("the standings put the leader first, finished boards by time", () => {
  let now = 5000;
  const race = new GhostRace(ana, { now: () => now });
  const order = (me) => race.rows(me).map((r) => r.who);
  assert.deepEqual(order({ progress: 50, done: false }), ["you", "ghost"]);
  assert.deepEqual(order({ progress: 25, done: false }), ["ghost", "you"]);
  assert.deepEqual(order({ progress: 37, done: false }), ["ghost", "you"]); // a tie: it got there first
  now = 20000;
  assert.deepEqual(order({ progress: 100, done: true, time: 11000 }), ["you", "ghost"]);
  assert.deepEqual(order({ progress: 100, done: true, time: 19000 }), ["ghost", "you"]);
});

test("the ghost's row names it and its best time", () => {
  assert.equal(ghostLabel(T, { ...ana, finished_ms: 134000 }, formatTime), "Ana's ghost, best 2:14");
});

test("the end says by how much the ghost was beaten, or how much faster it was", () => {
  const ghost = { ...ana, finished_ms: 134000 };
  assert.equal(endSentence(T, ghost, 122000), "You beat the ghost by 12 s");
  assert.equal(endSentence(T, ghost, 142000), "The ghost was 8 s faster");
  assert.equal(endSentence(T, ghost, 133600), "You beat the ghost by 0.4 s");
  assert.equal(endSentence(T, ghost, 134020), "Dead heat");
  assert.equal(gapSeconds(2500, "es"), "2,5");
});

test("the player's own ghost is theirs in the second person, in its row and at the end", () => {
  const mine = { ...ana, finished_ms: 134000, own: true };
  assert.equal(ghostLabel(T, mine, formatTime), "Your ghost, best 2:14");
  assert.equal(endSentence(T, mine, 122000), "You beat your ghost by 12 s");
  assert.equal(endSentence(T, mine, 142000), "Your ghost was 8 s faster");
  assert.equal(endSentence(T, mine, 134020), "Dead heat with your ghost");
  assert.equal(ghostLabel(T, { ...mine, own: false }, formatTime), "Ana's ghost, best 2:14");
});
