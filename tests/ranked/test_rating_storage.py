"""Ranked results are stored as ratings with their history: one write applies a race."""

import datetime

import pytest
from django.utils import timezone

from accounts import actions
from accounts.models import Player, Rating, RatingChange
from mahjong.race_rules.ratings import START_DEVIATION, START_RATING

pytestmark = pytest.mark.django_db


def players(*nicknames):
    return [Player.objects.create(nickname=name) for name in nicknames]


def rating_of(player) -> float:
    return Rating.objects.get(player=player).value


def test_a_first_race_starts_everyone_at_1500_and_is_stored_with_history():
    a, b = players("a", "b")
    changes = actions.record_rated_result([(a, 1), (b, 2)], race_ref=1)
    # tests/ranked/test_rating_maths.py works these figures out by hand.
    assert [(c.before, round(c.after, 2), c.place, c.field_size) for c in changes] == [
        (START_RATING, 1662.31, 1, 2),
        (START_RATING, 1337.69, 2, 2),
    ]
    assert [c.signed_delta for c in changes] == ["+162", "−162"]
    stored = Rating.objects.get(player=a)
    assert stored.games == 1 and round(stored.deviation, 2) == 290.32 and stored.provisional
    assert changes[0].deviation == stored.deviation


def test_a_second_race_starts_from_the_stored_ratings():
    a, b = players("a", "b")
    actions.record_rated_result([(a, 1), (b, 2)], race_ref=1)
    actions.record_rated_result([(a, 1), (b, 1)], race_ref=2)
    # A tie against a lower-rated player costs the higher one: it expected to win.
    assert 1500 < rating_of(a) < 1662.31 and rating_of(b) > 1337.69
    assert Rating.objects.get(player=a).deviation < 290
    history = RatingChange.objects.filter(player=a)
    assert [round(c.after, 3) for c in history] == [1662.311, round(rating_of(a), 3)]


def test_twenty_players_with_two_equally_rated_tied_players_keep_them_equal():
    field = players(*(f"p{i}" for i in range(20)))
    # Race 1 ties the players in pairs (p0-p1, p2-p3, ...): ratings spread out, and
    # each pair stays equal. Race 2 puts p2 and p3 together again, among distinct places.
    actions.record_rated_result([(p, 1 + i // 2 * 2) for i, p in enumerate(field)], race_ref=1)
    p2, p3 = field[2], field[3]
    assert rating_of(p2) == rating_of(p3) != START_RATING
    total_before = sum(r.value for r in Rating.objects.all())
    places = [(p, i + 1) for i, p in enumerate(field)]
    places[3] = (p3, 3)  # tied with p2 for 3rd
    actions.record_rated_result(places, race_ref=2)
    assert rating_of(p2) == rating_of(p3)
    assert total_before == pytest.approx(20 * START_RATING)


def test_applying_the_same_race_twice_changes_nothing():
    a, b = players("a", "b")
    first = actions.record_rated_result([(a, 1), (b, 2)], race_ref=9)
    again = actions.record_rated_result([(a, 1), (b, 2)], race_ref=9)
    assert {c.pk for c in again} == {c.pk for c in first}
    assert round(rating_of(a), 2) == 1662.31 and Rating.objects.get(player=a).games == 1


@pytest.mark.parametrize(
    "places, error",
    [
        ([1, 0], "must be a whole number from 1"),
        ([1, "2"], "must be a whole number from 1"),
        ([1, True], "must be a whole number from 1"),
    ],
)
def test_bad_places_are_refused_and_change_nothing(places, error):
    a, b = players("a", "b")
    with pytest.raises(actions.RatingError, match=error):
        actions.record_rated_result(list(zip([a, b], places, strict=True)))
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_player_listed_twice_is_refused():
    (a,) = players("a")
    with pytest.raises(actions.RatingError, match="listed twice"):
        actions.record_rated_result([(a, 1), (a, 2)])
    assert not Rating.objects.exists()


def test_a_race_with_one_human_is_not_rated():
    (a,) = players("a")
    assert actions.record_rated_result([(a, 1)], race_ref=3) == []
    assert not Rating.objects.exists()


def test_a_rating_is_provisional_until_its_deviation_settles():
    a, b = players("a", "b")
    for race in range(30):
        actions.record_rated_result([(a, 1 + race % 2), (b, 2 - race % 2)], race_ref=race)
        rating = Rating.objects.get(player=a)
        assert rating.provisional == (rating.deviation > 110)
    assert not rating.provisional and rating.deviation < START_DEVIATION / 3


def test_weeks_away_make_the_next_race_move_a_rating_more():
    a, b, c, d = players("a", "b", "c", "d")
    start = timezone.now() - datetime.timedelta(days=400)
    for race in range(20):
        at = start + datetime.timedelta(hours=race)
        actions.record_rated_result([(a, 1 + race % 2), (b, 2 - race % 2)], race_ref=race, at=at)
        actions.record_rated_result(
            [(c, 1 + race % 2), (d, 2 - race % 2)], race_ref=100 + race, at=at
        )
    soon = start + datetime.timedelta(days=1)
    late = start + datetime.timedelta(days=365)
    before_a, before_c = rating_of(a), rating_of(c)
    actions.record_rated_result([(a, 1), (b, 2)], race_ref=50, at=soon)
    actions.record_rated_result([(c, 1), (d, 2)], race_ref=150, at=late)
    assert rating_of(c) - before_c > 1.2 * (rating_of(a) - before_a) > 0


def test_the_time_of_a_change_can_be_given():
    a, b = players("a", "b")
    when = timezone.now() - datetime.timedelta(days=3)
    actions.record_rated_result([(a, 1), (b, 2)], at=when)
    assert RatingChange.objects.filter(created_at=when).count() == 2
