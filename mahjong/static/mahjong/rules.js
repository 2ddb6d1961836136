// The board's rules, pure: which tiles are free, which match, what is open. They mirror
// the engine's (mahjong/engine/layout.py `_geometry` and `Layout.is_free`,
// mahjong/engine/tiles.py `match_class`; docs/RULES.md §Playing a board) so a page can
// answer a tap at once; the server stays the referee. No DOM here: Node imports this file
// (tests/js/, and tests/engine/test_js_freeness.py checks it against the engine on every built-in
// layout and thousands of random positions).

// Flowers match any flower, seasons any season; every other face only itself.
export function matchClass(face) {
  if (/^F\d$/.test(face)) return "flower";
  if (/^S\d$/.test(face)) return "season";
  return face;
}

export const facesMatch = (a, b) => Boolean(a && b) && matchClass(a) === matchClass(b);

// For each tile of `tiles` ([{x, y, z}]: a tile covers cells x..x+1, y..y+1 of layer z):
// the tiles over it on any higher layer, and its neighbours to the left and right on its
// own layer (touching it over at least one cell's height).
export function buildLinks(tiles) {
  const at = new Map();
  const key = (x, y, z) => `${x},${y},${z}`;
  tiles.forEach((t, i) => {
    for (const dx of [0, 1]) for (const dy of [0, 1]) at.set(key(t.x + dx, t.y + dy, t.z), i);
  });
  const maxZ = Math.max(...tiles.map((t) => t.z));
  const found = (cells) => [...new Set(cells.map((c) => at.get(key(...c))).filter((i) => i !== undefined))];
  return tiles.map((t) => {
    const above = [];
    for (let z = t.z + 1; z <= maxZ; z++) {
      for (const dx of [0, 1]) for (const dy of [0, 1]) above.push([t.x + dx, t.y + dy, z]);
    }
    return {
      covers: found(above),
      left: found([[t.x - 1, t.y, t.z], [t.x - 1, t.y + 1, t.z]]),
      right: found([[t.x + 2, t.y, t.z], [t.x + 2, t.y + 1, t.z]]),
    };
  });
}

const live = (list, alive) => list.filter((i) => alive[i]);

// `alive`: one boolean a tile. Free: on the board, nothing over it, one side open.
export function isFree(links, alive, i) {
  const l = links[i];
  return Boolean(alive[i]) && !live(l.covers, alive).length &&
    (!live(l.left, alive).length || !live(l.right, alive).length);
}

// Why tile `i` is not free: how many tiles cover it, and whether both sides are closed.
export function blockedBy(links, alive, i) {
  const l = links[i];
  return {
    covering: live(l.covers, alive).length,
    bothSides: live(l.left, alive).length > 0 && live(l.right, alive).length > 0,
  };
}

// Free tiles with a face, counted by what they match.
export function freeGroups(tiles, links, alive) {
  const groups = new Map();
  tiles.forEach((t, i) => {
    if (!t.face || !isFree(links, alive, i)) return;
    const c = matchClass(t.face);
    groups.set(c, (groups.get(c) || 0) + 1);
  });
  return groups;
}

// Tiles left, and no two free tiles match.
export function isBlocked(tiles, links, alive) {
  return alive.some(Boolean) && ![...freeGroups(tiles, links, alive).values()].some((n) => n > 1);
}

// Distinct pairs of free matching tiles playable now (three free of a kind: 3 pairs).
export function openPairs(tiles, links, alive) {
  let pairs = 0;
  for (const n of freeGroups(tiles, links, alive).values()) pairs += (n * (n - 1)) / 2;
  return pairs;
}

// The m:ss clock (h:mm:ss past an hour) of every page.
export function formatTime(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60));
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${mm.padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}
