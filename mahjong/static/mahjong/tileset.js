// The tile set (docs/TILES.md): two sprites with the same ids, "classic" (tiles.svg) and
// "clear" (tiles-clear.svg, drawn for small tiles). templates/base.html names both URLs in
// <meta name="mj-sprite-classic|mj-sprite-clear">; site.js sets <html data-tiles="clear"> from
// the player's choice in Settings ("mj-tiles"). A board asks spriteUrl() when it paints a
// face; followTileSet() (chrome.js, once a page) repoints every face already drawn, on
// every page (boards, replays, the front page's picture), when the choice changes here or
// in another tab.
const root = document.documentElement;
const SPRITES = {};
for (const name of ["classic", "clear"]) {
  const meta = document.querySelector(`meta[name="mj-sprite-${name}"]`);
  SPRITES[name] = meta ? meta.content : "";
}

export function tileSet() {
  return root.dataset.tiles === "clear" ? "clear" : "classic";
}

// `fallback`: the page's own sprite URL, for a page outside base.html.
export function spriteUrl(fallback = "") {
  return SPRITES[tileSet()] || fallback;
}

function repoint(scope) {
  const want = spriteUrl();
  const other = SPRITES[tileSet() === "clear" ? "classic" : "clear"];
  if (!want || !other) return;
  for (const use of scope.querySelectorAll("use[href]")) {
    const href = use.getAttribute("href");
    if (href.startsWith(`${other}#`)) use.setAttribute("href", want + href.slice(other.length));
  }
}

export function followTileSet(scope = document) {
  repoint(scope);
  new MutationObserver(() => repoint(scope)).observe(root, { attributes: true, attributeFilter: ["data-tiles"] });
}
