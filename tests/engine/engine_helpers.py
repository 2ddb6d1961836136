"""Small shared fixtures for the engine tests (no database, no Django)."""

from __future__ import annotations

from mahjong.engine import CATALOG, Position, layout_by_number, parse_layout

BUILT_IN_NUMBERS = [entry.number for entry in CATALOG]


def built_in_layouts():
    return [layout_by_number(n) for n in BUILT_IN_NUMBERS]


def assert_plan_wins(layout, faces, plan, alive=None):
    """Play the plan move by move through the rules; it must empty the table."""
    position = Position(layout, tuple(faces), layout.full if alive is None else alive)
    for i, j in plan:
        ok, reason = position.can_remove(i, j)
        assert ok, f"illegal pair ({i}, {j}): {reason}"
        position = position.remove(i, j)
    assert position.is_won(), "the plan leaves tiles on the table"


def layout_text(*layers: str, width: int | None = None, height: int | None = None) -> str:
    """A v1.1 layout from layer strings (rows separated by newlines)."""
    rows = [layer.strip("\n").split("\n") for layer in layers]
    width = width or len(rows[0][0])
    height = height or len(rows[0])
    body = "\n".join("\n".join(layer) for layer in rows)
    return f"kmahjongg-layout-v1.1\nw{width}\nh{height}\nd{len(layers)}\n{body}\n"


def small_layout(*layers: str):
    return parse_layout(layout_text(*layers), "test")
