"""Race now (docs/RULES.md §Race now): one click seats a player in the next public quick
race of a level, which starts by itself QUICK_WAIT_SECONDS after its first player arrived
(at once when full); alone then, the player races three CPUs. Unrated."""

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import Player, RatingChange
from mahjong.rules import MAX_SEATS
from records import leaderboards, statistics
from rooms import sweeper
from rooms.core.boards import deal_for
from rooms.lobby import actions as lobby
from rooms.models import Race, Room
from rooms.quick import actions as quick
from rooms.race import actions as races
from tests.rooms.rooms_helpers import refused, room_with

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def short_waits(settings):
    settings.QUICK_WAIT_SECONDS = 1  # the wait made short; the rules are the same
    settings.RACE_COUNTDOWN_SECONDS = 0.2
    settings.CPU_DELAY_SCALE = 0.005


def players(n):
    return [Player.objects.create(nickname=f"P{i}") for i in range(n)]


def wait_for(condition, seconds=30):
    deadline = time.monotonic() + seconds
    while not (found := condition()):
        assert time.monotonic() < deadline, "timed out waiting for the worker"
        time.sleep(0.05)
    return found


def quick_race_of(room):
    return Race.objects.filter(room=room).first()


# --- alone, two, twenty -----------------------------------------------------------------
def test_a_player_alone_races_three_cpus_once_the_wait_is_over(celery_worker):
    (ana,) = players(1)
    clicked = timezone.now()
    room = quick.race_now(ana, "easy")
    assert quick_race_of(room) is None  # waiting: the page shows the seconds left
    race = wait_for(lambda: quick_race_of(room))
    assert race.started_at >= clicked + timedelta(seconds=1)
    seats = list(room.seats.order_by("pk"))
    assert [s.player_id for s in seats] == [ana.pk, None, None, None]
    assert all(s.cpu_level == "steady" for s in seats[1:])
    assert race.entries.count() == 4 and race.rules["level"] == "easy"
    room.refresh_from_db()
    assert room.quick and not room.ranked and room.quick_starts_at is None


def test_two_players_land_in_the_same_room_and_race_at_the_wait_without_cpus(celery_worker):
    ana, bo = players(2)
    clicked = timezone.now()  # not the room's created_at: stamped when the row is written,
    first = quick.race_now(ana, "medium")  # a few ms after the clock its wait counts from
    second = quick.race_now(bo, "medium")
    assert first.pk == second.pk
    race = wait_for(lambda: quick_race_of(first))
    first.refresh_from_db()
    assert race.started_at >= clicked + timedelta(seconds=1)
    assert sorted(race.entries.values_list("seat__nickname", flat=True)) == ["P0", "P1"]
    assert not first.seats.filter(player__isnull=True).exists()


def test_the_start_is_on_the_clock_a_moment_early_does_nothing():
    ana, bo = players(2)
    now = timezone.now()
    room = quick.race_now(ana, "easy", now=now)
    quick.race_now(bo, "easy", now=now + timedelta(seconds=0.5))
    assert quick.start_if_due(room.code, now=now + timedelta(seconds=0.9)) is None
    assert quick.seconds_left(room.code, now=now + timedelta(seconds=0.9)) == pytest.approx(0.1)
    race = quick.start_if_due(room.code, now=now + timedelta(seconds=1))
    assert race is not None and race.entries.count() == 2
    # A second delivery of the task (or the sweeper after it) starts nothing again.
    assert quick.start_if_due(room.code, now=now + timedelta(seconds=2)) is None
    assert Race.objects.filter(room=room).count() == 1


def test_twenty_arrivals_start_at_once_and_the_next_click_opens_a_new_room():
    crowd = players(MAX_SEATS + 1)
    now = timezone.now()
    rooms = {quick.race_now(p, "hard", now=now).pk for p in crowd[:MAX_SEATS]}
    assert len(rooms) == 1
    room = Room.objects.get(pk=rooms.pop())
    race = quick_race_of(room)
    assert race is not None and race.started_at == now  # no wait for a full room
    assert race.entries.count() == MAX_SEATS
    late = quick.race_now(crowd[-1], "hard", now=now)
    assert late.pk != room.pk and quick_race_of(late) is None


def test_levels_have_a_room_each():
    ana, bo = players(2)
    assert quick.race_now(ana, "easy").pk != quick.race_now(bo, "hard").pk


def test_a_click_at_another_level_moves_the_waiting_player():
    ana, bo = players(2)
    easy = quick.race_now(ana, "easy")
    quick.race_now(bo, "easy")
    hard = quick.race_now(ana, "hard")
    assert list(easy.seats.values_list("nickname", flat=True)) == ["P1"]
    assert list(hard.seats.values_list("nickname", flat=True)) == ["P0"]


def test_a_second_click_keeps_the_players_seat():
    (ana,) = players(1)
    room = quick.race_now(ana, "easy")
    assert quick.race_now(ana, "easy").pk == room.pk
    assert room.seats.count() == 1


