"""Ranked results are stored as ratings with their history: one write applies a race."""

import datetime

import pytest
from django.utils import timezone

from accounts import actions
from accounts.models import Player, Rating, RatingChange
from accounts.ratings import START_RATING

pytestmark = pytest.mark.django_db


def players(*nicknames):
    return [Player.objects.create(nickname=name) for name in nicknames]


def rating_of(player) -> float:
    return Rating.objects.get(player=player).value


def test_a_first_race_starts_everyone_at_1500_and_is_stored_with_history():
    a, b = players("a", "b")
    changes = actions.record_rated_result([(a, 1), (b, 2)], race_ref=1)
    assert [(c.before, c.after, c.place, c.field_size) for c in changes] == [
        (START_RATING, 1516.0, 1, 2),
        (START_RATING, 1484.0, 2, 2),
    ]
    assert rating_of(a) == 1516.0 and rating_of(b) == 1484.0
    assert Rating.objects.get(player=a).games == 1


def test_a_second_race_starts_from_the_stored_ratings():
    a, b = players("a", "b")
    actions.record_rated_result([(a, 1), (b, 2)], race_ref=1)
    actions.record_rated_result([(a, 1), (b, 1)], race_ref=2)
    # 1516 vs 1484 tie: E(a) = 1 / (1 + 10^(-32/400)) = 0.5459219; 32 * (0.5 - E)
    assert rating_of(a) == pytest.approx(1516 - 1.4695015, abs=1e-6)
    assert rating_of(a) + rating_of(b) == pytest.approx(3000)
    history = RatingChange.objects.filter(player=a)
    assert [round(c.after, 3) for c in history] == [1516.0, round(rating_of(a), 3)]


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
    total_after = sum(r.value for r in Rating.objects.all())
    assert total_after == pytest.approx(total_before)
    assert total_before == pytest.approx(20 * START_RATING)


def test_applying_the_same_race_twice_changes_nothing():
    a, b = players("a", "b")
    first = actions.record_rated_result([(a, 1), (b, 2)], race_ref=9)
    again = actions.record_rated_result([(a, 1), (b, 2)], race_ref=9)
    assert {c.pk for c in again} == {c.pk for c in first}
    assert rating_of(a) == 1516.0 and Rating.objects.get(player=a).games == 1


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


def test_the_first_ten_races_are_provisional():
    a, b = players("a", "b")
    for race in range(10):
        actions.record_rated_result([(a, 1), (b, 2)], race_ref=race)
        assert Rating.objects.get(player=a).provisional == (race < 9)


def test_the_time_of_a_change_can_be_given():
    a, b = players("a", "b")
    when = timezone.now() - datetime.timedelta(days=3)
    actions.record_rated_result([(a, 1), (b, 2)], at=when)
    assert RatingChange.objects.filter(created_at=when).count() == 2
