#!/usr/bin/env python3
"""The "Clear" tile set, drawn for small tiles (stdlib only): ../tiles-clear.svg.

The same 42 ids and viewBox as the classic set (docs/TILES.md), so a page switches sets by
switching the sprite's URL. Every face is a large index in the top half (a digit for the
suits, flowers and seasons; a letter for winds and dragons) over one bold mark in the
bottom half that names the group by its shape as well as its colour, so a player who
cannot tell red from green still tells the suits apart:

    bamboo  three rods          dots     a ring with a hole      characters  万
    winds   an arrow pointing to its side of the table (E right, S down, W left, N up)
    dragons R a boxed bar (中), G a diamond, Wh an empty double frame
    flowers a five-petal blossom    seasons  a wheel with the season's quarter filled

Run:  python3 tools/make_tiles.py   (it writes both sets and the preview)
"""

from tile_glyphs import GLYPH_W, GLYPHS, ORDER

# Digits that stay apart when a tile is 24 px wide: a flat-topped 3, and a 6 and a 9 whose
# tails are straight strokes (the classic curled ones close up into an 8 at that size).
GLYPHS = {
    **GLYPHS,
    "3": "M.6 0H5.4L2.4 4.1Q5.9 4.1 5.9 7Q5.9 10 3 10Q1.2 10 .4 8.8",
    "6": "M4.6 0 .9 5.6M.3 7.3A2.7 2.7 0 1 0 5.7 7.3A2.7 2.7 0 1 0 .3 7.3",
    "9": "M5.7 2.7A2.7 2.7 0 1 0 .3 2.7A2.7 2.7 0 1 0 5.7 2.7M5.1 4.4 1.4 10",
}

W, H = 60, 80
# Darker than the classic colours: what tells a face from the ivory is its lightness, the
# one thing red-green colour blindness leaves (a protan or deutan eye sees the reds and
# greens as one olive, and a pale pink as grey), and the lower layers are dimmed.
RED, GREEN, BLUE, INK = "#8e0b14", "#044d1d", "#12388a", "#1a1a2c"
MAGENTA, ORANGE, GOLD = "#8c0f55", "#8f3a00", "#e0a000"
PINK, PINK_LINE = "#c8286b", "#5c0a2e"

IX_TOP = 4.0  # the index: glyph units x IX_SCALE, centred
IX_SCALE = 3.3  # 10 glyph units -> 33 face units tall
IX_STROKE = 1.75  # in glyph units (5.8 face units, over 2 px at a 24 px tile)
GAP = 1.4  # between two letters, glyph units


def index(text, color, scale=IX_SCALE):
    widths = [GLYPH_W.get(ch, 6) for ch in text]
    total = (sum(widths) + GAP * (len(text) - 1)) * scale
    x = (W - total) / 2
    out = []
    for ch, w in zip(text, widths, strict=True):
        out.append(f'<use href="#cg{ch}" transform="translate({x:.2f} {IX_TOP}) scale({scale})"/>')
        x += (w + GAP) * scale
    return (
        f'<g fill="none" stroke="{color}" stroke-width="{IX_STROKE * IX_SCALE / scale:.2f}"'
        f' stroke-linecap="round" stroke-linejoin="round">' + "".join(out) + "</g>"
    )


# The bottom half: marks centred on (30, 59), about 40 x 30 units.
CY = 59
MARKS = {
    "B": (  # three rods, each cut by a pale node band
        f'<g fill="{GREEN}"><rect x="12" y="44" width="8" height="31" rx="3"/>'
        f'<rect x="26" y="44" width="8" height="31" rx="3"/><rect x="40" y="44" width="8" height="31" rx="3"/></g>'
        '<path d="M11 59.5H49" stroke="#fff" stroke-width="2.6"/>'
    ),
    "D": (  # a ring with a hole: a bold O
        f'<circle cx="30" cy="{CY}" r="12" fill="none" stroke="{BLUE}" stroke-width="7.5"/>'
        f'<circle cx="30" cy="{CY}" r="3" fill="{BLUE}"/>'
    ),
    "C": (  # 万, the short form of 萬
        f'<path d="M9 46.5H51M25 46.5Q24 64 11 75M24.5 57H44Q45 71 38 75.5Q35 76.5 32 75"'
        f' fill="none" stroke="{RED}" stroke-width="5.6" stroke-linecap="round" stroke-linejoin="round"/>'
    ),
}


