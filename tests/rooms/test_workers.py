"""CPU opponents and the deadline sweeper on a real Celery worker and real Redis."""

import time
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from django.utils import timezone

from config.celery import app
from rooms import sweeper
from rooms.lobby import actions as lobby
from rooms.models import Entry, Move, Race
from rooms.race import actions as races
from rooms.race import cpu_seats
from tests.rooms.rooms_helpers import first_plan_pair, room_with

CPU_LEVELS = ["relaxed", "steady", "sharp"]


@pytest.fixture(autouse=True)
def fast_races(settings):
    settings.RACE_COUNTDOWN_SECONDS = 0.2
    settings.CPU_DELAY_SCALE = 0.005


def wait_for(condition, seconds=60):
    deadline = time.monotonic() + seconds
    while not condition():
        states = list(Entry.objects.values_list("seat__nickname", "pairs_removed", "status"))
        assert time.monotonic() < deadline, f"timed out waiting for the worker: {states}"
        time.sleep(0.1)


def cpu_entries(race):
    return Entry.objects.filter(race=race, seat__player__isnull=True)


def cpus_done(race):
    return not cpu_entries(race).filter(status=Entry.Status.PLAYING).exists()


def assert_each_move_once(race):
    for entry in race.entries.all():
        numbers = list(entry.moves.filter(kind=Move.Kind.PAIR).values_list("number", flat=True))
        assert numbers == list(range(entry.pairs_removed)), entry


def test_three_cpus_play_their_race_to_the_end_and_rank(celery_worker):
    room, (ana,) = room_with("Ana", cpus=CPU_LEVELS)
    lobby.update_rules(ana, room.code, {"level": "beginner"})
    race = races.start_race(ana, room.code)
    wait_for(lambda: cpus_done(race))
    assert all(e.pairs_removed > 0 for e in cpu_entries(race))
    races.give_up(ana, room.code)
    race.refresh_from_db()
    assert race.status == Race.Status.FINISHED
    places = dict(race.entries.values_list("seat__nickname", "place"))
    assert places["Ana"] == 4  # gave up: last
    assert sorted(places.values()) == [1, 2, 3, 4] or len(set(places.values())) < 4
    assert_each_move_once(race)


def test_a_worker_stopped_mid_race_loses_and_doubles_nothing(transactional_db, settings):
    settings.CPU_DELAY_SCALE = 0.02
    app.control.purge()
    room, (ana,) = room_with("Ana", cpus=CPU_LEVELS)
    lobby.update_rules(ana, room.code, {"level": "beginner"})
    race = races.start_race(ana, room.code)
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        wait_for(lambda: sum(e.pairs_removed for e in cpu_entries(race)) >= 3)
    halfway = {e.pk: e.pairs_removed for e in cpu_entries(race)}
    # The sweeper restarts chains that went quiet (a worker killed with tasks in hand).
    later = timezone.now() + timedelta(seconds=settings.CPU_STALL_SECONDS + 1)
    lobby.seat_seen(room.seats.get(player=ana).pk, now=later)  # Ana is still here
    done = sweeper.sweep(now=later)
    assert done["kicked"] and not done["taken_over"]
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        wait_for(lambda: cpus_done(race))
    for entry in cpu_entries(race):
        assert entry.pairs_removed >= halfway[entry.pk]
    assert_each_move_once(race)


def test_the_sweeper_closes_a_race_at_its_cut_off(transactional_db):
    room, (ana, bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code)
    assert sweeper.sweep(now=race.cut_off_at - timedelta(seconds=1))["closed"] == []
    assert sweeper.sweep(now=race.cut_off_at)["closed"] == [room.code]
    race.refresh_from_db()
    assert race.status == Race.Status.FINISHED
    assert sweeper.sweep(now=race.cut_off_at + timedelta(seconds=5))["closed"] == []


def test_a_cpu_takes_an_away_seat_until_the_player_acts_again(transactional_db):
    room, (ana, bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code)
    lobby.seat_seen(room.seats.get(player=ana).pk, now=race.go_at + timedelta(seconds=25))
    done = sweeper.sweep(now=race.go_at + timedelta(seconds=31))
    bo_entry = Entry.objects.get(race=race, seat__player=bo)
    assert done["taken_over"] == [bo_entry.pk]
    assert bo_entry.cpu_control
    assert sweeper.sweep(now=race.go_at + timedelta(seconds=32))["taken_over"] == []
    pair = first_plan_pair(bo_entry)
    races.play_pair(bo, room.code, pair, 0, now=race.go_at + timedelta(seconds=33))
    assert not Entry.objects.get(pk=bo_entry.pk).cpu_control


