"""The final ranking and points of docs/RULES.md §Ranking and points against hand-made
cases."""

from fractions import Fraction as F

import pytest

from mahjong.race_rules.ranking import FINISHED, GAVE_UP, OUT, PLAYING, Standing, live_order, rank

LIMIT = 10 * 60 * 1000


def table(standings):
    return [(r.key, r.place, r.points) for r in rank(standings, LIMIT)]


def finished(key, ms):
    return Standing(key, FINISHED, F(1), ms)


def test_finishers_on_time_rank_by_time_and_score_one_point_per_player_below():
    assert table([finished("b", 300_000), finished("a", 200_000), finished("c", 400_000)]) == [
        ("a", 1, 2),
        ("b", 2, 1),
        ("c", 3, 0),
    ]


def test_finishing_after_the_limit_ranks_after_on_time_and_scores_nothing():
    late = finished("late", LIMIT + 1)
    assert table([late, finished("slow", LIMIT), Standing("p", PLAYING, F(1, 2))]) == [
        ("slow", 1, 2),
        ("late", 2, 0),
        ("p", 3, 0),
    ]


def test_unfinished_players_rank_by_progress_and_equal_progress_ties():
    standings = [
        Standing("a", PLAYING, F(1, 2)),
        Standing("b", OUT, F(3, 4)),
        Standing("c", PLAYING, F(1, 2)),
        finished("w", 100_000),
    ]
    assert table(standings) == [("w", 1, 3), ("b", 2, 0), ("a", 3, 0), ("c", 3, 0)]


def test_giving_up_ranks_last_whatever_the_progress():
    standings = [Standing("quit", GAVE_UP, F(9, 10)), Standing("slow", PLAYING, F(1, 10))]
    assert table(standings) == [("slow", 1, 0), ("quit", 2, 0)]


def test_players_who_gave_up_rank_among_themselves_by_progress():
    standings = [Standing("x", GAVE_UP, F(1, 5)), Standing("y", GAVE_UP, F(2, 5))]
    assert table(standings) == [("y", 1, 0), ("x", 2, 0)]


def test_tied_finishers_share_the_place_and_half_a_point_each():
    standings = [finished("a", 100_000), finished("b", 100_000), finished("c", 200_000)]
    assert table(standings) == [("a", 1, F(3, 2)), ("b", 1, F(3, 2)), ("c", 3, 0)]


def test_progress_compares_exactly_across_levels():
    # 34 of 68 and 47 of 94 tiles are both exactly one half: a tie.
    standings = [Standing("easy", PLAYING, F(34, 68)), Standing("medium", PLAYING, F(47, 94))]
    assert [r.place for r in rank(standings, LIMIT)] == [1, 1]


@pytest.mark.parametrize("n", [1, 2, 20])
def test_points_of_a_race_all_on_time_add_up_to_the_pairs_of_players(n):
    standings = [finished(k, 1000 * (k // 2)) for k in range(n)]
    assert sum(r.points for r in rank(standings, LIMIT)) == F(n * (n - 1), 2)


def test_the_live_panel_lists_finished_then_playing_then_out():
    standings = [
        Standing("out", OUT, F(9, 10)),
        Standing("p2", PLAYING, F(1, 2)),
        finished("f2", 300),
        Standing("p1", PLAYING, F(3, 4)),
        finished("f1", 200),
        Standing("gave", GAVE_UP, F(1, 2)),
    ]
    assert [s.key for s in live_order(standings, LIMIT)] == ["f1", "f2", "p1", "p2", "out", "gave"]
