// A ghost race in the browser (docs/RULES.md §Ghost races): the ghost is a finished board
// of a replay, its pairs at their recorded times (ms from its start), played back against
// the player's own game clock. Pure: no DOM, and the clock is injected, so Node tests it
// at any moment without waiting (tests/js/ghost.test.js).

// How many of the ghost's pairs are made by `ms` on the race's clock.
export function ghostPairsAt(ghost, ms) {
  const times = ghost.pair_ms;
  let low = 0;
  let high = times.length;
  while (low < high) { // the first pair later than `ms`
    const mid = (low + high) >> 1;
    if (times[mid] <= ms) low = mid + 1; else high = mid;
  }
  return low;
}

// The ghost's progress at `ms`: removed tiles over all tiles, a whole percent rounded
// down, as the board, the replay and the engine count it.
export function ghostProgress(ghost, ms) {
  return Math.floor((ghostPairsAt(ghost, ms) * 100) / ghost.total_pairs);
}

export const ghostDone = (ghost, ms) => ghost.finished_ms !== null && ms >= ghost.finished_ms;

// A word of the page for this ghost: the player's own board's ghost is "your ghost"
// (T.ghost_row_own), anyone else's is named ("Ana's ghost").
const said = (T, ghost, key) => (ghost.own && T[`${key}_own`]) || T[key];

// "Ana's ghost, best 2:14"; "Your ghost, best 2:14".
export function ghostLabel(T, ghost, formatTime) {
  return said(T, ghost, "ghost_row").replace("{name}", ghost.nickname).replace("{time}", formatTime(ghost.finished_ms));
}

// A gap in seconds as a player reads it: whole seconds from 10 s, tenths below.
export function gapSeconds(ms, lang = "en") {
  const seconds = Math.abs(ms) / 1000;
  if (seconds >= 10) return String(Math.round(seconds));
  return (Math.round(seconds * 10) / 10).toLocaleString(lang);
}

// The end of the race: "You beat the ghost by 12 s" or "The ghost was 8 s faster".
export function endSentence(T, ghost, myMs, lang = "en") {
  const gap = ghost.finished_ms - myMs; // > 0: the player was faster
  if (Math.round(Math.abs(gap) / 100) === 0) return said(T, ghost, "ghost_tie"); // within a twentieth of a second
  const text = said(T, ghost, gap > 0 ? "ghost_beaten" : "ghost_faster");
  return text.replace("{s}", gapSeconds(gap, lang));
}

// The race as a page shows it: the ghost against the clock it is given, `now()` being
// the player's game clock in ms (paused with the game).
export class GhostRace {
  constructor(ghost, clock) {
    this.ghost = ghost;
    this.clock = clock;
  }

  ghostAt(ms = this.clock.now()) {
    return {
      pairs: ghostPairsAt(this.ghost, ms),
      progress: ghostProgress(this.ghost, ms),
      done: ghostDone(this.ghost, ms),
    };
  }

  // Both rows in standing order: finished first (by time), then by progress; the ghost
  // ahead on a tie, it got there first.
  rows(me, ms = this.clock.now()) {
    const ghost = this.ghostAt(ms);
    const rows = [
      { who: "ghost", progress: ghost.progress, done: ghost.done, time: ghost.done ? this.ghost.finished_ms : null },
      { who: "you", progress: me.progress, done: me.done, time: me.done ? me.time : null },
    ];
    const order = (r) => (r.done ? [0, r.time] : [1, -r.progress]);
    return rows.sort((a, b) => {
      const [ka, va] = order(a);
      const [kb, vb] = order(b);
      return ka - kb || va - vb;
    });
  }
}
