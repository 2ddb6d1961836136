"""An arena's points worked out by hand (docs/RULES.md §Arenas): a five-human race with a
tie, a streak lit and ended, "all in", a flagged board, a stand-in's board."""

from fractions import Fraction as F

import pytest

from mahjong.race_rules.arena_points import (
    Board,
    RaceOutcome,
    base_points,
    on_fire,
    place_race,
    score_races,
)

LIMIT = 5 * 60_000  # a five-minute time limit


def outcome(share, in_time=True, **more):
    return RaceOutcome(key=None, share=share, in_time=in_time, **more)


def test_five_humans_with_a_tie_take_their_share_of_those_below_plus_two_for_finishing():
    boards = [
        Board("Ana", "finished", 17, 34, 60_000),
        Board("Bo", "finished", 17, 34, 70_000),
        Board("Cy", "finished", 17, 34, 70_000),  # tied with Bo
        Board("Di", "playing", 9, 34),
        Board("Ed", "gave_up", 4, 34),
    ]
    placed = {p.key: p for p in place_race(boards, LIMIT)}
    # Ana beats four of four; Bo and Cy beat two and tie one: (2 + ½) / 4; Di beats one.
    assert [placed[k].share for k in ("Ana", "Bo", "Cy", "Di", "Ed")] == [
        F(1),
        F(5, 8),
        F(5, 8),
        F(1, 4),
        F(0),
    ]
    points = {k: base_points(outcome(p.share, p.in_time)) for k, p in placed.items()}
    # 10 + 2; round(6.25) + 2; round(2.5) = 3 (a half rounds up), not finished; 0.
    assert points == {"Ana": 12, "Bo": 8, "Cy": 8, "Di": 3, "Ed": 0}


def test_finishing_after_the_time_limit_earns_no_finish_bonus():
    boards = [Board("Ana", "finished", 17, 34, LIMIT + 1), Board("Bo", "playing", 3, 34)]
    placed = {p.key: p for p in place_race(boards, LIMIT)}
    assert placed["Ana"].share == 1 and not placed["Ana"].in_time
    assert base_points(outcome(placed["Ana"].share, placed["Ana"].in_time)) == 10


def test_a_streak_of_two_top_half_races_doubles_the_next_until_a_lower_race_ends_it():
    races = [
        outcome(F(1)),  # 12, streak 1
        outcome(F(3, 4)),  # round(7.5) + 2 = 10, streak 2: on fire
        outcome(F(1)),  # 12 doubled: 24
        outcome(F(1, 2)),  # 5 + 2 = 7 doubled: 14 (half is the top half)
        outcome(F(1, 4), in_time=False),  # 3, outside the top half: not doubled, ends it
        outcome(F(1)),  # 12 again, streak 1
    ]
    scores = score_races(races)
    assert [s.points for s in scores] == [12, 10, 24, 14, 3, 12]
    assert [s.streak_applied for s in scores] == [False, False, True, True, False, False]
    assert [s.streak_after for s in scores] == [1, 2, 3, 4, 0, 1]
    assert sum(s.points for s in scores) == 75
    assert on_fire(scores[1].streak_after) and not on_fire(scores[4].streak_after)


def test_alternating_races_never_light_a_streak():
    scores = score_races([outcome(F(1)), outcome(F(0)), outcome(F(1)), outcome(F(0))])
    assert [s.points for s in scores] == [12, 2, 12, 2]
    assert not any(s.streak_applied for s in scores)


def test_a_race_alone_against_the_cpus_earns_the_bonus_only_and_keeps_the_streak():
    scores = score_races([outcome(F(1)), outcome(F(1)), outcome(None), outcome(F(1))])
    # Alone: no human to beat: 0 + 2, doubled while on fire; the streak is neither lit nor
    # broken by it, so the race after is doubled too.
    assert [s.points for s in scores] == [12, 12, 4, 24]


def test_all_in_adds_one_point_to_a_finished_race_only():
    assert base_points(outcome(F(1), all_in=True)) == 13
    assert base_points(outcome(F(1, 2), in_time=False, all_in=True)) == 5


def test_a_flagged_board_scores_nothing_and_ends_the_streak_until_it_is_cleared():
    flagged = [outcome(F(1)), outcome(F(1)), outcome(F(1), flagged=True), outcome(F(1))]
    assert [s.points for s in score_races(flagged)] == [12, 12, 0, 12]
    cleared = [outcome(F(1)), outcome(F(1)), outcome(F(1)), outcome(F(1))]
    assert [s.points for s in score_races(cleared)] == [12, 12, 24, 24]


def test_a_stand_ins_pairs_score_nothing_the_board_counts_as_given_up_at_its_own_progress():
    boards = [
        # Finished, but a stand-in made 5 of its 17 pairs: given up at 12 of 17 pairs.
        Board("Ana", "finished", 17, 34, 90_000, cpu_pairs=5),
        Board("Bo", "playing", 10, 34),  # still playing ranks above any give-up
        Board("Cy", "gave_up", 3, 34),
    ]
    placed = {p.key: p for p in place_race(boards, LIMIT)}
    assert placed["Bo"].share == 1 and placed["Ana"].share == F(1, 2)
    assert not placed["Ana"].in_time
    points = {k: base_points(outcome(p.share, p.in_time)) for k, p in placed.items()}
    assert points == {"Ana": 5, "Bo": 10, "Cy": 0}


@pytest.mark.parametrize(
    ("share", "points"), [(F(0), 2), (F(1, 20), 3), (F(3, 20), 4), (F(19, 20), 12), (F(1), 12)]
)
def test_ten_times_the_share_is_rounded_halves_up(share, points):
    assert base_points(outcome(share)) == points
