"""Codes for deals on layouts the site stores (MJ1-U<id>-…), and the editor's test."""

import json
from collections import Counter
from pathlib import Path

import pytest

from mahjong.engine import (
    FACES,
    CodeError,
    deal_from_code,
    layout_from_positions,
    make_code,
    make_stored_code,
    parse_any_code,
    parse_code,
    parse_layout,
    playable_report,
    stored_deal,
)
from mahjong.engine.catalog import LAYOUT_DIR
from mahjong.engine.codes import SEED_LIMIT
from tests.engine.engine_helpers import assert_plan_wins, small_layout

GOLDEN_PATH = Path(__file__).parent / "data" / "engine_golden_stored_codes.json"
GOLDEN = json.loads(GOLDEN_PATH.read_text())
# The stored layouts of the golden codes: shipped files, which never change.
STORED = {
    name: parse_layout((LAYOUT_DIR / f"{name}.layout").read_text(), name)
    for name in ("turtle", "beginner", "medium")
}


@pytest.mark.parametrize("code", sorted(GOLDEN))
def test_a_pinned_stored_code_gives_exactly_its_deal(code):
    layout = STORED[GOLDEN[code]["layout"]]
    deal = deal_from_code(code, lambda layout_id: layout)
    assert " ".join(FACES[f] for f in deal.faces) == GOLDEN[code]["faces"]
    assert [list(p) for p in deal.plan] == GOLDEN[code]["plan"]
    assert deal.code == code
    assert_plan_wins(layout, deal.faces, deal.plan)


def test_stored_codes_read_back_with_the_same_tolerance_as_level_codes():
    assert make_stored_code(12, 37) == "MJ1-U12-AAAAABL"
    assert parse_any_code(" mj1-u12-aaaaabl ") == ("U", 12, 37)
    assert parse_any_code("MJ1-L00-AAAAABL") == ("L", 0, 37)
    assert parse_any_code(make_stored_code(999_999_999, SEED_LIMIT - 1)) == (
        "U",
        999_999_999,
        SEED_LIMIT - 1,
    )


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("MJ1-U0-AAAAAAA", "malformed"),
        ("MJ1-U012-AAAAAAA", "malformed"),
        ("MJ1-U1234567890-AAAAAAA", "malformed"),
        ("MJ1-U-AAAAAAA", "malformed"),
        ("MJ1-U12-AAAAAA", "malformed"),
        ("MJ3-U12-AAAAAAA", "unknown game code version"),
    ],
)
def test_malformed_stored_codes_are_refused(code, message):
    with pytest.raises(CodeError, match=message):
        parse_any_code(code)


def test_the_level_code_reader_still_takes_level_codes_only():
    assert parse_code("MJ1-L03-AAAAABL") == (3, 37)
    with pytest.raises(CodeError, match="malformed game code"):
        parse_code("MJ1-U3-AAAAABL")


def test_a_stored_code_needs_the_site_to_know_its_layout():
    with pytest.raises(CodeError, match="unknown stored layout U5"):
        deal_from_code("MJ1-U5-AAAAABL")

    def missing(layout_id):
        raise LookupError(layout_id)

    with pytest.raises(CodeError, match="unknown stored layout U5"):
        deal_from_code("MJ1-U5-AAAAABL", missing)


def test_a_stored_layout_never_deals_what_a_built_in_code_deals():
    # Same positions, same seed: the U and L seed spaces are apart, so the deals differ.
    turtle = STORED["turtle"]
    for seed in range(5):
        level = deal_from_code(make_code(0, seed))
        for layout_id in (1, 2, 100):
            stored = deal_from_code(make_stored_code(layout_id, seed), lambda _id: turtle)
            assert stored.faces != level.faces


def test_a_stored_144_tile_layout_deals_the_full_set_with_its_flowers():
    deal = stored_deal(STORED["turtle"], 3, 11)
    counts = Counter(deal.faces)
    assert all(counts[face] == 4 for face in range(34))
    assert sorted(f for f in deal.faces if f >= 34) == list(range(34, 42))


def test_the_editor_test_says_why_a_layout_cannot_be_dealt():
    assert playable_report(STORED["beginner"]) is None
    stack = layout_from_positions([(0, 0, 0), (0, 0, 1)], name="stack")
    assert "a stack of 2 tiles at column 1, row 1" in playable_report(stack)
    odd = small_layout("12121212\n43434343")
    odd = type(odd)("odd", odd.positions[:3])
    assert "3 tiles: an odd number" in playable_report(odd)
    # A stack of three beside one tile: the top pairs with the single, then the middle
    # tile has no partner while it covers the bottom one.
    tower = layout_from_positions([(0, 0, 0), (0, 0, 1), (0, 0, 2), (4, 0, 0)], name="tower")
    assert "no order clears it" in playable_report(tower)


def test_a_stored_deal_does_not_depend_on_the_order_its_places_were_listed_in():
    turtle = STORED["turtle"]
    shuffled = layout_from_positions(list(reversed(turtle.positions)), "turtle again")
    deal = stored_deal(shuffled, 7, 37)
    pinned = GOLDEN["MJ1-U7-AAAAABL"]
    assert deal.layout.positions == turtle.positions
    assert " ".join(FACES[f] for f in deal.faces) == pinned["faces"]
