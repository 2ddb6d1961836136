"""Glicko-2 ratings for ranked races (mahjong/race_rules/ratings.py, docs/ACCOUNTS.md §Ratings),
against tables worked out by hand and Glickman's own example."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mahjong.race_rules.ratings import (
    PROVISIONAL_DEVIATION,
    SCALE,
    START_DEVIATION,
    START_RATING,
    Glicko,
    after_idle,
    race_updates,
    update,
)

NEW = Glicko()


def test_glickmans_worked_example():
    # "Example of the Glicko-2 system": 1500 ± 200 beats 1400 ± 30, loses to 1550 ± 100
    # and to 1700 ± 300 in one period -> 1464.06 ± 151.52, volatility 0.05999.
    player = Glicko(1500, 200, 0.06)
    games = [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)]
    after = update(player, games)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


# Two new players, one game (by hand, in Glicko-2 units of 173.7178 points):
#   phi = 350 / 173.7178 = 2.014761;  g = 1 / sqrt(1 + 3 phi^2 / pi^2) = 0.669069
#   E = 0.5;  v = 1 / (g^2 * 0.25) = 8.93549;  the volatility stays 0.06 (to 1e-6)
#   phi* = sqrt(phi^2 + 0.06^2) = 2.015654;  phi' = 1 / sqrt(1/phi*^2 + 1/v) = 1.671214
#   mu' = phi'^2 * g * (1 - 0.5) = 0.934340  ->  1500 + 173.7178 * 0.934340 = 1662.31
#   RD' = 173.7178 * 1.671214 = 290.32
WINNER, LOSER, NEW_DEVIATION = 1662.31, 1337.69, 290.32


def test_a_first_win_between_new_players():
    after = race_updates([("a", NEW, 1), ("b", NEW, 2)])
    assert after["a"].rating == pytest.approx(WINNER, abs=0.01)
    assert after["b"].rating == pytest.approx(LOSER, abs=0.01)
    assert after["a"].deviation == pytest.approx(NEW_DEVIATION, abs=0.01)


def test_two_equal_players_tied_keep_equal_ratings_and_become_surer():
    after = race_updates([("a", NEW, 1), ("b", NEW, 1)])
    assert after["a"] == after["b"]
    assert after["a"].rating == START_RATING
    assert after["a"].deviation == pytest.approx(NEW_DEVIATION, abs=0.01)


def test_a_twenty_player_race_of_new_players_counts_as_one_game():
    # Every game weighs 1/19: place i of 20 scores (20 - 2i + 1) / 2 - and so gains
    # (20 - 2i + 1) / 19 of the winner's 162.31: the winner exactly as in a two-player
    # game, the last exactly as its loser, the middle in equal steps.
    after = race_updates([(i, NEW, i) for i in range(1, 21)])
    win = WINNER - START_RATING
    for place in range(1, 21):
        expected = START_RATING + win * (21 - 2 * place) / 19
        assert after[place].rating == pytest.approx(expected, abs=0.01)


def test_a_tie_in_a_twenty_player_race_shares_the_halfway_change():
    places = [1, 2, 3, 3] + list(range(5, 21))  # two players tied for 3rd
    after = race_updates([(i, NEW, place) for i, place in enumerate(places)])
    assert after[2] == after[3]
    third, fourth = (WINNER - START_RATING) * 15 / 19, (WINNER - START_RATING) * 13 / 19
    assert after[2].rating - START_RATING == pytest.approx((third + fourth) / 2, abs=0.01)


def test_two_equally_rated_tied_players_keep_equal_ratings_in_a_mixed_field():
    field = [(i, Glicko(1300 + 20 * i, 60 + 10 * i), i + 1) for i in range(20)]
    field[7] = (7, Glicko(1500, 120), 5)
    field[11] = (11, Glicko(1500, 120), 5)
    after = race_updates(field)
    assert after[7] == after[11]


def test_a_provisional_player_moves_more_than_an_established_one():
    established, newcomer = Glicko(1500, 60), Glicko(1500, START_DEVIATION)
    after = race_updates([("old", established, 2), ("new", newcomer, 1), ("x", NEW, 3)])
    assert newcomer.provisional and not established.provisional
    assert after["new"].rating - 1500 > 3 * abs(after["old"].rating - 1500)


def test_an_upset_moves_more_than_an_expected_win():
    strong, weak = Glicko(1800, 80), Glicko(1400, 80)
    upset = race_updates([("s", strong, 2), ("w", weak, 1)])
    expected = race_updates([("s", strong, 1), ("w", weak, 2)])
    assert upset["w"].rating - 1400 > 4 * (expected["s"].rating - 1800) > 0


def test_place_numbers_count_only_by_their_order():
    one = race_updates([("a", NEW, 1), ("b", NEW, 1), ("c", NEW, 3)])
    other = race_updates([("a", NEW, 0), ("b", NEW, 0), ("c", NEW, 1)])
    assert one == other


def test_a_lone_player_keeps_their_rating():
    assert race_updates([("a", Glicko(1600, 90), 1)]) == {"a": Glicko(1600, 90)}


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        race_updates([("a", NEW, 1), ("a", NEW, 2)])


def test_a_rating_is_provisional_until_its_deviation_is_110_or_less():
    assert Glicko(1500, PROVISIONAL_DEVIATION + 0.01).provisional
    assert not Glicko(1500, PROVISIONAL_DEVIATION).provisional


def test_about_fifteen_even_races_settle_a_new_rating():
    a, b = NEW, NEW
    races = 0
    while a.provisional:
        after = race_updates([("a", a, 1 + races % 2), ("b", b, 2 - races % 2)])
        a, b, races = after["a"], after["b"], races + 1
    assert 12 <= races <= 18


def test_idle_weeks_widen_the_deviation_but_never_past_a_new_players():
    settled = Glicko(1600, 80, 0.06)
    assert after_idle(settled, 6) == settled  # less than one idle period
    year = after_idle(settled, 365)
    assert year.rating == 1600
    expected = SCALE * math.sqrt((80 / SCALE) ** 2 + 52 * 0.06**2)
    assert year.deviation == pytest.approx(expected)
    assert after_idle(Glicko(1600, 340), 10_000).deviation == START_DEVIATION


ratings = st.builds(
    Glicko, st.floats(800, 2400), st.floats(40, START_DEVIATION), st.floats(0.04, 0.1)
)
fields = st.lists(st.tuples(ratings, st.integers(1, 20)), min_size=2, max_size=20)


@given(fields)
def test_no_race_moves_a_settled_field_wildly_or_makes_anyone_less_sure(field):
    standings = [(i, state, place) for i, (state, place) in enumerate(field)]
    after = race_updates(standings)
    for i, state, _place in standings:
        # Glicko-2 step 6: the deviation grows by the *new* volatility before the race
        # narrows it (a surprising result raises the volatility a hair), never past that.
        assert after[i].deviation <= math.hypot(state.deviation, SCALE * after[i].volatility)
        assert abs(after[i].rating - state.rating) < 2 * state.deviation


@given(fields)
def test_a_better_place_gains_more_than_a_worse_one_between_equals(field):
    standings = [(i, NEW, place) for i, (_state, place) in enumerate(field)]
    after = race_updates(standings)
    for i, _, place in standings:
        for j, _, other in standings:
            if place < other:
                assert after[i].rating > after[j].rating
            elif place == other:
                assert after[i] == after[j]
