#!/usr/bin/env python3
"""Generate the mahjong tile-face sprite ../tiles.svg and ../tiles-preview.html (stdlib only).

Every face is a <symbol id="tile-CODE" viewBox="0 0 60 80">; shared parts
(dot, bamboo stick, glyph strokes, 萬) are defined once and reused with <use>.
All lettering is drawn as stroked paths, so nothing depends on fonts.
Run:  python3 tools/make_tiles.py   (writes tiles.svg, tiles-clear.svg (tools/make_tiles_clear.py)
and tiles-preview.html in mahjong/static/mahjong/)

It is long because it is mostly drawing data (stroke paths of the glyphs, one a line);
splitting the faces over several files would only scatter one picture.
"""

import math
import os

from tile_glyphs import GLYPH_W, GLYPHS, ORDER

W, H = 60, 80
RED, GREEN, BLUE, INK = "#c8161d", "#0f7a35", "#1849a0", "#1c1c30"
GOLD, PINK, PURPLE, ORANGE, BROWN = "#e8a300", "#e0447e", "#7a36b0", "#e06a00", "#7a4520"
FLOWER_IX, SEASON_IX = "#b0206e", "#c45a00"
FLOWER_BG, SEASON_BG = "#f9dfea", "#dde9f7"

# ---------------------------------------------------------------- index glyphs
# The stroke glyphs and the faces' order are in tile_glyphs.py, shared with the Clear set.
IX_SCALE = 1.75  # glyph units -> face units (index is 17.5 units tall)
IX_X, IX_Y = 3.8, 3.6


def index(text, color):
    out, x = [], IX_X
    for ch in text:
        out.append(
            f'<use href="#tg{ch}" transform="translate({x:.1f} {IX_Y}) scale({IX_SCALE})" stroke="{color}"/>'
        )
        x += (GLYPH_W.get(ch, 6) + 1.9) * IX_SCALE
    # stroke width etc. inherited by the glyph paths
    return (
        '<g fill="none" stroke-width="2.05" stroke-linecap="round" stroke-linejoin="round">'
        + "".join(out)
        + "</g>"
    )


# ---------------------------------------------------------------- shared parts
DEFS = []
for ch, d in GLYPHS.items():
    DEFS.append(f'<path id="tg{ch}" d="{d}"/>')

# dot (circle) : viewBox -10 -10 20 20, colour = currentColor
DEFS.append(
    '<symbol id="tp-dot" viewBox="-10 -10 20 20">'
    '<circle r="9.6" fill="currentColor"/>'
    '<circle r="5.6" fill="none" stroke="#fff" stroke-width="2.2"/>'
    '<circle r="2.2" fill="#fff"/></symbol>'
)
# bamboo stick : viewBox 0 0 9 24, colour = currentColor; three darker nodes
NODES = '<rect x=".3" width="8.4" height="3" rx="1.5"/><rect x=".3" y="10.5" width="8.4" height="3" rx="1.5"/><rect x=".3" y="21" width="8.4" height="3" rx="1.5"/>'
DEFS.append(
    '<symbol id="tp-stick" viewBox="0 0 9 24">'
    '<rect x="1.2" y=".5" width="6.6" height="23" rx="2.6" fill="currentColor"/>'
    '<path d="M3.1 3.6V9.6M3.1 14.4V20.4" stroke="#fff" stroke-opacity=".55" stroke-width="1.2" stroke-linecap="round"/>'
    f'<g fill="currentColor">{NODES}</g><g fill="#000" fill-opacity=".28">{NODES}</g></symbol>'
)
# 萬 (wan, "ten thousand") on a 40 x 34 box
WAN = (
    "M2 5H38M13 1V9.5M27 1V9.5"
    "M10 12H30V23H10ZM10 17.5H30M20 12V27"
    "M5 34V26H35V31Q35 34 31.5 34"
    "M17 28 13 32.5H26M23.5 29.5 26.5 33"
)
DEFS.append(f'<path id="tp-wan" d="{WAN}"/>')
# Chinese numerals 一..九 on a 36 x 22 box
NUMERALS = {
    1: "M2 12Q18 9.5 34 11",
    2: "M7 3.5H29M2 19.5H34",
    3: "M6 2H30M8 11H28M2 20H34",
    4: "M3 2V21M3 2H33V21M3 20.5H33M14 3Q14 11 9 14M22 3V11Q22 13 24.5 13H28",
    5: "M4 2H32M17 2 14 20.5M8 10.5H27V20.5M2 20.5H34",
    6: "M16.5 0 19.5 3.5M3 7.5H33M13 12 6 21M23 12 30 21",
    7: "M2 10.5 34 6M13 0V16.5Q13 21 18 21H31.5L33 16.5",
    8: "M14 2Q14 14 3 21M21 3Q23 15 34 21",
    9: "M14.5 0Q14.5 14 3 21.5M3 7H22V17.5Q22 21 26 21H33V16",
}
for n, d in NUMERALS.items():
    DEFS.append(f'<path id="tn{n}" d="{d}"/>')

