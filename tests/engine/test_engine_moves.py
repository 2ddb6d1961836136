import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong.engine import IllegalMove, Position, layout_by_number, match_class, new_deal
from tests.engine.engine_helpers import BUILT_IN_NUMBERS


def start(number=0, seed=7):
    deal = new_deal(layout_by_number(number), seed)
    return deal, deal.start()


def test_it_applies_a_legal_pair_and_undoes_it():
    deal, position = start()
    a, b = deal.plan[0]
    after = position.remove(a, b)
    assert not after.is_alive(a) and not after.is_alive(b)
    assert after.removed_count() == 2
    assert after.undo(a, b) == position


def test_progress_is_a_whole_percent_of_removed_tiles():
    deal, position = start()
    for k, (a, b) in enumerate(deal.plan, start=1):
        position = position.remove(a, b)
        assert position.progress() == 2 * k * 100 // 144
    assert position.progress() == 100 and position.is_won()


def test_it_rejects_non_matching_removed_and_unknown_tiles():
    deal, position = start()
    free = position.free_tiles()
    a = free[0]
    other = next(b for b in free if match_class(deal.faces[b]) != match_class(deal.faces[a]))
    assert position.can_remove(a, other)[0] is False
    assert "does not match" in position.can_remove(a, other)[1]
    assert position.can_remove(a, a) == (False, "a tile cannot pair with itself")
    assert position.can_remove(a, 999)[0] is False
    i, j = deal.plan[0]
    gone = position.remove(i, j)
    assert "already been removed" in gone.can_remove(i, j)[1]
    with pytest.raises(IllegalMove):
        gone.remove(i, j)


def test_undo_refuses_a_pair_that_is_still_on_the_table():
    deal, position = start()
    with pytest.raises(IllegalMove, match="still on the table"):
        position.undo(*deal.plan[0])


def test_blocked_means_no_free_matching_pair():
    # Two columns of two, faces crossed: only the tops are free and they differ.
    from mahjong.engine import face_id, layout_from_positions

    layout = layout_from_positions([(0, 0, 0), (0, 0, 1), (4, 0, 0), (4, 0, 1)])
    faces = [face_id(f) for f in ("1B", "2B", "2B", "1B")]
    position = Position.start(layout, faces)
    assert position.is_blocked() and position.playable_pairs() == []


@settings(max_examples=40, deadline=None)
@given(number=st.sampled_from(BUILT_IN_NUMBERS), seed=st.integers(0, 10**6), data=st.data())
def test_the_engine_never_accepts_an_illegal_pair(number, seed, data):
    deal = new_deal(layout_by_number(number), seed)
    position = deal.start()
    for _ in range(8):
        alive = position.alive_tiles()
        if len(alive) < 2:
            break
        i = data.draw(st.sampled_from(alive))
        j = data.draw(st.sampled_from(alive))
        legal = (
            i != j
            and position.is_free(i)
            and position.is_free(j)
            and match_class(deal.faces[i]) == match_class(deal.faces[j])
        )
        assert position.can_remove(i, j)[0] == legal
        if legal:
            position = position.remove(i, j)
        else:
            with pytest.raises(IllegalMove):
                position.remove(i, j)
