// Time as the arena pages write it: "4:05", "1:02:09" (pure; tests/js/arena_clock.test.js).
export function formatLeft(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

// A race time in ms: "1:23.4".
export function formatTime(ms) {
  if (ms === null || ms === undefined) return "–";
  const tenths = Math.floor(ms / 100);
  const m = Math.floor(tenths / 600);
  const s = Math.floor((tenths % 600) / 10);
  return `${m}:${String(s).padStart(2, "0")}.${tenths % 10}`;
}

// What the arena's clock line says at `now` (ms since the epoch) for `arena` (its
// starts_at, ends_at, status) in the page's words `T`.
export function clockLine(arena, now, T) {
  if (arena.status === "finished") return T.finished;
  const starts = Date.parse(arena.starts_at);
  const ends = Date.parse(arena.ends_at);
  if (now < starts) return T.starts_in.replace("{t}", formatLeft(starts - now));
  if (now >= ends) return T.last_minute;
  const left = T.time_left.replace("{t}", formatLeft(ends - now));
  return ends - now <= 60000 ? `${left} — ${T.last_minute}` : left;
}
