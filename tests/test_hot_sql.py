"""A pair's hand-written statements (rooms/hot_sql.py) read and write rows exactly as the
ORM would, on PostgreSQL and SQLite alike."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from rooms import hot_sql, race_end, races, views_json
from rooms.boards import deal_for
from rooms.models import Entry, Race, Room
from tests.rooms_helpers import room_with

pytestmark = pytest.mark.django_db
T0 = timezone.now()


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def _start(room, owner):
    race = races.start_race(owner, room.code, now=T0, seed=3)
    return race, race.go_at + timedelta(seconds=1)


def test_a_whole_board_played_by_hand_written_sql_reads_back_through_the_orm():
    room, (owner,) = room_with("Ana")
    race, now = _start(room, owner)
    entry = race.entries.get(seat__player=owner)
    plan = [sorted(pair) for pair in deal_for(entry.code).plan]
    for n, pair in enumerate(plan):
        races.play_pair(owner, room.code, pair, n, now=now + timedelta(seconds=n))
    entry.refresh_from_db()
    assert entry.status == Entry.Status.FINISHED and entry.pairs_removed == len(plan)
    assert entry.alive == "0" and entry.last_action_at == now + timedelta(seconds=len(plan) - 1)
    assert entry.finished_ms == 1000 * len(plan)  # from go: 1 s in, then a pair a second
    moves = entry.moves.values_list("number", "kind", "tiles", "at", "by_cpu")
    expected = [(n, "pair", pair, now + timedelta(seconds=n), False) for n, pair in enumerate(plan)]
    assert list(moves) == expected


def test_the_locked_room_entry_and_race_hold_every_column_as_the_orm_reads_them():
    room, (owner, guest) = room_with("Ana", "Bo")
    race, now = _start(room, owner)
    entry = race.entries.get(seat__player=owner)
    races.play_pair(owner, room.code, sorted(deal_for(entry.code).plan[0]), 0, now=now)
    locked_room, by_hand = hot_sql.lock_room_and_entry(room.code, player_id=owner.pk)
    by_orm = Entry.objects.select_related("race").get(pk=entry.pk)
    assert _fields(locked_room) == _fields(Room.objects.get(pk=room.pk))
    assert _fields(by_hand) == _fields(by_orm)
    assert _fields(by_hand.race) == _fields(by_orm.race) and by_hand.race.rules["hints"] >= 0


def test_no_room_entry_pair_is_found_without_a_board_in_a_running_race():
    room, (owner, guest) = room_with("Ana", "Bo")
    assert hot_sql.lock_room_and_entry(room.code, player_id=owner.pk) is None  # no race yet
    race, now = _start(room, owner)
    assert hot_sql.lock_room_and_entry(room.code, player_id=owner.pk + guest.pk + 999) is None
    assert hot_sql.lock_room_and_entry("NOSUCH", player_id=owner.pk) is None
    race_end.end_race_by_staff(room.code, now=now)
    assert hot_sql.lock_room_and_entry(room.code, player_id=owner.pk) is None


def test_standings_read_by_hand_match_the_orms_rows():
    room, (owner, guest) = room_with("Ana", "Bo", cpus=["sharp"])
    race, now = _start(room, owner)
    entry = race.entries.get(seat__player=owner)
    races.play_pair(owner, room.code, sorted(deal_for(entry.code).plan[0]), 0, now=now)
    races.give_up(guest, room.code, now=now)
    by_hand = [views_json.entry_row(e) for e in hot_sql.standing_rows(race.pk)]
    by_orm = [views_json.entry_row(e) for e in race.entries.select_related("seat").order_by("pk")]
    assert by_hand == by_orm
    assert [row["status"] for row in by_hand] == ["playing", "gave_up", "playing"]
    assert by_hand[0]["progress"] > 0 and by_hand[2]["cpu"] == "sharp"


def test_the_room_lock_reads_the_whole_room_as_the_orm_does():
    room, _ = room_with("Ana")
    assert _fields(hot_sql.lock_room(room.code)) == _fields(Room.objects.get(pk=room.pk))
    assert hot_sql.lock_room("NOSUCH") is None


def test_the_feed_reads_the_rooms_version_and_its_latest_race():
    room, (owner,) = room_with("Ana")
    assert hot_sql.room_version_and_race(room.code) == (room.version, None)
    first, _ = _start(room, owner)
    race_end.end_race_by_staff(room.code, now=T0)
    second = races.start_race(owner, room.code, now=T0, seed=4)
    version, race = hot_sql.room_version_and_race(room.code)
    assert version == Room.objects.get(pk=room.pk).version and race.pk == second.pk != first.pk
    assert _fields(race) == _fields(Race.objects.get(pk=second.pk))
    assert hot_sql.room_version_and_race("NOSUCH") == (None, None)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's prepared statements")
def test_a_pairs_statements_stay_prepared_on_the_connection():
    # Without OPTIONS["prepare_threshold"] psycopg silently prepares nothing, and every
    # pair costs PostgreSQL a parse and a plan per statement again (docs/PERFORMANCE.md).
    room, (owner,) = room_with("Ana")
    race, now = _start(room, owner)
    plan = deal_for(race.entries.get(seat__player=owner).code).plan
    for n, pair in enumerate(plan[:3]):
        races.play_pair(owner, room.code, sorted(pair), n, now=now)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = " | ".join(row[0] for row in cursor.fetchall())
    for statement in (
        'JOIN "rooms_seat" s ON e.seat_id = s.id WHERE r.code = $1',
        'WITH move AS (INSERT INTO "rooms_move"',
    ):
        assert statement in prepared
    assert Race.objects.get(pk=race.pk).status == Race.Status.RUNNING
