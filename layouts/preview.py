"""Any layout's shape as a small SVG, drawn from its positions.

mahjong/layout_preview.py draws the built-in layouts by number (the engine half of
issue 23 owns it); this draws any list of positions the same way, with the same sizes and
colours imported from it, so a stored layout's picture matches the library's. Every
value written is a number computed here: nothing of an uploaded file reaches the SVG.
"""

from functools import lru_cache

from mahjong.deals import stored_layout
from mahjong.layout_preview import FACES, HALF_H, HALF_W, LIFT, OUTLINE, PAD, SIDE


def _tile_path(x: int, y: int) -> str:
    return f"M{x} {y}h{2 * HALF_W}v{2 * HALF_H}h-{2 * HALF_W}z"


def positions_svg(positions) -> str:
    """The SVG document (text) of tiles at `positions` ((x, y, z) in half tiles)."""
    positions = [(int(x), int(y), int(z)) for x, y, z in positions]
    layers = max(z for _x, _y, z in positions) + 1
    min_x = min(x for x, _y, _z in positions)
    min_y = min(y for _x, y, _z in positions)
    width = (max(x for x, _y, _z in positions) - min_x + 2) * HALF_W + layers * LIFT + 2 * PAD
    height = (max(y for _x, y, _z in positions) - min_y + 2) * HALF_H + layers * LIFT + 2 * PAD
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}">'
    ]
    for z in range(layers):
        shift = (layers - 1 - z) * LIFT + PAD
        # Row by row, then across: a tile's side is covered by its neighbours' faces.
        corners = [
            ((x - min_x) * HALF_W + shift, (y - min_y) * HALF_H + shift)
            for y, x in sorted((y, x) for x, y, tz in positions if tz == z)
        ]
        if not corners:
            continue
        face = FACES[min(len(FACES) - 1, len(FACES) - layers + z)]
        parts.append(f'<path d="{"".join(_tile_path(x + LIFT, y + LIFT) for x, y in corners)}"')
        parts[-1] += f' fill="{SIDE}"/>'
        parts.append(
            f'<path d="{"".join(_tile_path(x, y) for x, y in corners)}" fill="{face}" '
            f'stroke="{OUTLINE}" stroke-width=".8" stroke-linejoin="round"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


@lru_cache(maxsize=256)
def stored_svg(layout_id: int) -> str:
    """A stored layout's picture (its shape never changes, so neither does this)."""
    return positions_svg(stored_layout(layout_id).positions)