def test_a_player_making_pairs_counts_as_seen_without_other_messages(transactional_db):
    room, (ana,) = room_with("Ana")
    race = races.start_race(ana, room.code)
    entry = Entry.objects.get(race=race)
    pair = first_plan_pair(entry)
    races.play_pair(ana, room.code, pair, 0, now=race.go_at + timedelta(seconds=20))
    assert sweeper.sweep(now=race.go_at + timedelta(seconds=45))["taken_over"] == []
    assert sweeper.sweep(now=race.go_at + timedelta(seconds=51))["taken_over"] == [entry.pk]


def test_past_the_idle_limit_a_cpu_plays_the_seat(transactional_db):
    room, (ana,) = room_with("Ana")
    lobby.update_rules(ana, room.code, {"idle_limit_seconds": 30})
    race = races.start_race(ana, room.code)
    seat = room.seats.get(player=ana).pk
    lobby.seat_seen(seat, now=race.go_at + timedelta(seconds=40))  # connected, but idle
    assert sweeper.sweep(now=race.go_at + timedelta(seconds=29))["taken_over"] == []
    assert len(sweeper.sweep(now=race.go_at + timedelta(seconds=41))["taken_over"]) == 1


def test_a_duplicate_cpu_step_does_nothing(transactional_db):
    room, (ana,) = room_with("Ana", cpus=["sharp"])
    race = races.start_race(ana, room.code)
    seat = room.seats.get(cpu_level="sharp").pk
    now = race.go_at + timedelta(seconds=1)
    first = cpu_seats.cpu_act(None, room.code, seat, 1, now=now)
    assert first.pairs_removed == 1
    assert cpu_seats.cpu_act(None, room.code, seat, 1, now=now) is None
    assert Entry.objects.get(pk=first.pk).pairs_removed == 1


def test_the_last_human_still_playing_who_stays_idle_is_played_by_a_cpu(transactional_db):
    # One idle tab no longer holds the room open until the cut-off (docs/RULES.md §Leaving).
    room, (ana, bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code)
    races.give_up(ana, room.code, now=race.go_at + timedelta(seconds=10))
    bo_entry = Entry.objects.get(race=race, seat__player=bo)
    bo_seat = bo_entry.seat_id
    for seconds in (25, 50, 75, 100, 119):  # Bo's page is open: seen, but no move
        lobby.seat_seen(bo_seat, now=race.go_at + timedelta(seconds=seconds))
        assert sweeper.sweep(now=race.go_at + timedelta(seconds=seconds))["taken_over"] == []
    lobby.seat_seen(bo_seat, now=race.go_at + timedelta(seconds=121))
    assert sweeper.sweep(now=race.go_at + timedelta(seconds=121))["taken_over"] == [bo_entry.pk]
    # The stand-in plays the board to its end, and with it the race ends: the idle tab
    # no longer holds the room until the cut-off.
    for step in range(1, 400):
        later = race.go_at + timedelta(seconds=122 + step)
        cpu_seats.cpu_act(None, room.code, bo_seat, step, now=later)
        if Entry.objects.get(pk=bo_entry.pk).status != Entry.Status.PLAYING:
            break
    race.refresh_from_db()
    assert race.status == Race.Status.FINISHED and race.finished_at < race.cut_off_at


def test_an_idle_human_is_left_alone_while_another_human_still_plays(transactional_db):
    room, (ana, bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code)
    for seat in room.seats.all():
        lobby.seat_seen(seat.pk, now=race.go_at + timedelta(seconds=150))
    assert sweeper.sweep(now=race.go_at + timedelta(seconds=150))["taken_over"] == []


def test_when_the_others_finish_an_idle_last_player_is_handed_to_a_cpu_at_once(transactional_db):
    # The lazy check: the board that ends looks, without waiting for the sweeper.
    room, (ana, bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code)
    bo_entry = Entry.objects.get(race=race, seat__player=bo)
    lobby.seat_seen(bo_entry.seat_id, now=race.go_at + timedelta(seconds=150))  # open, idle
    races.give_up(ana, room.code, now=race.go_at + timedelta(seconds=150))
    bo_entry.refresh_from_db()
    assert bo_entry.cpu_control and Race.objects.get(pk=race.pk).status == Race.Status.RUNNING
