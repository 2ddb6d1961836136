"""Named layout texts for the stored-layout tests (tests/test_layouts_*.py)."""

from mahjong import deals
from mahjong.engine.catalog import layout_by_number
from mahjong.engine.layout import layout_from_positions, layout_to_text


def row_of(tiles: int, y: int = 0) -> list[tuple[int, int, int]]:
    return [(2 * x, y, 0) for x in range(tiles)]


def flat_text(tiles: int = 8, comment: str = "") -> str:
    """A one-layer layout of `tiles` tiles in rows of eight: always solvable."""
    positions = [(2 * (i % 8), 2 * (i // 8), 0) for i in range(tiles)]
    return layout_to_text(layout_from_positions(positions), comment)


def beginner_text() -> str:
    """The Beginner level's shape written out as a KMahjongg v1.1 file."""
    return layout_to_text(layout_by_number(1))


def tower_text() -> str:
    """Four tiles stacked: readable, but only the top one is ever free, so never won."""
    return layout_to_text(layout_from_positions([(0, 0, z) for z in range(4)]))


BROKEN_TEXT = "kmahjongg-layout-v1.1\nw4\nh2\nd1\n12..\n4x..\n"  # line 6: unknown 'x'


def forget_cached_deals() -> None:
    """Empty the caches of deals and stored layouts (mahjong/deals.py): the next read of
    a U code goes to the database."""
    deals.deal_for.cache_clear()
    deals.stored_layout.cache_clear()
