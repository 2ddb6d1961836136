"""Nearest ratings race together when more players wait than fit one race, the accepted gap
widening with the wait (mahjong/race_rules/matchmaking.py, docs/RULES.md §Ranked play and
ratings)."""

import math
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from mahjong.race_rules.matchmaking import START_REACH, Waiting, pick_group, reach

T0 = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
WAIT = timedelta(seconds=20)


def line(*ratings, joined=T0):
    return [
        Waiting(k, rating, joined + timedelta(milliseconds=k)) for k, rating in enumerate(ratings)
    ]


def keys(group):
    return None if group is None else sorted(w.key for w in group)


def test_the_accepted_gap_doubles_at_half_the_wait_and_has_no_limit_at_the_wait():
    player = Waiting("a", 1500, T0)
    assert reach(player, T0, WAIT) == START_REACH
    assert reach(player, T0 + WAIT / 2, WAIT) == 2 * START_REACH
    assert reach(player, T0 + WAIT, WAIT) == math.inf


def test_a_short_line_goes_together_at_the_wait_whatever_its_ratings():
    players = line(900, 2100)
    assert pick_group(players, T0 + WAIT - timedelta(seconds=1), WAIT, 4) is None
    assert keys(pick_group(players, T0 + WAIT, WAIT, 4)) == [0, 1]


def test_a_full_line_of_far_ratings_waits_for_the_wait_and_then_goes_whole():
    players = line(900, 2100, 1500, 1200)
    assert pick_group(players, T0, WAIT, 4) is None
    assert keys(pick_group(players, T0 + WAIT, WAIT, 4)) == [0, 1, 2, 3]
    assert keys(pick_group(line(1500, 1520, 1480, 1500), T0, WAIT, 4)) == [0, 1, 2, 3]


def test_a_full_group_of_near_ratings_goes_at_once_and_leaves_the_far_ones():
    players = line(1200, 1800, 1210, 1805, 1190, 1795, 1220)
    # Size 4: the 1200s (0, 2, 4, 6) are four within 100 of the oldest: they go.
    assert keys(pick_group(players, T0, WAIT, 4)) == [0, 2, 4, 6]


def test_the_oldest_is_tried_first_but_a_younger_full_group_need_not_wait_for_it():
    players = line(2400, 1500, 1510, 1490, 1505)
    assert keys(pick_group(players, T0, WAIT, 4)) == [1, 2, 3, 4]


def test_nobody_waits_past_the_wait_once_two_are_in():
    players = line(1000, 2000, 2300, 2600, 2900)  # all 300 or more apart
    assert pick_group(players, T0 + WAIT / 2, WAIT, 4) is None
    # At the wait the oldest takes the nearest three, whatever their ratings.
    assert keys(pick_group(players, T0 + WAIT, WAIT, 4)) == [0, 1, 2, 3]


ratings = st.lists(st.floats(600, 2600), min_size=2, max_size=45)


@given(ratings, st.integers(2, 20))
def test_past_the_wait_a_group_always_forms_and_is_never_larger_than_a_race(values, size):
    group = pick_group(line(*values), T0 + WAIT, WAIT, size)
    assert group is not None and 2 <= len(group) <= size
    assert len(group) == min(size, len(values))
    assert len({w.key for w in group}) == len(group)


@given(ratings)
def test_a_group_formed_early_is_full_and_within_the_reach_of_its_oldest(values):
    players = line(*values)
    group = pick_group(players, T0, WAIT, 4)
    if group is not None and len(values) > 4:
        assert len(group) == 4
        assert max(w.rating for w in group) - min(w.rating for w in group) <= 2 * START_REACH


def test_with_no_wait_set_every_line_of_two_goes_at_once():
    assert keys(pick_group(line(900, 2100, 1500), T0, timedelta(0), 20)) == [0, 1, 2]