# plum blossom : viewBox -10 -10 20 20
petals = "".join(
    f'<circle cx="{5.2 * math.cos(math.radians(a - 90)):.1f}" cy="{5.2 * math.sin(math.radians(a - 90)):.1f}" r="4.6"/>'
    for a in range(0, 360, 72)
)
DEFS.append(
    f'<symbol id="tp-plum" viewBox="-10 -10 20 20"><g fill="currentColor">{petals}<circle r="4"/></g>'
    f'<circle r="2.4" fill="{GOLD}"/></symbol>'
)
# bamboo leaf (points right, base at 0,0): length 20
DEFS.append('<path id="tp-leaf" d="M0 0Q8-4.5 20 0Q8 4.5 0 0Z"/>')

# ---------------------------------------------------------------- faces
FACES = {}


def dot(cx, cy, r, color):
    return f'<use href="#tp-dot" x="{cx - r:g}" y="{cy - r:g}" width="{2 * r:g}" height="{2 * r:g}" color="{color}"/>'


def stick(cx, cy, h, color=GREEN, rot=0):
    w = h * 9 / 24
    t = f' transform="rotate({rot} {cx:g} {cy:g})"' if rot else ""
    return (
        f'<use href="#tp-stick" x="{cx - w / 2:.2f}" y="{cy - h / 2:.2f}" width="{w:.2f}" height="{h:g}"'
        f' color="{color}"{t}/>'
    )


# ---- dots
B, G_, R_ = BLUE, GREEN, RED
DOTS = {
    2: [(30, 35, 11.5, G_), (30, 63, 11.5, B)],
    3: [(19, 31, 9.2, B), (30, 49.5, 9.2, R_), (41, 68, 9.2, G_)],
    4: [(19, 36, 10, B), (41, 36, 10, G_), (19, 63, 10, G_), (41, 63, 10, B)],
    5: [(17, 32, 9, B), (43, 32, 9, G_), (30, 50, 9, R_), (17, 68, 9, G_), (43, 68, 9, B)],
    6: [(x, y, 8.4, G_ if y < 40 else R_) for y in (32, 51, 69.5) for x in (20, 40)],
    7: [(24.5, 13, 6.2, G_), (35, 22, 6.2, G_), (45.5, 31, 6.2, G_)]
    + [(x, y, 8.4, R_) for y in (50.5, 69) for x in (20, 40)],
    8: [(x, y, 7.6, B) for y in (12, 32, 51, 69.5) for x in (25, 43)],
    9: [(x, y, 7.9, c) for y, c in ((31, B), (50, R_), (69, G_)) for x in (13.5, 30, 46.5)],
}
for n, ds in DOTS.items():
    FACES[f"{n}D"] = index(str(n), BLUE) + "".join(dot(*d) for d in ds)
