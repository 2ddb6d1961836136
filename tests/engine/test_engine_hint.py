from mahjong.engine import (
    Position,
    face_id,
    hint,
    layout_by_number,
    layout_from_positions,
    new_deal,
)
from mahjong.engine.hint import NONE, PLAYABLE, WINNING


def test_a_hint_is_the_next_pair_of_a_winning_plan():
    deal = new_deal(layout_by_number(2), 4)
    position = deal.start()
    for _ in range(len(deal.plan)):
        found = hint(position, time_limit=5)
        assert found.kind == WINNING and found.winning
        position = position.remove(*found.pair)
    assert position.is_won()
    assert hint(position).kind == NONE


def test_without_a_win_a_hint_still_offers_a_playable_pair():
    # The 1B pair is playable but removing it leaves 2B stacked on 2B: no win exists.
    layout = layout_from_positions([(0, 0, 0), (0, 0, 1), (4, 0, 0), (8, 0, 0)])
    faces = [face_id(f) for f in ("2B", "2B", "1B", "1B")]
    found = hint(Position.start(layout, faces))
    assert found.kind == PLAYABLE and found.pair == (2, 3) and not found.winning


def test_a_blocked_position_has_no_hint():
    layout = layout_from_positions([(0, 0, 0), (0, 0, 1), (4, 0, 0), (4, 0, 1)])
    faces = [face_id(f) for f in ("1B", "2B", "2B", "1B")]
    assert hint(Position.start(layout, faces)).pair is None
