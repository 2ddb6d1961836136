"""A stored layout's picture: mahjong/layout_preview.py's drawing of any positions
(`layout_svg`, the same sizes and colours as the library's pictures), cached per id.
Every value it writes is a number computed from the positions the engine read, so
nothing of an uploaded file reaches the SVG."""

from functools import lru_cache

from mahjong.deals import stored_layout
from mahjong.layout_preview import layout_svg

__all__ = ["layout_svg", "stored_svg"]


@lru_cache(maxsize=256)
def stored_svg(layout_id: int) -> str:
    """A stored layout's picture (its shape never changes, so neither does this);
    LookupError when there is no such layout."""
    return layout_svg(stored_layout(layout_id).positions)