FACES["1D"] = index("1", BLUE) + (
    f'<circle cx="30" cy="49" r="24" fill="{GREEN}"/>'
    f'<circle cx="30" cy="49" r="19.5" fill="#fff"/>'
    + "".join(
        f'<circle cx="{30 + 14 * math.cos(math.radians(a)):.1f}" cy="{49 + 14 * math.sin(math.radians(a)):.1f}" r="3.8" fill="{BLUE}"/>'
        for a in range(0, 360, 45)
    )
    + f'<circle cx="30" cy="49" r="9" fill="{RED}"/><circle cx="30" cy="49" r="4.8" fill="none" stroke="#fff" stroke-width="1.8"/>'
)

# ---- bamboo
BAM = {
    2: [(30, 37, 25.5), (30, 65, 25.5)],
    3: [(30, 37, 25.5), (20, 65, 25.5), (40, 65, 25.5)],
    4: [(20, 37, 25.5), (40, 37, 25.5), (20, 65, 25.5), (40, 65, 25.5)],
    5: [
        (16.5, 37, 25.5),
        (43.5, 37, 25.5),
        (30, 51, 25.5, RED),
        (16.5, 65, 25.5),
        (43.5, 65, 25.5),
    ],
    6: [(x, y, 25.5) for y in (37, 65) for x in (16.5, 30, 43.5)],
    7: [(30, 30.5, 17.5, RED)] + [(x, y, 17.5) for y in (50, 69) for x in (17, 30, 43)],
    8: [
        (10, 37, 25.5),
        (50, 37, 25.5),
        (24.5, 37, 25.5, GREEN, 13),
        (35.5, 37, 25.5, GREEN, -13),
        (10, 65, 25.5),
        (50, 65, 25.5),
        (24.5, 65, 25.5, GREEN, -13),
        (35.5, 65, 25.5, GREEN, 13),
    ],
    9: [(x, y, 17.5, RED if x == 30 else GREEN) for y in (31, 50, 69) for x in (17, 30, 43)],
}
for n, ss in BAM.items():
    FACES[f"{n}B"] = index(str(n), GREEN) + "".join(stick(*s) for s in ss)
# 1B: a stylised bird (peacock-like) perched
FACES["1B"] = index("1", GREEN) + (
    # tail feathers
    f'<path d="M28 50Q12 60 8 76Q20 70 30 56Z" fill="{GREEN}"/>'
    f'<path d="M31 53Q24 66 26 78Q34 68 35 56Z" fill="{BLUE}"/>'
    f'<circle cx="11" cy="72" r="3" fill="{RED}"/><circle cx="27" cy="74" r="2.6" fill="{RED}"/>'
    # body
    f'<path d="M24 50Q22 34 36 29Q46 27 47 37Q48 50 33 56Q26 58 24 50Z" fill="{GREEN}"/>'
    # wing
    f'<path d="M28 47Q30 36 40 38Q38 49 28 47Z" fill="{BLUE}"/>'
    # head, crest, beak, eye
    f'<circle cx="43" cy="25" r="7" fill="{GREEN}"/>'
    f'<path d="M40 19Q38 12 43 10M44 18Q45 12 50 11" fill="none" stroke="{RED}" stroke-width="2.4" stroke-linecap="round"/>'
    f'<path d="M49 22 57 26 49 28Z" fill="{GOLD}"/>'
    f'<circle cx="45" cy="24" r="2.2" fill="#fff"/><circle cx="45.5" cy="24" r="1.1" fill="{INK}"/>'
    # legs and perch
    f'<path d="M34 55V63M39 53V63" stroke="{GOLD}" stroke-width="2" stroke-linecap="round"/>'
    f'<path d="M22 64H54" stroke="{BROWN}" stroke-width="3.4" stroke-linecap="round"/>'
)

