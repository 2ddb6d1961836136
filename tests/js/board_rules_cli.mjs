// For tests/test_js_freeness.py: reads {"boards": [{"tiles": [{x, y, z}], "alive": [[i...]]}],
// "faces": [labels]} as JSON on stdin and writes, for each board and each alive set, the
// indices the board's rule (mahjong/static/mahjong/rules.js) calls free; and, for every
// pair of faces, whether it matches. Node only: the module touches no DOM.
import { buildLinks, facesMatch, isFree } from "../../mahjong/static/mahjong/rules.js";

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const { boards, faces } = JSON.parse(input);
  const free = boards.map(({ tiles, alive }) => {
    const links = buildLinks(tiles);
    return alive.map((live) => {
      const set = new Set(live);
      const flags = tiles.map((_, i) => set.has(i));
      return live.filter((i) => isFree(links, flags, i));
    });
  });
  const matches = faces.map((a) => faces.map((b) => facesMatch(a, b)));
  process.stdout.write(JSON.stringify({ free, matches }));
});
