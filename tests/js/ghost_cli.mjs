// For tests/replays/test_ghost_races.py: reads {"ghost": {...}, "at": [ms...]} as JSON on
// stdin and writes the ghost's progress (practice/static/practice/ghost.js) at each moment,
// its clock injected: a GhostRace reading a clock set to each moment in turn.
import { GhostRace } from "../../practice/static/practice/ghost.js";

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const { ghost, at } = JSON.parse(input);
  let now = 0;
  const race = new GhostRace(ghost, { now: () => now });
  const seen = at.map((ms) => { now = ms; return race.ghostAt(); });
  process.stdout.write(JSON.stringify(seen));
});