# ---- characters
for n in range(1, 10):
    FACES[f"{n}C"] = (
        index(str(n), RED)
        + f'<use href="#tn{n}" x="12.5" y="22" fill="none" stroke="{INK}" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/>'
        + f'<use href="#tp-wan" transform="translate(12 46.5) scale(.9)" fill="none" stroke="{RED}" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/>'
    )

# ---- winds (Chinese characters on a 44 x 48 box at 8,26)
WINDS = {
    "E": "M3 8H41M9 14V32M9 14H35V32M9 23H35M9 32H35M22 1V47M20 34Q14 42 4 46M24 34Q30 42 40 46",
    "S": "M4 7H40M22 0V13M6 47V15H38V43Q38 47 34 47M15 19 18 23M29 19 26 23M12 27H32M14 35H30M22 27V46",
    "W": "M3 3H41M5 15V46M5 15H39V46M5 45H39M17 3V21Q17 29 10 33M27 3V29Q27 33 31 33H39",
    "N": "M16 2V44M4 18H16M4 38 16 32M28 2V40Q28 45 33 45H41V38M40 13 28 21",
}
for k, d in WINDS.items():
    FACES[k] = (
        index(k, INK)
        + f'<path transform="translate(8.9 27) scale(.96)" d="{d}" fill="none" stroke="{INK}" stroke-width="4.6" stroke-linecap="round" stroke-linejoin="round"/>'
    )

# ---- dragons
FACES["R"] = index("R", RED) + (
    f'<path d="M8 34H52V54H8ZM30 21V77" fill="none" stroke="{RED}" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>'
)
FA = (
    "M5 4H15Q13 12 4 18M9 8.5 12.5 11"
    "M26 2 28.5 5.5M27 7H39M30 9Q33 15 41 18M37 4Q33 13 24 18"
    "M4 22H40"
    "M6 26H17V32H7V38H18V44Q18 47 14 47"
    "M26 26V29Q26 32 22 34M26 26H34V30Q34 32 37 32H40"
    "M24 36H38Q34 43 24 47M28 39Q34 45 41 47"
)
FACES["G"] = index("G", GREEN) + (
    f'<path transform="translate(8 27.5) scale(.98)" d="{FA}" fill="none" stroke="{GREEN}" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/>'
)
FACES["Wh"] = index("Wh", BLUE) + (
    f'<rect x="9.5" y="25.5" width="41" height="50.5" rx="3" fill="none" stroke="{BLUE}" stroke-width="5"/>'
    f'<rect x="16.5" y="32.5" width="27" height="36.5" rx="1.5" fill="none" stroke="{BLUE}" stroke-width="2"/>'
)