def arrow(rotation):
    # pointing down, rotated round the mark's centre
    d = "M30 46V72M19 62L30 73L41 62"
    return (
        f'<path d="{d}" transform="rotate({rotation} 30 {CY})" fill="none" stroke="{INK}"'
        ' stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>'
    )


BLOSSOM = "".join(
    f'<circle cx="{30 + 8.6 * c:.1f}" cy="{CY + 8.6 * s:.1f}" r="6.6"/>'
    for c, s in ((0, -1), (0.951, -0.309), (0.588, 0.809), (-0.588, 0.809), (-0.951, -0.309))
)

QUARTERS = {  # the season's quarter of the wheel, clockwise from the top right
    1: f"M30 {CY}V{CY - 14}A14 14 0 0 1 44 {CY}Z",
    2: f"M30 {CY}H44A14 14 0 0 1 30 {CY + 14}Z",
    3: f"M30 {CY}V{CY + 14}A14 14 0 0 1 16 {CY}Z",
    4: f"M30 {CY}H16A14 14 0 0 1 30 {CY - 14}Z",
}

# Drawn once in <defs>, used by nine faces each (the sprite stays small).
DEFS = [f'<g id="cm{suit}">{mark}</g>' for suit, mark in MARKS.items()]
DEFS.append(
    f'<g id="cmF"><g fill="none" stroke="{PINK_LINE}" stroke-width="3">{BLOSSOM}</g>'
    f'<g fill="{PINK}">{BLOSSOM}</g><circle cx="30" cy="{CY}" r="5" fill="{GOLD}"'
    ' stroke="#7a3a00" stroke-width="1.2"/></g>'
)
DEFS.append(
    f'<g id="cmS" stroke="{ORANGE}"><circle cx="30" cy="{CY}" r="14" stroke-width="3.4"/>'
    f'<path d="M30 {CY - 14}V{CY + 14}M16 {CY}H44" stroke-width="2.4"/></g>'
)

FACES = {}
for n in range(1, 10):
    FACES[f"{n}B"] = index(str(n), GREEN) + '<use href="#cmB"/>'
    FACES[f"{n}D"] = index(str(n), BLUE) + '<use href="#cmD"/>'
    FACES[f"{n}C"] = index(str(n), RED) + '<use href="#cmC"/>'

for wind, turn in (("E", -90), ("S", 0), ("W", 90), ("N", 180)):
    FACES[wind] = index(wind, INK) + arrow(turn)
FACES["R"] = index("R", RED) + (
    f'<path d="M12 49H48V67H12ZM30 42V77" fill="none" stroke="{RED}" stroke-width="5.5"'
    ' stroke-linecap="round" stroke-linejoin="round"/>'
)
FACES["G"] = index("G", GREEN) + (
    f'<path d="M30 43L46 {CY}L30 75L14 {CY}Z" fill="{GREEN}"/>'
    f'<path d="M30 51L38 {CY}L30 67L22 {CY}Z" fill="#fff"/>'
)
FACES["Wh"] = index("Wh", BLUE, scale=2.75) + (
    f'<rect x="12" y="43" width="36" height="33" rx="2" fill="none" stroke="{BLUE}" stroke-width="4.5"/>'
    f'<rect x="20" y="51" width="20" height="17" fill="none" stroke="{BLUE}" stroke-width="2.5"/>'
)
for n in range(1, 5):
    FACES[f"F{n}"] = index(str(n), MAGENTA) + '<use href="#cmF"/>'
    FACES[f"S{n}"] = (
        index(str(n), ORANGE) + f'<path d="{QUARTERS[n]}" fill="{ORANGE}"/><use href="#cmS"/>'
    )
assert sorted(FACES) == sorted(ORDER)


def build():
    used = sorted({ch for code in ORDER for ch in ("Wh" if code == "Wh" else code) if ch in GLYPHS})
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg">',
        "<!-- Mahjong tile faces, set Clear (42 symbols, id tile-CODE, viewBox 0 0 60 80)."
        " Generated by tools/make_tiles_clear.py; edit that, not this. -->",
        "<defs>",
        *(f'<path id="cg{ch}" d="{GLYPHS[ch]}"/>' for ch in used),
        *DEFS,
        "</defs>",
    ]
    for code in ORDER:
        parts.append(
            f'<symbol id="tile-{code}" viewBox="0 0 {W} {H}" fill="none" stroke="none">{FACES[code]}</symbol>'
        )
    parts.append("</svg>\n")
    return "\n".join(parts)
