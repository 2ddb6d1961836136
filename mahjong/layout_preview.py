"""A layout's shape as a small SVG, for the layout pickers (built-in or stored layouts).

Drawn from the layout's positions like the board draws them (half-tile units, upper
layers shifted up and left, lower layers darker: docs/ARCHITECTURE.md, the board), but
as one path per layer: the turtle is about 3 KB. Pure and cached: a layout never
changes once shipped (mahjong/engine/catalog.py), so neither does its picture. Its
colours are fixed (ivory tiles, a dark outline) and read on a light or a dark page alike.
"""

from functools import cache

from mahjong.engine.catalog import layout_by_number

HALF_W = 6  # px per half tile across
HALF_H = 8  # px per half tile down (tiles are 3:4)
LIFT = 2  # px a layer is shifted up and left
PAD = 1
FACES = ("#d8caa4", "#e6dbbb", "#efe6cc", "#f7f0dc", "#fffaf0")  # lower layers darker
SIDE = "#9c8759"
OUTLINE = "#5b4a2c"


def _tile_path(x: int, y: int) -> str:
    return f"M{x} {y}h{2 * HALF_W}v{2 * HALF_H}h-{2 * HALF_W}z"


@cache
def preview_svg(layout_number: int) -> str:
    """The SVG document (text) of a built-in layout's shape."""
    return layout_svg(layout_by_number(layout_number).positions)


def layout_svg(positions) -> str:
    """The SVG document (text) of any layout's positions (x, y, z in half-tile units),
    e.g. a stored one; numbers only, so nothing of an uploaded file reaches the SVG."""
    layers = max(z for _x, _y, z in positions) + 1
    min_x = min(x for x, _y, _z in positions)
    min_y = min(y for _x, y, _z in positions)
    width = (max(x for x, _y, _z in positions) - min_x + 2) * HALF_W + layers * LIFT + 2 * PAD
    height = (max(y for _x, y, _z in positions) - min_y + 2) * HALF_H + layers * LIFT + 2 * PAD

    def corner(x: int, y: int, z: int) -> tuple[int, int]:
        shift = (layers - 1 - z) * LIFT + PAD
        return (x - min_x) * HALF_W + shift, (y - min_y) * HALF_H + shift

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}">'
    ]
    for z in range(layers):
        # Row by row, then across: a tile's side is covered by its neighbours' faces.
        tiles = sorted((y, x) for x, y, tz in positions if tz == z)
        corners = [corner(x, y, z) for y, x in tiles]
        sides = "".join(_tile_path(px + LIFT, py + LIFT) for px, py in corners)
        faces = "".join(_tile_path(px, py) for px, py in corners)
        face = FACES[min(len(FACES) - 1, len(FACES) - layers + z)]
        parts.append(f'<path d="{sides}" fill="{SIDE}"/>')
        parts.append(
            f'<path d="{faces}" fill="{face}" stroke="{OUTLINE}" stroke-width=".8" '
            'stroke-linejoin="round"/>'
        )
    parts.append("</svg>")
    return "".join(parts)