# ---- flowers and seasons: a pale medallion tells the two bonus groups apart
MEDAL = '<circle cx="31" cy="50" r="27" fill="{}"/>'
FACES["F1"] = (
    index("1", FLOWER_IX)
    + MEDAL.format(FLOWER_BG)
    + (  # plum
        f'<path d="M10 76Q22 62 26 50Q30 38 46 26M27 48Q38 48 46 56M22 60Q12 54 10 44" fill="none" stroke="{BROWN}" stroke-width="3.4" stroke-linecap="round"/>'
        f'<use href="#tp-plum" x="34" y="14" width="22" height="22" color="{PINK}"/>'
        f'<use href="#tp-plum" x="36" y="46" width="19" height="19" color="{PINK}"/>'
        f'<use href="#tp-plum" x="3" y="32" width="17" height="17" color="{PINK}"/>'
        f'<use href="#tp-plum" x="18" y="34" width="14" height="14" color="{RED}"/>'
    )
)
FACES["F2"] = (
    index("2", FLOWER_IX)
    + MEDAL.format(FLOWER_BG)
    + (  # orchid
        f'<path d="M30 77Q20 55 8 46Q24 52 32 76ZM31 77Q36 48 52 36Q40 52 34 77ZM30 77Q28 60 34 44Q33 60 33 77Z" fill="{GREEN}"/>'
        f'<g fill="{PURPLE}"><path d="M38 30Q30 14 38 8Q46 14 38 30Z"/><path d="M38 30Q24 30 20 22Q32 18 38 30Z"/>'
        f'<path d="M38 30Q50 32 54 24Q44 19 38 30Z"/></g><circle cx="38" cy="29" r="3" fill="{GOLD}"/>'
        f'<path d="M38 32Q36 38 34 44" stroke="{GREEN}" stroke-width="2" fill="none"/>'
    )
)
chry = "".join(
    f'<ellipse cx="32" cy="30" rx="3.1" ry="8.6" transform="rotate({a} 32 40)"/>'
    for a in range(0, 360, 30)
)
chry2 = "".join(
    f'<ellipse cx="32" cy="33.5" rx="2.5" ry="5.5" transform="rotate({a} 32 40)"/>'
    for a in range(15, 360, 30)
)
FACES["F3"] = (
    index("3", FLOWER_IX)
    + MEDAL.format(FLOWER_BG)
    + (  # chrysanthemum
        f'<path d="M32 52Q28 64 30 78" stroke="{GREEN}" stroke-width="3" fill="none"/>'
        f'<path d="M29.5 66Q16 58 8 66Q18 74 29.5 66ZM30.5 71Q44 62 52 68Q42 78 30.5 71Z" fill="{GREEN}"/>'
        f'<g fill="{ORANGE}">{chry}</g><g fill="{GOLD}">{chry2}</g><circle cx="32" cy="40" r="4.3" fill="{ORANGE}"/>'
    )
)
leaves = "".join(
    f'<use href="#tp-leaf" transform="translate({x} {y}) rotate({a})"/>'
    for x, y, a in (
        (34, 58.6, 150),
        (34, 58.6, 175),
        (34, 58.6, -160),
        (34.6, 38.9, -30),
        (34.6, 38.9, 0),
        (34.6, 38.9, 28),
        (37.4, 22.2, -150),
        (37.4, 22.2, -175),
    )
)
FACES["F4"] = (
    index("4", FLOWER_IX)
    + MEDAL.format(FLOWER_BG)
    + (  # bamboo plant
        f'<path d="M36 78Q30 46 40 12" fill="none" stroke="{GREEN}" stroke-width="5" stroke-linecap="round"/>'
        f'<path d="M30.8 58.6H36.9M31.6 38.9H37.6M34.4 22.2H40.4" stroke="#064d20" stroke-width="2" stroke-linecap="round"/>'
        f'<g fill="#2e9e4e">{leaves}</g>'
    )
)

# ---- seasons
FACES["S1"] = (
    index("1", SEASON_IX)
    + MEDAL.format(SEASON_BG)
    + (  # spring: sprout with a bud
        f'<path d="M6 74Q30 62 54 74Z" fill="{BROWN}"/>'
        f'<path d="M30 70Q29 48 32 32" fill="none" stroke="{GREEN}" stroke-width="3.4" stroke-linecap="round"/>'
        f'<path d="M30 56Q12 60 8 42Q26 38 30 56ZM31 46Q48 50 54 32Q36 28 31 46Z" fill="#3aa84e"/>'
        f'<path d="M32 32Q24 24 28 14Q34 18 32 32ZM32 32Q40 24 38 14Q30 18 32 32Z" fill="{PINK}"/>'
    )
)
rays = "".join(
    f'<path d="M30 {48 - 25} L27 {48 - 15} H33Z" transform="rotate({a} 30 48)"/>'
    for a in range(0, 360, 30)
)
FACES["S2"] = (
    index("2", SEASON_IX)
    + MEDAL.format(SEASON_BG)
    + (  # summer: sun
        f'<g fill="{ORANGE}">{rays}</g><circle cx="30" cy="48" r="13" fill="{GOLD}" stroke="{ORANGE}" stroke-width="2.5"/>'
    )
)


