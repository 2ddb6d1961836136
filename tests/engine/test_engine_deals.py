from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong.engine import (
    NoSolvableDeal,
    layout_by_number,
    layout_from_positions,
    match_class,
    new_deal,
)
from mahjong.engine.codes import SEED_LIMIT
from mahjong.engine.tiles import FIRST_FLOWER
from tests.engine.engine_helpers import BUILT_IN_NUMBERS, assert_plan_wins, small_layout

seeds = st.integers(min_value=0, max_value=SEED_LIMIT - 1)


@settings(max_examples=60, deadline=None)
@given(number=st.sampled_from(BUILT_IN_NUMBERS), seed=seeds)
def test_every_generated_plan_is_a_legal_win(number, seed):
    layout = layout_by_number(number)
    deal = new_deal(layout, seed)
    assert len(deal.plan) == len(layout) // 2
    assert_plan_wins(layout, deal.faces, deal.plan)


@settings(max_examples=40, deadline=None)
@given(number=st.sampled_from(BUILT_IN_NUMBERS), seed=seeds)
def test_faces_come_in_matching_pairs_within_the_tile_set(number, seed):
    layout = layout_by_number(number)
    deal = new_deal(layout, seed)
    counts = Counter(deal.faces)
    regular = {face: n for face, n in counts.items() if face < FIRST_FLOWER}
    # Past a full set (docs/LAYOUTS.md §Faces) a face gets one extra pair before any
    # face gets a second: 6 copies at most up to 212 tiles.
    assert all(n in ((2, 4) if len(layout) <= 144 else (4, 6)) for n in regular.values())
    bonus = [face for face in deal.faces if face >= FIRST_FLOWER]
    assert len(bonus) == (8 if layout.flowers else 0)
    assert len(set(bonus)) == len(bonus)


def test_the_turtle_deal_uses_exactly_one_full_set():
    deal = new_deal(layout_by_number(0), 12345)
    assert sorted(deal.faces) == sorted(
        [f for f in range(34) for _ in range(4)] + list(range(34, 42))
    )


def test_small_levels_draw_their_faces_at_random_per_deal():
    layout = layout_by_number(1)
    kinds = {frozenset(new_deal(layout, seed).faces) for seed in range(20)}
    assert len(kinds) == 20


def test_deals_are_not_degenerate():
    # Identical twins side by side everywhere would make a dull deal: in a typical deal
    # only a small share of pairs are row neighbours.
    layout = layout_by_number(0)
    for seed in range(20):
        deal = new_deal(layout, seed)
        touching = sum(1 for a, b in deal.plan if (layout.left[a] | layout.right[a]) >> b & 1)
        assert touching <= len(deal.plan) // 4
        faces = deal.faces
        assert all(match_class(faces[a]) == match_class(faces[b]) for a, b in deal.plan)


def test_it_says_clearly_when_a_layout_has_no_solvable_deal():
    stack = layout_from_positions([(0, 0, 0), (0, 0, 1)], name="stack")
    with pytest.raises(NoSolvableDeal, match="no solvable deal"):
        new_deal(stack, 1)


def test_a_layout_whose_only_win_needs_backtracking_still_gets_a_deal():
    # Two separate towers of two need their tops paired first; a row of four makes
    # the search meet dead ends it must back out of.
    layout = small_layout(
        "12..12..12121212\n43..43..43434343",
        "12..12..........\n43..43..........",
    )
    for seed in range(30):
        deal = new_deal(layout, seed)
        assert_plan_wins(layout, deal.faces, deal.plan)


def test_a_custom_layout_with_flowers_needs_eight_positions():
    layout = small_layout("12121212\n43434343")
    with pytest.raises(ValueError, match="at least 8"):
        new_deal(type(layout)(layout.name, layout.positions, None, True), 1)