def test_a_room_everyone_left_is_closed_at_its_start_not_raced():
    (ana,) = players(1)
    now = timezone.now()
    room = quick.race_now(ana, "easy", now=now)
    assert quick.leave(ana, room.code)
    assert quick.start_if_due(room.code, now=now + timedelta(seconds=5)) is None
    assert not Room.objects.filter(pk=room.pk).exists()


def test_a_player_arriving_in_a_room_everyone_left_gets_the_whole_wait():
    ana, bo = players(2)
    now = timezone.now()
    room = quick.race_now(ana, "easy", now=now)
    quick.leave(ana, room.code)
    later = now + timedelta(seconds=0.9)
    assert quick.race_now(bo, "easy", now=later).pk == room.pk
    assert quick.seconds_left(room.code, now=later) == pytest.approx(1.0)
    assert quick.start_if_due(room.code, now=now + timedelta(seconds=1.2)) is None


def test_the_sweeper_starts_a_quick_race_whose_task_was_lost():
    (ana,) = players(1)
    now = timezone.now()
    room = quick.race_now(ana, "easy", now=now)  # no worker: the task waits unheard
    assert sweeper.sweep(now=now + timedelta(seconds=0.5))["quick_started"] == []
    done = sweeper.sweep(now=now + timedelta(seconds=1.5))
    assert done["quick_started"] == [room.code]
    assert quick_race_of(room).entries.count() == 4


# --- two clicks at once -------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_clicks_at_the_same_moment_never_make_two_rooms_for_one_level():
    crowd = players(8)
    start = threading.Barrier(len(crowd))
    rooms, failures = [], []

    def click(player):
        try:
            start.wait()
            rooms.append(quick.race_now(player, "easy").pk)
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=click, args=(p,)) for p in crowd]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert len(set(rooms)) == 1
    assert Room.objects.filter(quick=True, level="easy").count() == 1
    assert Room.objects.get(pk=rooms[0]).seats.count() == len(crowd)


# --- bad input, a race running --------------------------------------------------------------
@pytest.mark.parametrize("level", ["", "legendary", None, 3, ["easy"]])
def test_a_bad_level_is_refused_clearly_and_opens_nothing(level):
    (ana,) = players(1)
    message = refused("bad_level", quick.race_now, ana, level)
    assert "Race now" in message and "Easy" in message
    assert not Room.objects.exists()


def test_a_player_still_racing_is_refused_and_keeps_their_race():
    room, (ana, bo) = room_with("Ana", "Bo")
    races.start_race(ana, room.code, seed=3)
    message = refused("in_race", quick.race_now, bo, "easy")
    assert room.code in message
    assert Room.objects.filter(quick=True).count() == 0


def test_a_quick_room_is_joined_by_race_now_only_and_has_no_owner_tools():
    ana, bo = players(2)
    room = quick.race_now(ana, "easy")
    assert "Race now" in refused("quick", lobby.join_room, bo, room.code, "Bo")
    refused("quick", lobby.update_rules, ana, room.code, {"hints": 0})
    refused("quick", lobby.add_cpu, ana, room.code, "sharp")
    refused("quick", races.start_race, ana, room.code)
    assert room.seats.count() == 1 and quick_race_of(room) is None


# --- unrated: history and statistics only --------------------------------------------------
def test_a_quick_race_counts_in_history_but_never_rates_or_reaches_a_leaderboard():
    (ana,) = players(1)
    now = timezone.now()
    room = quick.race_now(ana, "beginner", now=now)
    race = quick.start_if_due(room.code, now=now + timedelta(seconds=1), seed=11)
    entry = race.entries.get(seat__player=ana)
    at = race.go_at + timedelta(seconds=1)
    for k, pair in enumerate(deal_for(entry.code).plan):
        at += timedelta(seconds=2)
        races.play_pair(ana, room.code, tuple(sorted(pair)), k, now=at)
    race.refresh_from_db()
    entry.refresh_from_db()
    assert entry.status == "finished"
    # Ana cleared the board: in her history ...
    assert [e.pk for e in statistics.recent_races(ana)] == [entry.pk]
    # ... and nowhere else: no rating, no leaderboard.
    assert not RatingChange.objects.filter(player=ana).exists()
    assert entry.pk not in [e.pk for e in leaderboards.fastest_race_wins("beginner")]


# --- the pages ------------------------------------------------------------------------------
def test_the_home_page_and_rooms_page_offer_race_now_per_level(client):
    for url in ("/", "/rooms/"):
        html = client.get(url).content.decode()
        for label in ("Beginner", "Easy", "Medium", "Hard"):
            assert f'aria-label="Race now: {label}"' in html


def test_race_now_over_http_lands_on_the_waiting_page(client):
    response = client.post("/rooms/quick", {"level": "easy"})
    room = Room.objects.get(quick=True)
    assert response.status_code == 302 and response["Location"] == f"/rooms/{room.code}/"
    page = client.get(response["Location"]).content.decode()
    assert 'id="quick-wait"' in page and "Race now · Easy · unrated" in page
    assert 'id="race-now-again"' in page


def test_race_now_with_a_bad_level_over_http_says_why(client):
    response = client.post("/rooms/quick", {"level": "nope"})
    assert response.status_code == 400
    assert "choose a level for Race now" in response.content.decode()
    assert not Room.objects.exists()
