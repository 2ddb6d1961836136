"""Scheduled arenas (docs/RULES.md §Arenas): the beat's task, run with an injected
clock, creates each schedule's next arenas ahead of time, once however often it runs;
the arena's clock moves it from upcoming to running to finished."""

import importlib
from datetime import UTC, datetime, timedelta

import pytest

from arenas import pairing, schedule
from arenas.models import Arena, ArenaSchedule

pytestmark = pytest.mark.django_db
NOON = datetime(2026, 12, 3, 12, 10, tzinfo=UTC)


def test_an_hourly_schedule_makes_the_next_arenas_within_its_lead_and_only_once():
    ArenaSchedule.objects.create(
        name="Easy hourly", level="easy", every="hour", at_minute=0, minutes=30, ahead_minutes=120
    )
    made = schedule.create_due(now=NOON)
    # 12:00 runs until 12:30 (running now), then 13:00 and 14:00 within the two hours.
    assert [a.starts_at for a in made] == [
        datetime(2026, 12, 3, h, 0, tzinfo=UTC) for h in (12, 13, 14)
    ]
    assert [a.status for a in made] == ["running", "upcoming", "upcoming"]
    assert all(a.public and a.level == "easy" and a.minutes == 30 for a in made)
    assert schedule.create_due(now=NOON) == []  # a second beat makes nothing
    assert schedule.create_due(now=NOON + timedelta(seconds=30)) == []
    assert Arena.objects.count() == 3


def test_a_daily_schedule_at_twenty_hundred_utc():
    ArenaSchedule.objects.create(
        name="Hard evening", level="hard", every="day", at_hour=20, minutes=60, ahead_minutes=600
    )
    (arena,) = schedule.create_due(now=NOON)
    assert arena.starts_at == datetime(2026, 12, 3, 20, 0, tzinfo=UTC)
    assert arena.ends_at == datetime(2026, 12, 3, 21, 0, tzinfo=UTC)
    assert schedule.create_due(now=NOON + timedelta(hours=7)) == []


def test_an_inactive_schedule_makes_nothing():
    ArenaSchedule.objects.create(name="Off", level="easy", active=False)
    assert schedule.create_due(now=NOON) == []


def test_the_clock_starts_an_upcoming_arena_and_finishes_it_after_its_window():
    ArenaSchedule.objects.create(name="Easy", level="easy", minutes=30, ahead_minutes=60)
    schedule.create_due(now=NOON)
    later = Arena.objects.get(starts_at=datetime(2026, 12, 3, 13, 0, tzinfo=UTC))
    assert pairing.tick(later.starts_at)["started"] == [later.code]
    later.refresh_from_db()
    assert later.status == "running"
    assert later.code in pairing.tick(later.ends_at)["finished"]
    assert Arena.objects.get(pk=later.pk).status == "finished"


def _seeded_schedules():
    """The data migration's own function, run on the site's models (the test database's
    setup removes what it made, so every test starts from no schedule)."""
    from django.apps import apps

    seed = importlib.import_module("arenas.migrations.0002_default_schedules")
    seed.seed_schedules(apps, None)
    return list(ArenaSchedule.objects.order_by("pk"))


def test_a_new_site_has_an_hourly_easy_and_an_evening_hard_arena_schedule():
    hourly, evening = _seeded_schedules()
    assert (hourly.level, hourly.every, hourly.at_minute, hourly.minutes) == (
        "easy",
        "hour",
        0,
        30,
    )
    assert (evening.level, evening.every, evening.at_hour, evening.minutes) == (
        "hard",
        "day",
        20,
        60,
    )
    assert hourly.active and evening.active


def test_the_defaults_are_not_added_to_a_site_that_has_schedules_of_its_own():
    ArenaSchedule.objects.create(name="Ours", level="medium")
    assert [s.name for s in _seeded_schedules()] == ["Ours"]


@pytest.mark.parametrize("hour", [0, 7, 12, 20, 23])
def test_at_any_hour_a_new_site_lists_a_running_or_next_arena(client, hour):
    _seeded_schedules()
    now = datetime(2026, 12, 3, hour, 41, tzinfo=UTC)
    made = schedule.create_due(now=now)
    hourly = [a for a in made if a.level == "easy"]
    # The one running now (:00 to :30) is over at :41; the next hour's is listed ahead.
    assert hourly and hourly[0].starts_at == now.replace(minute=0) + timedelta(hours=1)
    assert any(a.level == "hard" for a in made)  # the evening's, up to a day ahead
    page = client.get("/arenas/").content.decode()
    assert "Hourly Easy" in page and "Evening Hard" in page


def test_an_arena_and_its_race_tell_their_times_in_one_form_and_none_as_null():
    """The arena page and the race page read times alike (rooms.core.serializers.iso):
    ISO 8601 with the UTC offset, and a time not set yet as null."""
    from arenas import queries
    from rooms.core import serializers
    from tests.rooms.rooms_helpers import room_with, started

    arena = Arena.objects.create(name="Evening", level="easy", minutes=30, starts_at=NOON)
    state = queries.state_json(arena, None, now=NOON)
    room, players = room_with("Ana", "Bo")
    race, _ = started(room, players[0], at=NOON)
    shown = serializers.race_json(race)
    assert state["arena"]["starts_at"] == shown["started_at"] == "2026-12-03T12:10:00+00:00"
    assert datetime.fromisoformat(state["server_now"]) == NOON
    assert shown["finished_at"] is None
