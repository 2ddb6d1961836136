// The board's pure rules (mahjong/static/mahjong/rules.js), by Node's test runner.
// tests/engine/test_js_freeness.py checks the freeness rule against the engine's at scale.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  blockedBy, buildLinks, facesMatch, formatTime, isBlocked, isFree, matchClass, openPairs,
} from "./static/mahjong/rules.js";

const row = (faces) => faces.map((face, k) => ({ x: 2 * k, y: 0, z: 0, face }));
const all = (tiles) => tiles.map(() => true);

test("a row has its two ends free and its middle held on both sides", () => {
  const tiles = row(["1B", "2B", "3B", "4B"]);
  const links = buildLinks(tiles);
  assert.deepEqual(tiles.map((_, i) => isFree(links, all(tiles), i)), [true, false, false, true]);
  assert.deepEqual(blockedBy(links, all(tiles), 1), { covering: 0, bothSides: true });
});

test("a tile half covered from the layer above is not free, and a removed tile never is", () => {
  const tiles = [{ x: 0, y: 0, z: 0 }, { x: 1, y: 1, z: 1 }];
  const links = buildLinks(tiles);
  assert.equal(isFree(links, [true, true], 0), false);
  assert.deepEqual(blockedBy(links, [true, true], 0), { covering: 1, bothSides: false });
  assert.equal(isFree(links, [true, false], 0), true);
  assert.equal(isFree(links, [false, true], 0), false);
});

test("neighbours offset by half a tile still hold a side; one above or below never does", () => {
  const tiles = [{ x: 2, y: 1, z: 0 }, { x: 0, y: 0, z: 0 }, { x: 4, y: 2, z: 0 }, { x: 2, y: 3, z: 0 }];
  const links = buildLinks(tiles);
  assert.equal(isFree(links, all(tiles), 0), false);
  assert.equal(isFree(links, [true, false, true, true], 0), true);
  assert.equal(isFree(links, all(tiles), 3), true);
});

test("flowers match flowers and seasons seasons; other faces only themselves", () => {
  assert.equal(matchClass("F1"), "flower");
  assert.equal(matchClass("S4"), "season");
  assert.ok(facesMatch("F1", "F3") && facesMatch("S2", "S1") && facesMatch("Wh", "Wh"));
  assert.ok(!facesMatch("F1", "S1") && !facesMatch("1B", "2B") && !facesMatch("S", "S1") && !facesMatch(undefined, undefined));
});

test("open pairs count every pair of free matching tiles, and a board with none is blocked", () => {
  const tiles = row(["1B", "7C", "9D", "1B"]);
  const links = buildLinks(tiles);
  assert.equal(openPairs(tiles, links, all(tiles)), 1);
  assert.equal(isBlocked(tiles, links, all(tiles)), false);
  const ends = row(["1B", "2B", "2B", "3B"]);
  assert.equal(isBlocked(ends, buildLinks(ends), all(ends)), true);
  assert.equal(isBlocked(ends, buildLinks(ends), [false, false, false, false]), false); // a cleared board is not blocked
  const flowers = row(["F1", "F2", "F3"]).concat([{ x: 0, y: 2, z: 0, face: "F4" }]);
  assert.equal(openPairs(flowers, buildLinks(flowers), all(flowers)), 3); // three free flowers: 3 pairs
});

test("the clock reads m:ss, and h:mm:ss past an hour", () => {
  assert.equal(formatTime(0), "0:00");
  assert.equal(formatTime(65999), "1:05");
  assert.equal(formatTime(3723000), "1:02:03");
  assert.equal(formatTime(-5), "0:00");
});
