"""Draw the library layouts (L20 and up) from ASCII art and write their .layout files.

    .venv/bin/python tools/make_layouts.py            # write mahjong/layouts/<name>.layout
    .venv/bin/python tools/make_layouts.py --check    # only print the table

Every shape here was designed for this project (docs/LAYOUTS.md §Adding a layout). Once a
file is shipped it never changes (its codes would deal differently): this script is how
the files were made, kept so a new layout is drawn the same way; it refuses to overwrite
a shipped file whose places differ.

It is long because it holds the drawings themselves (35 layouts of ASCII art, ~900 of its
lines); the code that reads them is the first ~200 lines and stays apart from the art.

Art: one string per layer, one character per tile, in tile units on one grid shared by
all layers ("." or space: no tile). A tile's corner may sit half a tile off the grid:
    #  on the grid      >  half a tile right      v  half a tile down      %  both
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mahjong.engine.layout import (  # noqa: E402
    Layout,
    LayoutError,
    layout_from_positions,
    layout_to_text,
    parse_layout,
)

LAYOUT_DIR = Path(__file__).resolve().parent.parent / "mahjong" / "layouts"
OFFSETS = {"#": (0, 0), ">": (1, 0), "v": (0, 1), "%": (1, 1)}


@dataclass(frozen=True)
class Design:
    number: int
    name: str
    title_en: str
    title_es: str
    places: tuple[tuple[int, int, int], ...]


def art(*layers: str) -> list[tuple[int, int, int]]:
    """Places (half-tile x, y, layer) of ASCII-art layers."""
    places = []
    for z, layer in enumerate(layers):
        rows = [row.strip() for row in layer.strip("\n").split("\n")]
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch in OFFSETS:
                    dx, dy = OFFSETS[ch]
                    places.append((2 * c + dx, 2 * r + dy, z))
                elif ch not in ". ":
                    raise ValueError(f"layer {z} row {r}: unknown art character {ch!r}")
    return places


def block(x: float, y: float, w: int, h: int, z: int) -> list[tuple[int, int, int]]:
    """A w x h block of tiles whose top-left tile is at (x, y) in tiles (halves allowed)."""
    return [(int(2 * x) + 2 * i, int(2 * y) + 2 * j, z) for j in range(h) for i in range(w)]


DESIGNS: list[Design] = []


def design(number: int, name: str, title_en: str, title_es: str, places) -> None:
    DESIGNS.append(Design(number, name, title_en, title_es, tuple(places)))


# ----------------------------------------------------------------------------- shapes
design(
    20,
    "pyramid",
    "Pyramid",
    "Pirámide",
    block(0, 0, 8, 6, 0) + block(1, 1, 6, 4, 1) + block(2, 2, 4, 2, 2) + block(3, 2.5, 2, 1, 3),
)
design(
    21,
    "bridge",
    "Bridge",
    "Puente",
    art(
        """
        ####............####
        ####............####
        ####............####
        ####............####
        ####............####
        """,
        """
        ....................
        ..vvvvvvvvvvvvvvvv..
        ..vvvvvvvvvvvvvvvv..
        """,
        """
        ....................
        ...v..........v.....
        ...v..........v.....
        """,
    ),
)
design(
    22,
    "cat",
    "Cat",
    "Gato",
    art(
        """
        ##.......##
        ###.....###
        ###########
        ###########
        ##..###..##
        ###########
        .#########.
        ..#######..
        ....###....
        """,
        """
        ...........
        #.........#
        ...........
        ..#######..
        ...........
        ....###....
        ..#######..
        ...........
        """,
        """
        ...........
        ...........
        ...........
        ...........
        ...........
        ....>>.....
        ...........
        """,
    ),
)
design(
    23,
    "fish",
    "Fish",
    "Pez",
    art(
        """
        ....######.....
        ..#########..##
        .############..
        #.###########..
        .############..
        ..#########..##
        ....######.....
        """,
        """
        ...............
        ....######.....
        ...########....
        ...########....
        ...########....
        ....######.....
        """,
        """
        ...............
        ...............
        .....####......
        .....####......
        .....####......
        """,
    ),
)
design(
    24,
    "butterfly",
    "Butterfly",
    "Mariposa",
    art(
        """
        ###.....###
        ####...####
        #####.#####
        ###########
        .####.####.
        ..###.###..
        ..##...##..
        """,
        """
        ...........
        .##.....##.
        .###...###.
        .....#.....
        .....#.....
        .....#.....
        """,
        """
        ...........
        ...........
        .##.....##.
        """,
    ),
)
design(
    25,
    "heart",
    "Heart",
    "Corazón",
    art(
        """
        .###...###.
        #####.#####
        ###########
        ###########
        .#########.
        ..#######..
        ...#####...
        ....###....
        .....#.....
        """,
        """
        ...........
        .###...###.
        .#########.
        ..#######..
        ...#####...
        ....###....
        """,
        """
        ...........
        ...........
        ..##...##..
        ...>>>>....
        .....#.....
        """,
    ),
)
design(
    26,
    "star",
    "Star",
    "Estrella",
    art(
        """
        .....#.....
        ....###....
        ###########
        .#########.
        ..#######..
        ..###.###..
        .##.....##.
        """,
        """
        ...........
        .....#.....
        ...#####...
        ...#####...
        ...##.##...
        """,
        """
        ...........
        ...........
        ....>>.....
        ....>>.....
        """,
    ),
)
design(
    27,
    "house",
    "House",
    "Casa",
    art(
        """
        .....##.....
        ....####....
        ...######...
        ..########..
        .##########.
        ############
        .##########.
        .###.###..#.
        .###.###..#.
        .##########.
        """,
        """
        ............
        .....##.....
        ....####....
        ...######...
        ..########..
        ............
        """,
        """
        ............
        ............
        .....##.....
        ....####....
        """,
    ),
)
design(
    28,
    "fortress",
    "Fortress",
    "Fortaleza",
    art(
        """
        ###.#####.###
        #############
        ##.........##
        ##.........##
        ##...###...##
        ##...###...##
        ##.........##
        #############
        ###.#####.###
        """,
        """
        ##.........##
        ##.........##
        .............
        .............
        ....v#v......
        .............
        .............
        ##.........##
        ##.........##
        """,
        """
        %............
        .............
        .............
        .............
        .............
        .............
        .............
        .............
        .............
        """,
    ),
)
design(
    29,
    "tower",
    "Tower",
    "Torre",
    art(
        """
        #.#.#.#
        #######
        .#####.
        .#####.
        .#####.
        .#####.
        .#####.
        .#####.
        #######
        #######
        """,
        """
        .......
        .......
        .#.#.#.
        .#####.
        .#.#.#.
        .#####.
        .#.#.#.
        .#####.
        .......
        """,
        """
        .......
        .......
        .......
        ..#.#..
        ..###..
        ..###..
        ..###..
        """,
        """
        .......
        .......
        .......
        .......
        ..>>...
        ..>>...
        """,
    ),
)
design(
    30,
    "cross",
    "Cross",
    "Cruz",
    art(
        """
        ....###....
        ....###....
        ....###....
        ###########
        ###########
        ###########
        ....###....
        ....###....
        ....###....
        """,
        """
        ...........
        .....#.....
        .....#.....
        .....#.....
        .#########.
        .....#.....
        .....#.....
        .....#.....
        """,
        """
        ...........
        ...........
        ...........
        ...........
        ....>>.....
        """,
    ),
)


def rows_centred(widths, z: int, top: float = 0, centre: float = 6) -> list:
    """Rows of tiles centred on x = centre (tiles), row k at y = top + k: a row of odd
    width sits half a tile off the grid of its even neighbours."""
    places = []
    for k, width in enumerate(widths):
        if width:
            places += block(centre - width / 2, top + k, width, 1, z)
    return places


design(
    31,
    "diamond",
    "Diamond",
    "Rombo",
    rows_centred([1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1], 0, centre=4)
    + rows_centred([1, 2, 3, 4, 3, 2, 1], 1, top=2, centre=4)
    + rows_centred([1, 2, 2, 1], 2, top=3.5, centre=4),
)
design(
    32,
    "hourglass",
    "Hourglass",
    "Reloj de arena",
    rows_centred([8, 7, 6, 5, 4, 3, 4, 5, 6, 7, 8], 0, centre=4)
    + block(0, 0, 8, 1, 1)
    + block(0, 10, 8, 1, 1)
    + rows_centred([4, 3, 2], 1, top=2, centre=4)
    + rows_centred([2, 3, 4, 6], 1, top=6, centre=4)
    + rows_centred([2, 3], 2, top=8, centre=4),
)
design(
    33,
    "arrow",
    "Arrow",
    "Flecha",
    art(
        """
        ........#....
        ........##...
        ##.##########
        ##.##########
        ........##...
        ........#....
        """,
        """
        .............
        .............
        ...>>>>>>....
        .............
        """,
    ),
)
design(
    34,
    "spider",
    "Spider",
    "Araña",
    art(
        """
        #.........#
        .#...#...#.
        ..#.###.#..
        #..#####..#
        .#########.
        #..#####..#
        ..#.###.#..
        .#.......#.
        #.........#
        """,
        """
        ...........
        ...........
        ...........
        ....>>.....
        ....>>.....
        ...........
        """,
    ),
)
design(
    35,
    "owl",
    "Owl",
    "Búho",
    art(
        """
        #.......#
        ##.....##
        #########
        #########
        #########
        #########
        #########
        .#######.
        .#######.
        ..##.##..
        """,
        """
        .........
        .........
        .##...##.
        .##.#.##.
        ....#....
        ..#####..
        ..#####..
        ...###...
        """,
        """
        .........
        .........
        .........
        .........
        .........
        ...>>....
        ...>>....
        """,
    ),
)
design(
    36,
    "rocket",
    "Rocket",
    "Cohete",
    art(
        """
        ...#...
        ..###..
        ..###..
        ..###..
        ..###..
        .#####.
        ..###..
        .#####.
        #######
        #.#.#.#
        """,
        """
        .......
        ...#...
        ...#...
        ...#...
        ...#...
        ..###..
        ...#...
        ..###..
        .......
        """,
        """
        .......
        .......
        .......
        ...#...
        .......
        .......
        .......
        ...#...
        """,
    ),
)
design(
    37,
    "pine",
    "Pine tree",
    "Pino",
    rows_centred([1, 3, 5, 3, 5, 7, 5, 7, 9, 11, 2], 0, centre=6)
    + rows_centred([1, 3, 2, 3, 5, 4, 5, 7], 1, top=1, centre=6)
    + rows_centred([1, 1, 2, 3, 2, 3], 2, top=2.5, centre=6),
)
design(
    38,
    "crescent",
    "Crescent moon",
    "Luna creciente",
    art(
        """
        ...####...
        .###......
        ###.......
        ##........
        ##........
        ###.......
        .###......
        ...####...
        """,
        """
        ..........
        ..##......
        .#........
        .#........
        .#........
        .#........
        ..##......
        """,
        """
        ..........
        ..........
        .#........
        ..........
        .#........
        """,
    ),
)
design(
    39,
    "ring",
    "Ring",
    "Anillo",
    art(
        """
        ...######...
        ..##....##..
        .##......##.
        ##........##
        ##........##
        ##........##
        .##......##.
        ..##....##..
        ...######...
        """,
        """
        ....####....
        """,
    ),
)
design(
    40,
    "checkers",
    "Checkerboard",
    "Tablero",
    art(
        """
        #.#.#.#.#.#.
        .#.#.#.#.#.#
        #.#.#.#.#.#.
        .#.#.#.#.#.#
        #.#.#.#.#.#.
        .#.#.#.#.#.#
        #.#.#.#.#.#.
        .#.#.#.#.#.#
        """,
        """
        ............
        %.%.%.%.%.%.
        ............
        %.%.%.%.%.%.
        ............
        %.%.%.%.%.%.
        ............
        """,
        """
        ............
        ............
        ..%.%.%.%...
        ............
        ..%.%.%.%...
        ............
        """,
    ),
)
design(
    41,
    "sailboat",
    "Sailboat",
    "Velero",
    art(
        """
        ....#.......
        ....##......
        ....###.....
        ....####....
        ....#####...
        ..#.######..
        .##.#######.
        ###.........
        ############
        .##########.
        ..########..
        """,
        """
        ............
        ............
        ....#.......
        ....##......
        ....###.....
        ....####....
        ............
        ............
        ..########..
        """,
    ),
)
design(
    42,
    "crown",
    "Crown",
    "Corona",
    art(
        """
        #....#....#
        ##..###..##
        ###.###.###
        ###########
        ###########
        ###########
        """,
        """
        ...........
        #....#....#
        ...........
        .#########.
        ...........
        .#########.
        """,
        """
        ...........
        ...........
        ...........
        ..#..#..#..
        """,
    ),
)
design(
    43,
    "flower",
    "Flower",
    "Flor",
    art(
        """
        ....##....
        ...####...
        .##.##.##.
        ##########
        .##.##.##.
        ...####...
        ....##....
        ....#.....
        ...##.....
        ....#.....
        ....#.....
        """,
        """
        ..........
        ..........
        ....>.....
        ....>.....
        ....>.....
        """,
    ),
)
design(
    44,
    "snake",
    "Snake",
    "Serpiente",
    art(
        """
        .##########.
        ############
        ##..........
        ############
        .###########
        ..........##
        ############
        ##########..
        """,
        """
        .v..........
        ............
        ............
        ............
        ............
        ............
        ............
        """,
    ),
)
design(
    45,
    "temple",
    "Temple",
    "Templo",
    art(
        """
        ..##########..
        .############.
        ##############
        ..#.#.##.#.#..
        ..#.#.##.#.#..
        ..#.#.##.#.#..
        ..#.#.##.#.#..
        ##############
        ##############
        """,
        """
        ..............
        ..##########..
        .############.
        ..............
        ..............
        ..............
        ..............
        .############.
        ..............
        """,
        """
        ..............
        ...>>>>>>>>...
        ...>>>>>>>>...
        ..............
        ..............
        ..............
        ..............
        ...########...
        """,
        """
        ..............
        ..............
        ....######....
        """,
        """
        ..............
        .....>>>>.....
        """,
    ),
)
design(
    46,
    "windmill",
    "Windmill sails",
    "Aspas de molino",
    art(
        """
        ##.........##
        ###.......###
        .###.....###.
        ..###...###..
        ...#######...
        ....#####....
        ...#######...
        ..###...###..
        .###.....###.
        ###.......###
        ##.........##
        """,
        """
        .............
        .............
        .............
        .............
        .....###.....
        .....###.....
        .....###.....
        """,
        """
        .............
        .............
        .............
        .............
        .............
        .....v#......
        """,
    ),
)
design(
    47,
    "honeycomb",
    "Honeycomb",
    "Panal",
    art(
        """
        ..##.###.##..
        .>>.>>>.>>>..
        ##.###.###.##
        .>>>.>>>.>>>.
        .##.###.###..
        ..>>.>>>.>>..
        """,
        """
        .............
        ..>.>>..>>...
        .............
        ..>>.>>.>>...
        .............
        """,
    ),
)
design(
    48,
    "stairs",
    "Staircase",
    "Escalera",
    block(0, 0, 2, 6, 0)
    + block(2, 1, 2, 5, 0)
    + block(4, 2, 2, 4, 0)
    + block(6, 3, 2, 3, 0)
    + block(0, 0, 2, 2, 1)
    + block(2, 1, 2, 1, 1)
    + block(0.5, 0.5, 1, 2, 2),
)
design(
    49,
    "spiral",
    "Spiral",
    "Espiral",
    art(
        """
        ###########
        #.........#
        #.#######.#
        #.#.....#.#
        #.#.###.#.#
        #.#.#...#.#
        #.#.#####.#
        #.#.......#
        #.#########
        """,
        """
        .#########.
        ...........
        ...#####...
        ...........
        .....#.....
        ...........
        .....####..
        """,
    ),
)
design(
    50,
    "ziggurat",
    "Ziggurat",
    "Zigurat",
    block(1, 1, 12, 6, 0)
    + block(2, 2, 10, 4, 1)
    + block(3, 3, 8, 2, 2)
    + block(4, 3.5, 6, 1, 3)
    + block(5, 3.5, 4, 1, 4)
    + block(6, 0, 2, 1, 0)
    + block(6, 7, 2, 1, 0)
    + block(0, 3.5, 1, 1, 0)
    + block(13, 3.5, 1, 1, 0),
)
design(
    51,
    "dragon",
    "Dragon",
    "Dragón",
    art(
        """
        ##..................
        ###.......####......
        .###.....######.....
        ..####..###..###....
        ...#######....###..#
        ....#####......#####
        ...#######......###.
        ..###...###.........
        .##.......##........
        """,
        """
        ....................
        ##........####......
        .###.....#....#.....
        ..####..##....##....
        ...##.##.......##...
        ....#####......###..
        ...##...##..........
        """,
        """
        ....................
        #...................
        .##.................
        ..##.....#....#.....
        ....#.#.............
        ....>>..........#...
        """,
    ),
)


def wall(columns: int, rows: int, z: int, lift: int = 0) -> list:
    """A band of `rows` tiles winding across `columns` columns, each column half a tile
    up or down from its neighbours (a wave drawn by code, not art)."""
    wave = [0, 1, 2, 3, 3, 3, 2, 1, 0, 0, 1, 2, 3, 4, 4, 3, 2, 1, 0, 0, 0, 1, 2, 2, 1, 0, 0, 1]
    return [
        (2 * c, wave[c % len(wave)] + lift + 2 * r, z) for c in range(columns) for r in range(rows)
    ]


def towers(columns, z: int) -> list:
    """One tile on layer z at each listed column of the wall, straddling its two rows."""
    wave = wall(max(columns) + 1, 1, 0)
    return [(x + 1, y + 1, z) for x, y, _z in wave if x // 2 in columns]


design(
    52,
    "great-wall",
    "Great Wall",
    "Gran Muralla",
    wall(20, 3, 0) + wall(20, 2, 1, lift=1) + towers((1, 7, 13, 18), 2) + towers((1, 7, 13, 18), 3),
)
design(
    53,
    "city",
    "City",
    "Ciudad",
    art(
        """
        ###.####.###.####.##
        ###.####.###.####.##
        ###.####.###.####.##
        ####################
        ####################
        ###.####.###.####.##
        ###.####.###.####.##
        """,
        """
        ###..##..###..###.##
        ###..##..###..###.##
        ###......###..###...
        ....................
        ....................
        .##.###...#...###.##
        .##.###...#...###.##
        """,
        """
        .#...#....#....#..#.
        .#...#....#....#....
        .#........#.........
        ....................
        ....................
        ....#.........##....
        ....#.........##....
        """,
        """
        ..........#.........
        ..........#.........
        """,
    ),
)
design(
    54,
    "mountains",
    "Mountains",
    "Montañas",
    rows_centred([4, 6, 8, 10, 12, 12, 12], 0, top=0, centre=10)
    + rows_centred([2, 4, 6, 8, 8], 1, top=1.5, centre=10)
    + rows_centred([2, 4, 6], 2, top=2.5, centre=10)
    + rows_centred([2, 4], 3, top=3.5, centre=10)
    + rows_centred([3, 4, 4, 4], 0, top=3, centre=18)
    + rows_centred([3, 3, 3], 1, top=3.5, centre=18)
    + rows_centred([2, 2], 2, top=4, centre=18)
    + rows_centred([3, 4, 4, 4], 0, top=3, centre=2)
    + rows_centred([3, 3, 3], 1, top=3.5, centre=2)
    + rows_centred([2, 2], 2, top=4, centre=2),
)


# ----------------------------------------------------------------------------- writing
def _layout(d: Design) -> Layout:
    """The design as the reader will see it: written, then read back (file order)."""
    raw = layout_from_positions(d.places, d.name)
    return parse_layout(layout_to_text(raw), d.name)


def _comment(d: Design) -> str:
    return (
        f"{d.title_en} / {d.title_es}: L{d.number}, designed for this project.\n"
        "Drawn by tools/make_layouts.py; x, y in half-tile cells."
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true", help="print the table, write nothing")
    parser.add_argument("only", nargs="*", help="layout names (default: all)")
    args = parser.parse_args()
    print(f"{'no':>3} {'name':<16}{'tiles':>6}{'layers':>7}{'free':>6}  file")
    for d in DESIGNS:
        if args.only and d.name not in args.only:
            continue
        try:
            layout = _layout(d)
        except LayoutError as exc:
            print(f"{d.number:>3} {d.name:<16} BROKEN: {exc}")
            continue
        layers = max(z for *_, z in layout.positions) + 1
        free = layout.free_mask(layout.full).bit_count()
        path = LAYOUT_DIR / f"{d.name}.layout"
        state = "unchanged"
        if not path.exists():
            state = "new"
        elif parse_layout(path.read_text()).positions != layout.positions:
            state = "DIFFERS FROM THE SHIPPED FILE (never edit a shipped layout)"
        if state == "new" and not args.check:
            path.write_text(layout_to_text(layout, _comment(d)))
            state = "written"
        print(f"{d.number:>3} {d.name:<16}{len(layout):>6}{layers:>7}{free:>6}  {state}")


if __name__ == "__main__":
    main()
