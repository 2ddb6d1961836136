from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong.engine import (
    Position,
    ShuffleError,
    face_id,
    layout_by_number,
    layout_from_positions,
    new_deal,
    random_faces,
    shuffle,
)
from mahjong.engine.prng import Prng
from tests.engine.engine_helpers import assert_plan_wins


def play_until_stuck(number: int, seed: int) -> Position:
    """Random faces, random playable pairs, until no pair is left (or the board is empty)."""
    layout = layout_by_number(number)
    position = Position.start(layout, random_faces(layout, seed))
    rng = Prng(seed)
    while True:
        pairs = position.playable_pairs()
        if not pairs:
            return position
        position = position.remove(*pairs[rng.below(len(pairs))])


@settings(max_examples=40, deadline=None)
@given(number=st.sampled_from([0, 1, 2, 3, 11, 12]), seed=st.integers(0, 10**6))
def test_a_shuffle_keeps_the_tiles_and_is_solvable(number, seed):
    position = play_until_stuck(number, seed)
    if not position.alive:
        return
    result = shuffle(position, seed)
    new = result.position
    assert new.alive == position.alive
    alive = position.alive_tiles()
    assert Counter(position.faces[i] for i in alive) == Counter(new.faces[i] for i in alive)
    for i in alive:
        if i not in result.moved:
            assert new.layout.positions[i] == position.layout.positions[i]
    assert_plan_wins(new.layout, new.faces, result.plan, alive=new.alive)


def test_stacked_leftovers_are_moved_to_new_places():
    layout = layout_from_positions([(0, 0, 0), (0, 0, 1)])
    position = Position.start(layout, [face_id("1B")] * 2)
    result = shuffle(position, 5)
    assert result.moved == (1,)
    assert all(result.position.layout.positions[i][2] == 0 for i in range(2))
    assert_plan_wins(result.position.layout, result.position.faces, result.plan)


def test_crossed_towers_keep_their_places_and_get_new_faces():
    layout = layout_from_positions([(0, 0, 0), (0, 0, 1), (4, 0, 0), (4, 0, 1)])
    faces = [face_id(f) for f in ("2B", "1B", "1B", "2B")]
    result = shuffle(Position.start(layout, faces), 5)
    assert result.moved == () and result.position.layout == layout
    assert_plan_wins(layout, result.position.faces, result.plan)


def test_it_refuses_to_shuffle_a_position_that_is_not_blocked():
    deal = new_deal(layout_by_number(1), 3)
    with pytest.raises(ShuffleError, match="only allowed when"):
        shuffle(deal.start(), 1)


def test_the_same_seed_gives_the_same_shuffle():
    position = next(p for s in range(100) if (p := play_until_stuck(1, s)).alive)
    assert shuffle(position, 9) == shuffle(position, 9)
