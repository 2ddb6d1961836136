// The arena pages' clock (arenas/static/arenas/clock.js), by Node's test runner: time
// left and to the start, the last minute, the end, race times.
import assert from "node:assert/strict";
import { test } from "node:test";

import { clockLine, formatLeft, formatTime } from "./static/arenas/clock.js";

const T = {
  starts_in: "Starts in {t}", time_left: "{t} left", finished: "Over.",
  last_minute: "Last minute.",
};
const arena = { status: "running", starts_at: "2026-12-03T20:00:00Z", ends_at: "2026-12-03T20:30:00Z" };

test("time left is minutes and seconds, hours once past an hour, never negative", () => {
  assert.equal(formatLeft(65_000), "1:05");
  assert.equal(formatLeft(3_725_000), "1:02:05");
  assert.equal(formatLeft(400), "0:01");
  assert.equal(formatLeft(-5), "0:00");
});

test("a race time has tenths; none is a dash", () => {
  assert.equal(formatTime(83_456), "1:23.4");
  assert.equal(formatTime(null), "–");
});

test("the clock line counts to the start, then the end, says the last minute and the end", () => {
  const at = (iso) => Date.parse(iso);
  assert.equal(clockLine(arena, at("2026-12-03T19:58:30Z"), T), "Starts in 1:30");
  assert.equal(clockLine(arena, at("2026-12-03T20:10:00Z"), T), "20:00 left");
  assert.equal(clockLine(arena, at("2026-12-03T20:29:30Z"), T), "0:30 left — Last minute.");
  assert.equal(clockLine(arena, at("2026-12-03T20:31:00Z"), T), "Last minute.");
  assert.equal(clockLine({ ...arena, status: "finished" }, at("2026-12-03T20:31:00Z"), T), "Over.");
});
