"""The ranked quick-match: a queue per level grouped into races that start by themselves
and are rated when they end (docs/RULES.md §Ranked play and ratings), with an injected
clock."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import Player, Rating, RatingChange
from mahjong.race_rules.ratings import Glicko, race_updates
from mahjong.rules import MAX_SEATS
from rooms import sweeper
from rooms.core import serializers
from rooms.core.boards import deal_for
from rooms.lobby import actions as lobby
from rooms.models import QueueEntry, Race, Room, SiteDefaults
from rooms.race import actions as races
from rooms.race import end as race_end
from rooms.ranked import actions as ranked
from tests.rooms.rooms_helpers import refused, room_with

T0 = timezone.now()
WAIT = timedelta(seconds=20)
SEED = 12345


@pytest.fixture(autouse=True)
def twenty_second_wait(settings):
    settings.RANKED_WAIT_SECONDS = 20


def waiting(*nicknames, level="beginner", at=T0):
    players = [Player.objects.create() for _ in nicknames]
    for player, nickname in zip(players, nicknames, strict=True):
        ranked.join_queue(player, level, nickname, now=at)
    return players


def ranked_race(*nicknames, level="beginner"):
    """A started ranked race of these players, and a moment after its go."""
    players = waiting(*nicknames, level=level)
    (code,) = ranked.form_groups(level, now=T0 + WAIT, seed=SEED)
    race = Room.objects.get(code=code).current_race()
    return race, players, race.go_at + timedelta(seconds=1)


def play_pairs(race, player, count, now):
    entry = race.entries.get(seat__player=player)
    for n, pair in enumerate(deal_for(entry.code).plan[:count]):
        races.play_pair(player, race.room.code, list(pair), n, now=now)


# --- the queue -------------------------------------------------------------------------
@pytest.mark.django_db
def test_two_waiting_players_are_grouped_after_the_wait_and_their_race_starts_itself():
    ana, bo = waiting("Ana", "Bo")
    assert ranked.form_groups("beginner", now=T0 + WAIT - timedelta(seconds=1)) == []
    (code,) = ranked.form_groups("beginner", now=T0 + WAIT)
    room = Room.objects.get(code=code)
    assert room.ranked
    assert sorted(s.nickname for s in room.seats.all()) == ["Ana", "Bo"]
    race = room.current_race()
    assert race.status == Race.Status.RUNNING and race.entries.count() == 2
    assert not QueueEntry.objects.exists()
    assert ranked.status(ana) == {"waiting": False, "room": code}


@pytest.mark.django_db
def test_one_player_alone_keeps_waiting_however_long():
    (ana,) = waiting("Ana")
    assert ranked.form_groups(now=T0 + timedelta(hours=1)) == []
    assert ranked.status(ana, now=T0 + WAIT)["waiting"] is True


@pytest.mark.django_db
def test_twenty_waiting_players_start_at_once_and_the_twenty_first_keeps_waiting():
    players = waiting(*(f"P{k}" for k in range(MAX_SEATS + 1)))
    (code,) = ranked.form_groups("beginner", now=T0)  # no wait needed when full
    room = Room.objects.get(code=code)
    assert room.seats.count() == MAX_SEATS
    assert list(QueueEntry.objects.values_list("player", flat=True)) == [players[-1].pk]


@pytest.mark.django_db
def test_joining_the_queue_groups_at_once_when_it_is_due():
    waiting("Ana", at=T0)
    waiting("Bo", at=T0 + WAIT)
    assert len(ranked.form_groups("beginner", now=T0 + WAIT)) == 1


@pytest.mark.django_db
def test_a_second_grouping_pass_finds_nobody_to_group_again():
    waiting("Ana", "Bo", "Cy")
    assert len(ranked.form_groups(now=T0 + WAIT)) == 1
    assert ranked.form_groups(now=T0 + WAIT) == []
    assert Room.objects.filter(ranked=True).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_grouping_pass_skips_players_another_pass_is_seating():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no row locks; it runs one writer at a time anyway")
    waiting("Ana", "Bo", "Cy", "Di")
    held, release = threading.Event(), threading.Event()

    def other_pass():  # holds Ana and Bo as a pass that is still seating them would
        with transaction.atomic():
            rows = QueueEntry.objects.select_for_update().order_by("joined_at", "pk")[:2]
            list(rows)
            held.set()
            release.wait(10)
        connection.close()

    thread = threading.Thread(target=other_pass)
    thread.start()
    held.wait(10)
    try:
        (code,) = ranked.form_groups("beginner", now=T0 + WAIT)
    finally:
        release.set()
        thread.join()
    seated = Room.objects.get(code=code).seats.values_list("nickname", flat=True)
    assert sorted(seated) == ["Cy", "Di"]
    assert QueueEntry.objects.count() == 2


@pytest.mark.django_db
def test_levels_are_separate_queues():
    waiting("Ana", level="easy")
    waiting("Bo", level="hard")
    assert ranked.form_groups(now=T0 + WAIT) == []


@pytest.mark.django_db
def test_joining_again_keeps_the_place_and_another_level_moves_the_player():
    (ana,) = waiting("Ana", at=T0)
    ranked.join_queue(ana, "beginner", "Ana", now=T0 + WAIT)
    assert QueueEntry.objects.get(player=ana).joined_at == T0
    ranked.join_queue(ana, "hard", "Ana", now=T0 + WAIT)
    entry = QueueEntry.objects.get(player=ana)
    assert (entry.level, entry.joined_at) == ("hard", T0 + WAIT)


@pytest.mark.django_db
def test_bad_levels_and_nicknames_are_refused_and_change_nothing():
    player = Player.objects.create(nickname="Old")
    assert "level" in refused("bad_level", ranked.join_queue, player, "expert", "Ana")
    refused("bad_level", ranked.join_queue, player, None, "Ana")
    refused("bad_nickname", ranked.join_queue, player, "easy", "   ")
    refused("bad_nickname", ranked.join_queue, player, "easy", "x" * 25)
    player.refresh_from_db()
    assert player.nickname == "Old" and not QueueEntry.objects.exists()


@pytest.mark.django_db
def test_leaving_the_queue_stops_the_wait():
    ana, bo = waiting("Ana", "Bo")
    assert ranked.leave_queue(ana) is True
    assert ranked.leave_queue(ana) is False
    assert ranked.form_groups(now=T0 + WAIT) == []
    assert ranked.status(ana) == {"waiting": False, "room": None}


@pytest.mark.django_db
def test_a_player_in_a_running_ranked_race_cannot_queue_again():
    race, (ana, bo), now = ranked_race("Ana", "Bo")
    refused("in_race", ranked.join_queue, ana, "easy", "Ana", now=now)
    races.give_up(ana, race.room.code, now=now)
    assert ranked.join_queue(ana, "easy", "Ana", now=now).level == "easy"


@pytest.mark.django_db
def test_the_sweeper_groups_waiting_players():
    waiting("Ana", "Bo", level="medium")
    done = sweeper.sweep(now=T0 + WAIT)
    assert len(done["grouped"]) == 1
    assert Room.objects.get(code=done["grouped"][0]).level == "medium"


# --- ranked rooms ----------------------------------------------------------------------
@pytest.mark.django_db
def test_a_ranked_room_has_the_site_defaults_at_its_level_with_flowers_and_handicap_off():
    defaults = SiteDefaults.load()
    defaults.level, defaults.hints, defaults.flowers, defaults.handicap = "hard", 7, True, True
    defaults.show_matches = True
    defaults.save()
    race, _, _ = ranked_race("Ana", "Bo", level="easy")
    rules = race.rules
    assert (rules["level"], rules["hints"], rules["flowers"], rules["handicap"]) == (
        "easy",
        7,
        False,
        False,
    )
    assert race.entries.filter(seat__cpu_level="").count() == 2
    assert rules["show_matches"] is False  # a helper, the same for everyone: off


@pytest.mark.django_db
def test_nobody_can_change_seat_or_start_a_ranked_room():
    race, (ana, bo), now = ranked_race("Ana", "Bo")
    code = race.room.code
    refused("ranked", lobby.update_rules, ana, code, {"hints": 9}, now=now)
    refused("ranked", lobby.add_cpu, ana, code, "sharp")
    refused("ranked", lobby.join_room, Player.objects.create(), code, "Late")
    for player in (ana, bo):
        races.give_up(player, code, now=now)
    refused("ranked", races.start_race, ana, code, now=now)
    refused("ranked", lobby.remove_seat, ana, code, race.entries.first().seat_id, now=now)
    assert race.room.seats.count() == 2 and race.room.races.count() == 1


@pytest.mark.django_db
def test_a_crowded_level_seats_near_ratings_together_and_nobody_past_the_wait():
    lows = waiting(*(f"L{k}" for k in range(25)))
    highs = waiting(*(f"H{k}" for k in range(15)))
    for k, player in enumerate(lows):
        Rating.objects.create(player=player, value=1180 + k, deviation=90, games=20)
    for k, player in enumerate(highs):
        Rating.objects.create(player=player, value=1820 + k, deviation=90, games=20)
    (first,) = ranked.form_groups("beginner", now=T0)  # 20 within reach: they go at once
    assert {s.player_id for s in Room.objects.get(code=first).seats.all()} <= {p.pk for p in lows}
    assert ranked.form_groups("beginner", now=T0 + WAIT / 2) == []  # 5 lows and 15 highs:
    # a full line, but not of near ratings
    (second,) = ranked.form_groups("beginner", now=T0 + WAIT)
    assert Room.objects.get(code=second).seats.count() == 20
    assert not QueueEntry.objects.exists()


# --- ratings ---------------------------------------------------------------------------
def rating(player) -> float:
    return Rating.objects.get(player=player).value


@pytest.mark.django_db
def test_a_ranked_race_of_three_rates_the_places_the_race_gave():
    race, (ana, bo, cy), now = ranked_race("Ana", "Bo", "Cy")
    start = {ana: Glicko(1600, 80), bo: Glicko(1500, 200), cy: Glicko(1400, 120)}
    for player, state in start.items():
        Rating.objects.create(player=player, value=state.rating, deviation=state.deviation, games=3)
    code = race.room.code
    play_pairs(race, cy, 2, now)  # Cy first, Ana second, Bo last (all gave up)
    play_pairs(race, ana, 1, now)
    for player in (cy, ana, bo):
        races.give_up(player, code, now=now)
    # The maths is checked against hand-worked tables in tests/ranked/test_rating_maths.py;
    # here: the race fed it these places and stored what it gave.
    expected = race_updates([(ana, start[ana], 2), (bo, start[bo], 3), (cy, start[cy], 1)])
    for player in (ana, bo, cy):
        stored = Rating.objects.get(player=player)
        assert stored.value == pytest.approx(expected[player].rating)
        assert stored.deviation == pytest.approx(expected[player].deviation)
    assert rating(cy) > 1400 and rating(bo) < 1500
    changes = RatingChange.objects.filter(race_ref=race.pk)
    assert sorted(changes.values_list("place", "field_size")) == [(1, 3), (2, 3), (3, 3)]
    assert Rating.objects.get(player=cy).games == 4


@pytest.mark.django_db
def test_a_tie_keeps_equal_rated_players_equal():
    race, (ana, bo, cy), now = ranked_race("Ana", "Bo", "Cy")
    play_pairs(race, cy, 1, now)
    for player in (cy, ana, bo):  # Ana and Bo give up at 0%: a tie for second
        races.give_up(player, race.room.code, now=now)
    assert rating(ana) == rating(bo) < 1500 < rating(cy)


@pytest.mark.django_db
def test_a_ranked_race_is_rated_once():
    race, (ana, bo), now = ranked_race("Ana", "Bo")
    play_pairs(race, ana, 1, now)
    for player in (ana, bo):
        races.give_up(player, race.room.code, now=now)
    race.refresh_from_db()
    race_end.end_race(race, now)
    assert race_end.close_if_due(race.room.code, now=race.cut_off_at) is False
    assert RatingChange.objects.filter(race_ref=race.pk).count() == 2
    assert Rating.objects.get(player=ana).games == 1


@pytest.mark.django_db
def test_a_ranked_race_closed_at_its_cut_off_is_rated():
    race, (ana, bo), now = ranked_race("Ana", "Bo")
    play_pairs(race, bo, 1, now)
    assert race_end.close_if_due(race.room.code, now=race.cut_off_at) is True
    assert rating(bo) > rating(ana)


@pytest.mark.django_db
def test_a_friends_race_changes_no_rating():
    room, (ana, bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code, now=T0)
    for player in (ana, bo):
        races.give_up(player, room.code, now=race.go_at + timedelta(seconds=1))
    assert not RatingChange.objects.exists()


@pytest.mark.django_db
def test_the_waiting_page_says_when_the_race_starts():
    (ana,) = waiting("Ana")
    assert ranked.status(ana, now=T0 + timedelta(seconds=3))["starts_in"] is None  # alone
    bo = Player.objects.create()
    ranked.join_queue(bo, "beginner", "Bo", now=T0 + timedelta(seconds=5))
    for player in (ana, bo):  # counted from the oldest in the line
        state = ranked.status(player, now=T0 + timedelta(seconds=5))
        assert (state["players"], state["starts_in"]) == (2, WAIT.seconds - 5)
    assert ranked.status(bo, now=T0 + WAIT + timedelta(seconds=9))["starts_in"] == 0


@pytest.mark.django_db
def test_the_results_of_a_ranked_race_show_each_rating_change_in_whole_points():
    race, (ana, bo), now = ranked_race("Ana", "Bo")
    play_pairs(race, ana, 2, now)
    races.give_up(bo, race.room.code, now=now)
    races.give_up(ana, race.room.code, now=now)
    race.refresh_from_db()
    rows = {row["nickname"]: row["rating_change"] for row in serializers.results_json(race)}
    assert rows["Ana"] > 0 > rows["Bo"] and rows["Ana"] == -rows["Bo"]
    assert all(isinstance(change, int) for change in rows.values())
    unranked, (owner,) = room_with("Cy")
    other = races.start_race(owner, unranked.code, now=now, seed=1)
    race_end.end_race_by_staff(unranked.code, now=now)
    assert [row["rating_change"] for row in serializers.results_json(other)] == [None]
