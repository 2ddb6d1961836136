"""The rating maths of docs/RULES.md §Ranked play and ratings: pairwise Elo against
hand-computed cases, and its invariants."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts.ratings import (
    PROVISIONAL_GAMES,
    START_RATING,
    K,
    expected_score,
    is_provisional,
    rating_changes,
)


def test_the_documented_constants():
    assert (START_RATING, K, PROVISIONAL_GAMES) == (1500, 32, 10)


def test_equal_ratings_expect_half_a_point():
    assert expected_score(1500, 1500) == 0.5


def test_a_win_between_equals_moves_sixteen_points_each_way():
    # E = 0.5, R' = R + 32/1 * (1 - 0.5)
    assert rating_changes([("a", 1500, 1), ("b", 1500, 2)]) == {"a": 16.0, "b": -16.0}


def test_a_tie_between_equals_changes_nothing():
    assert rating_changes([("a", 1500, 1), ("b", 1500, 1)]) == {"a": 0.0, "b": 0.0}


def test_an_upset_by_two_hundred_points():
    # E(1400 vs 1600) = 1 / (1 + 10^0.5) = 0.2402530734; 32 * (1 - 0.2402530734)
    changes = rating_changes([("strong", 1600, 2), ("weak", 1400, 1)])
    assert changes["weak"] == pytest.approx(24.3119017, abs=1e-6)
    assert changes["strong"] == pytest.approx(-24.3119017, abs=1e-6)


def test_a_tie_for_second_among_three_equals():
    # K/(N-1) = 16. First: S = 2, E = 1 -> +16. Tied pair: S = 0 + 0.5, E = 1 -> -8.
    changes = rating_changes([("a", 1500, 1), ("b", 1500, 2), ("c", 1500, 2)])
    assert changes == {"a": 16.0, "b": -8.0, "c": -8.0}


def test_three_players_finishing_in_reverse_rating_order():
    # 1400: E = 0.3599350 (vs 1500) + 0.2402531 (vs 1600); S = 2 -> 16 * 1.3998119
    # 1500: E = 0.6400650 + 0.3599350 = 1; S = 1 -> 0
    changes = rating_changes([("r1600", 1600, 3), ("r1500", 1500, 2), ("r1400", 1400, 1)])
    assert changes["r1400"] == pytest.approx(22.3969909, abs=1e-6)
    assert changes["r1500"] == pytest.approx(0.0, abs=1e-9)
    assert changes["r1600"] == pytest.approx(-22.3969909, abs=1e-6)


def test_a_twenty_player_race_of_equals_with_a_tie_in_the_middle():
    # Places 1..20, but the 10th and 11th finishers share place 10. K/(N-1) = 32/19 and
    # every E is 19 * 0.5 = 9.5. Winner S = 19 -> +16; last S = 0 -> -16; the tied pair
    # has 9 below and one tie: S = 9.5 -> 0.
    places = [*range(1, 11), 10, *range(12, 21)]
    standings = [(f"p{i}", 1500, place) for i, place in enumerate(places)]
    changes = rating_changes(standings)
    assert changes["p0"] == pytest.approx(16.0)
    assert changes["p19"] == pytest.approx(-16.0)
    assert changes["p9"] == changes["p10"] == pytest.approx(0.0, abs=1e-12)
    # The 9th finisher: 11 below, S = 11 -> 32/19 * 1.5
    assert changes["p8"] == pytest.approx(32 / 19 * 1.5)


def test_two_equally_rated_tied_players_keep_equal_ratings_in_a_mixed_twenty_player_race():
    ratings = [1200 + 37 * i for i in range(20)]
    ratings[7] = ratings[12] = 1580
    places = [1 + (i * 7) % 20 for i in range(20)]
    places[12] = places[7]
    standings = [(i, r, p) for i, (r, p) in enumerate(zip(ratings, places, strict=True))]
    changes = rating_changes(standings)
    assert ratings[7] + changes[7] == ratings[12] + changes[12]
    assert sum(changes.values()) == pytest.approx(0.0, abs=1e-9)


def test_place_numbers_count_only_by_their_order():
    a = rating_changes([("a", 1510, 1), ("b", 1490, 1), ("c", 1500, 3)])
    b = rating_changes([("a", 1510, 0), ("b", 1490, 0), ("c", 1500, 1)])
    assert a == b


def test_a_lone_player_keeps_their_rating():
    assert rating_changes([("solo", 1500, 1)]) == {"solo": 0.0}
    assert rating_changes([]) == {}


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError, match="appears twice"):
        rating_changes([("a", 1500, 1), ("a", 1500, 2)])


def test_a_rating_is_provisional_for_the_first_ten_games():
    assert is_provisional(0) and is_provisional(9)
    assert not is_provisional(10)


ratings = st.floats(min_value=600, max_value=2800, allow_nan=False)
fields = st.lists(st.tuples(ratings, st.integers(1, 5)), min_size=2, max_size=20)


def as_standings(field):
    return [(i, rating, place) for i, (rating, place) in enumerate(field)]


@given(fields)
def test_changes_sum_to_zero_when_every_k_is_equal(field):
    assert sum(rating_changes(as_standings(field)).values()) == pytest.approx(0.0, abs=1e-9)


@given(fields)
def test_no_race_moves_a_rating_by_more_than_k(field):
    assert all(abs(change) <= K for change in rating_changes(as_standings(field)).values())


@given(fields, ratings, st.integers(1, 5))
def test_equally_rated_players_in_the_same_group_change_equally(field, rating, place):
    standings = [*as_standings(field), ("x", rating, place), ("y", rating, place)]
    changes = rating_changes(standings)
    assert changes["x"] == changes["y"]


@given(fields)
def test_a_better_place_gains_more_than_a_worse_one_between_equally_rated_players(field):
    standings = [*as_standings(field), ("better", 1500, 1), ("worse", 1500, 6)]
    changes = rating_changes(standings)
    assert changes["better"] > changes["worse"]


@given(fields, st.floats(min_value=1, max_value=64))
def test_k_scales_every_change(field, k):
    base = rating_changes(as_standings(field))
    scaled = rating_changes(as_standings(field), k=k)
    for player, change in base.items():
        assert scaled[player] == pytest.approx(change * k / K, abs=1e-9)