def maple():
    # five-lobed leaf, centre (30,46)
    pts = []
    lobes = [(-90, 27), (-38, 24), (-142, 24), (15, 17), (-195, 17)]
    lobes.sort()
    for ang, r in lobes:
        for da, rr in ((-14, 0.55), (-6, 0.8), (0, 1.0), (6, 0.8), (14, 0.55)):
            a = math.radians(ang + da)
            pts.append((30 + r * rr * math.cos(a), 47 + r * rr * math.sin(a)))
        a = math.radians(ang + 22)
        pts.append((30 + 7 * math.cos(a), 47 + 7 * math.sin(a)))
    return "M" + " ".join(f"{x:.1f} {y:.1f}" for x, y in pts) + "Z"


FACES["S3"] = (
    index("3", SEASON_IX)
    + MEDAL.format(SEASON_BG)
    + (  # autumn: maple leaf
        f'<path d="M30 50Q30 66 24 77" fill="none" stroke="{BROWN}" stroke-width="3" stroke-linecap="round"/>'
        f'<path d="{maple()}" fill="{RED}" stroke="{ORANGE}" stroke-width="1.5" stroke-linejoin="round"/>'
        f'<path d="M30 62V26M30 49 46 38M30 49 14 38" fill="none" stroke="{ORANGE}" stroke-width="1.4"/>'
    )
)
arm = "M30 48V24M30 31 24 26M30 31 36 26M30 39 25 35M30 39 35 35"
FACES["S4"] = (
    index("4", SEASON_IX)
    + MEDAL.format(SEASON_BG)
    + (  # winter: snowflake
        f'<g fill="none" stroke="{BLUE}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round">'
        + "".join(f'<path d="{arm}" transform="rotate({a} 30 48)"/>' for a in range(0, 360, 60))
        + "</g>"
    )
)

assert sorted(ORDER) == sorted(FACES) and len(ORDER) == 42


def build():
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg">',
        "<!-- Mahjong tile faces (42 symbols, id tile-CODE, viewBox 0 0 60 80)."
        " Generated by tools/make_tiles.py; edit that, not this. -->",
        "<defs>",
        *DEFS,
        "</defs>",
    ]
    for code in ORDER:
        # fill/stroke "none" at the root: page CSS such as svg{fill:currentColor} cannot leak in
        parts.append(
            f'<symbol id="tile-{code}" viewBox="0 0 {W} {H}" fill="none" stroke="none">{FACES[code]}</symbol>'
        )
    parts.append("</svg>\n")
    return "\n".join(parts)


GROUPS = [ORDER[0:9], ORDER[9:18], ORDER[18:27], ORDER[27:34], ORDER[34:42]]

PREVIEW = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mahjong tile faces - preview</title>
<!-- Generated by tools/make_tiles.py. For checking the art only; serve this folder over http
     (file:// may block <use href="tiles.svg#..."> to an external file). -->
<style>
  body { margin: 16px; background: #2f5d46; color: #f3f0e6; font: 14px/1.4 system-ui, sans-serif; }
  h1 { font-size: 18px; } h2 { font-size: 15px; margin: 18px 0 8px; font-weight: 600; }
  .group { display: flex; flex-wrap: wrap; gap: 3px; margin-bottom: 6px; }
  .phone { width: 374px; background: #24503a; padding: 8px; border-radius: 8px; }
  figure { margin: 0 6px 6px 0; text-align: center; }
  figcaption { font: 12px monospace; margin-top: 8px; }
  /* Tile body: ivory face, rounded corners, darker edge (bottom/right) and a soft shadow.
     The face art (tiles.svg) is transparent and sits on this body. */
  .tile {
    --w: 56px;
    width: var(--w); aspect-ratio: 3 / 4; box-sizing: border-box;
    padding: calc(var(--w) * .03);
    background: linear-gradient(160deg, #fffdf5, #f3ecd6);
    border: 1px solid #b5a984; border-radius: calc(var(--w) * .12);
    box-shadow: calc(var(--w) * .05) calc(var(--w) * .06) 0 #c8b585,
                calc(var(--w) * .07) calc(var(--w) * .09) calc(var(--w) * .06) rgba(0, 0, 0, .35);
  }
  .tile svg { display: block; width: 100%; height: 100%; }
  /* "Numbers" style: the same body with a plain-text label instead of the picture. */
  .tile.num { display: flex; align-items: center; justify-content: center;
              font: 700 calc(var(--w) * .36)/1 system-ui, sans-serif; color: #1c1c30; }
  .s24 { --w: 24px; } .s28 { --w: 28px; } .s56 { --w: 56px; } .s112 { --w: 112px; }
</style>
</head>
<body>
<h1>Mahjong tile faces (tiles.svg, 42 symbols)</h1>
<p>Markup per tile: <code>&lt;div class="tile"&gt;&lt;svg viewBox="0 0 60 80"&gt;&lt;use href="tiles.svg#tile-5B"/&gt;&lt;/svg&gt;&lt;/div&gt;</code></p>
@BODY@
</body>
</html>
"""


def tile(code, cls, sprite="tiles.svg"):
    return (
        f'<div class="tile {cls}" title="{code}"><svg viewBox="0 0 60 80" role="img" aria-label="{code}">'
        f'<use href="{sprite}#tile-{code}"/></svg></div>'
    )


def preview():
    out = [
        "<h2>28 px wide (phone: about 13 tiles across a 390 px screen)</h2>",
        '<div class="phone">',
    ]
    out += ['<div class="group">' + "".join(tile(c, "s28") for c in g) + "</div>" for g in GROUPS]
    out += ["</div>", "<h2>56 px wide (desktop)</h2>"]
    out += ['<div class="group">' + "".join(tile(c, "s56") for c in g) + "</div>" for g in GROUPS]
    out += [
        "<h2>Numbers style on the same body (plain text, drawn by the site; shown for comparison)</h2>"
    ]
    out += [
        '<div class="group">'
        + "".join(f'<div class="tile num s56">{c}</div>' for c in g)
        + "</div>"
        for g in GROUPS
    ]
    out += [
        "<h2>Clear set (tiles-clear.svg), 24 px wide: the turtle on a 390 px phone</h2>",
        '<div class="phone">',
    ]
    out += [
        '<div class="group">' + "".join(tile(c, "s24", "tiles-clear.svg") for c in g) + "</div>"
        for g in GROUPS
    ]
    out += ["</div>", "<h2>Clear set, 56 px wide</h2>"]
    out += [
        '<div class="group">' + "".join(tile(c, "s56", "tiles-clear.svg") for c in g) + "</div>"
        for g in GROUPS
    ]
    out += ["<h2>112 px wide</h2>"]
    out += [
        '<div class="group">'
        + "".join(f"<figure>{tile(c, 's112')}<figcaption>{c}</figcaption></figure>" for c in g)
        + "</div>"
        for g in GROUPS
    ]
    return PREVIEW.replace("@BODY@", "\n".join(out))


if __name__ == "__main__":
    import make_tiles_clear  # the second set, "Clear" (same ids; docs/TILES.md)

    here = os.path.dirname(os.path.abspath(__file__))
    files = (
        ("tiles.svg", build()),
        ("tiles-clear.svg", make_tiles_clear.build()),
        ("tiles-preview.html", preview()),
    )
    for name, data in files:
        out = os.path.normpath(os.path.join(here, "..", "mahjong", "static", "mahjong", name))
        with open(out, "w", encoding="utf-8") as f:
            f.write(data)
        print(f"wrote {out}: {len(data.encode('utf-8'))} bytes")
