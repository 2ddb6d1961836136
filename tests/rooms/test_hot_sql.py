"""The hand-written statements of rooms/core/hot_sql.py read and write rows exactly as the
ORM would, on PostgreSQL and SQLite alike: each is compared with its ORM twin there
(`<name>_by_orm`, tests/rooms/hot_sql_by_orm.py), on the same rows, and with what the
ORM reads back."""

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import Player
from rooms.core import hot_sql, serializers
from rooms.core.boards import deal_for, position_of
from rooms.lobby import actions as lobby
from rooms.models import Entry, Move, PooledDeal, Race, Room
from rooms.race import actions as races
from rooms.race import end as race_end
from tests.rooms import hot_sql_by_orm as orm
from tests.rooms.rooms_helpers import everyone_ready, first_plan_pair, room_with

pytestmark = pytest.mark.django_db
T0 = timezone.now()


def _fields(instance) -> dict | None:
    """Every column of a model instance, as read (None stays None)."""
    if instance is None:
        return None
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def _start(room, owner):
    race = races.start_race(owner, room.code, now=T0, seed=3)
    return race, race.go_at + timedelta(seconds=1)


def _locked(found) -> tuple | None:
    """A lock_room_and_entry answer as columns: the room's, then the board's, its race's
    and its seat's, both attached to the board (None: nothing found)."""
    if found is None:
        return None
    room, entry = found
    return _fields(room), _fields(entry), _fields(entry.race), _fields(entry.seat)


def _both_lock_the_same(code, **board):
    """lock_room_and_entry and its ORM twin find the same rows; the hand-written one's."""
    by_hand = hot_sql.lock_room_and_entry(code, **board)
    assert _locked(by_hand) == _locked(orm.lock_room_and_entry_by_orm(code, **board))
    return by_hand


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


def test_the_locked_room_and_board_with_its_race_and_seat_match_the_orm_twin_and_reads(
    django_assert_num_queries,
):
    room, (owner, guest) = room_with("Ana", "Bo", cpus=["sharp"])
    race, now = _start(room, owner)
    entry = race.entries.get(seat__player=owner)
    races.play_pair(owner, room.code, first_plan_pair(entry), 0, now=now)
    races.give_up(guest, room.code, now=now)
    for board in race.entries.select_related("race", "seat"):
        ways = [{"seat_id": board.seat_id}]
        if board.seat.player_id is not None:  # a human's move finds the board by player
            ways.append({"player_id": board.seat.player_id})
        for way in ways:
            locked_room, by_hand = _both_lock_the_same(room.code, **way)
            with django_assert_num_queries(0):  # race and seat came with the statement
                race_and_seat = (_fields(by_hand.race), _fields(by_hand.seat))
            assert _fields(locked_room) == _fields(Room.objects.get(pk=room.pk))
            assert _fields(by_hand) == _fields(board)
            assert race_and_seat == (_fields(board.race), _fields(board.seat))
    owners_board = hot_sql.lock_room_and_entry(room.code, player_id=owner.pk)[1]
    assert owners_board.pairs_removed == 1 and owners_board.seat.nickname == "Ana"
    cpu_seat = room.seats.get(cpu_level="sharp")
    assert hot_sql.lock_room_and_entry(room.code, seat_id=cpu_seat.pk)[1].seat.player_id is None


def test_no_room_and_board_are_found_without_a_board_in_a_running_race_by_either_twin():
    room, (owner, guest) = room_with("Ana", "Bo")
    seat = room.seats.get(player=owner)
    for board in ({"player_id": owner.pk}, {"seat_id": seat.pk}):
        assert _both_lock_the_same(room.code, **board) is None  # no race yet
    race, now = _start(room, owner)
    latecomer = Player.objects.create()
    late = lobby.join_room(latecomer, room.code, "Cy")  # sits in from the next race
    for board in (
        {"player_id": owner.pk + guest.pk + latecomer.pk + 999},  # nobody's
        {"player_id": latecomer.pk},
        {"seat_id": late.pk},
    ):
        assert _both_lock_the_same(room.code, **board) is None
    assert _both_lock_the_same("NOSUCH", player_id=owner.pk) is None
    assert _both_lock_the_same("NOSUCH", seat_id=seat.pk) is None
    race_end.end_race_by_staff(room.code, now=now)
    for board in ({"player_id": owner.pk}, {"seat_id": seat.pk}):
        assert _both_lock_the_same(room.code, **board) is None  # the race is over


MOVE_COLUMNS = ("entry_id", "number", "kind", "tiles", "at", "by_cpu")


def _pair_recorded_then_undone(record, entry_pk: int, pair, at, by_cpu: bool, **read) -> tuple:
    """Whether `record` stored `pair` as move 0 of the board (as remove_pair makes it: a
    CPU's step number too), the board's row and its moves then; all undone. `read`
    overrides what the write says the board was (a stale write)."""
    with transaction.atomic():
        board = Entry.objects.select_related("race").get(pk=entry_pk)
        alive = format(position_of(board).remove(*pair).alive, "x")
        write = hot_sql.PairWrite(
            entry_id=board.pk,
            race_id=board.race_id,
            number=read.get("number", 0),
            shuffles_used=read.get("shuffles_used", 0),
            was_cpu_control=read.get("was_cpu_control", False),
            tiles=tuple(pair),
            alive=alive,
            at=at,
            by_cpu=by_cpu,
            cpu_control=False,
            status=Entry.Status.PLAYING,
            finished_ms=None,
            cpu_step=7 if by_cpu else None,
        )
        stored = record(write)
        moves = Move.objects.filter(entry_id=entry_pk).order_by("pk")
        row = _fields(Entry.objects.get(pk=entry_pk))
        result = stored, row, list(moves.values_list(*MOVE_COLUMNS))
        transaction.set_rollback(True)
    return result


def test_a_pair_is_stored_as_its_orm_twin_stores_it():
    room, (owner,) = room_with("Ana", cpus=["steady"])
    race, now = _start(room, owner)
    for board in race.entries.all():
        pair = first_plan_pair(board)
        for by_cpu in (False, True):
            by_hand = _pair_recorded_then_undone(hot_sql.record_pair, board.pk, pair, now, by_cpu)
            by_orm = _pair_recorded_then_undone(orm.record_pair_by_orm, board.pk, pair, now, by_cpu)
            assert by_hand == by_orm
            stored, row, moves = by_hand
            assert stored
            assert moves == [(board.pk, 0, "pair", pair, now, by_cpu)]
            step = 7 if by_cpu else 0
            assert (row["pairs_removed"], row["last_action_at"], row["cpu_step"]) == (1, now, step)
            assert row["cpu_pairs"] == int(by_cpu)
            assert row["last_human_pair_at"] == (None if by_cpu else now)
            assert int(row["alive"], 16) == int(board.alive, 16) & ~(1 << pair[0] | 1 << pair[1])
    assert not Move.objects.exists()  # each was undone


@pytest.mark.parametrize(
    "read",
    [{"number": 1}, {"shuffles_used": 1}, {"was_cpu_control": True}],
    ids=["another_pair_came_first", "a_shuffle_came_first", "a_stand_in_took_the_board"],
)
def test_a_pair_written_on_a_board_that_changed_since_stores_nothing(read):
    room, (owner,) = room_with("Ana")
    race, now = _start(room, owner)
    board = race.entries.get()
    pair = first_plan_pair(board)
    for record in (hot_sql.record_pair, orm.record_pair_by_orm):
        stored, row, moves = _pair_recorded_then_undone(record, board.pk, pair, now, False, **read)
        assert (stored, moves) == (False, [])
        assert row == _fields(Entry.objects.get(pk=board.pk))  # the board as it was


def test_a_pair_written_after_the_race_ended_stores_nothing():
    room, (owner,) = room_with("Ana")
    race, now = _start(room, owner)
    board = race.entries.get()
    pair = first_plan_pair(board)
    race_end.end_race_by_staff(room.code, now=now)
    for record in (hot_sql.record_pair, orm.record_pair_by_orm):
        stored, _row, moves = _pair_recorded_then_undone(record, board.pk, pair, now, False)
        assert (stored, moves) == (False, [])


def test_standings_read_by_hand_match_the_orm_twins_rows():
    room, (owner, guest) = room_with("Ana", "Bo", cpus=["sharp"])
    race, now = _start(room, owner)
    entry = race.entries.get(seat__player=owner)
    races.play_pair(owner, room.code, first_plan_pair(entry), 0, now=now)
    races.give_up(guest, room.code, now=now)
    rows, boards = hot_sql.standing_rows(race.pk), orm.standing_rows_by_orm(race.pk)
    seat_columns = ("nickname", "cpu_level", "cpu_number", "guest_number", "player_id")
    assert [(*_standing(row), *row.seat) for row in rows] == [
        (*_standing(e), *(getattr(e.seat, name) for name in seat_columns)) for e in boards
    ]
    by_hand = [serializers.entry_row(row) for row in rows]
    assert by_hand == [serializers.entry_row(e) for e in boards]
    assert by_hand == [serializers.entry_row(e) for e in race.entries.order_by("pk")]
    assert [row["status"] for row in by_hand] == ["playing", "gave_up", "playing"]
    assert by_hand[0]["progress"] > 0 and by_hand[2]["cpu"] == "sharp"
    assert by_hand[2]["cpu_number"] == 1


@pytest.mark.django_db(transaction=True)  # the loop's own connection sees only what committed
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the loop's reads are PostgreSQL's")
def test_the_standings_read_on_the_event_loop_is_what_the_two_reads_in_a_thread_give():
    room, (owner, guest) = room_with("Ana", "Bo", cpus=["sharp"])
    assert async_to_sync(hot_sql.standings_now)(room.code) is None  # no race yet
    assert async_to_sync(hot_sql.standings_now)("NOSUCH") is None
    race, now = _start(room, owner)
    entry = race.entries.get(seat__player=owner)
    races.play_pair(owner, room.code, first_plan_pair(entry), 0, now=now)
    races.give_up(guest, room.code, now=now)
    read = async_to_sync(hot_sql.standings_now)(room.code)
    version, latest = hot_sql.room_version_and_race(room.code)
    assert (read.version, read.race_number, read.race_rules) == (
        version,
        latest.number,
        latest.rules,
    )
    assert read.rows == hot_sql.standing_rows(race.pk)
    assert serializers.standings_of(read.rows, read.race_rules) == serializers.standings_json(race)


def _standing(board) -> tuple:
    return (
        board.pk,
        board.seat_id,
        board.status,
        board.pairs_removed,
        board.tile_count,
        board.finished_ms,
    )


def test_the_room_lock_reads_the_whole_room_as_its_orm_twin_does():
    room, (owner,) = room_with("Ana")

    def both_read_the_room():
        by_hand = hot_sql.lock_room(room.code)
        assert _fields(by_hand) == _fields(orm.lock_room_by_orm(room.code))
        assert _fields(by_hand) == _fields(Room.objects.get(pk=room.pk))
        return by_hand

    assert both_read_the_room().version == room.version
    _start(room, owner)
    assert both_read_the_room().version > room.version
    assert hot_sql.lock_room("NOSUCH") is None and orm.lock_room_by_orm("NOSUCH") is None


def _version_and_race(read, code) -> tuple:
    version, race = read(code)
    return version, _fields(race)


def test_the_feed_reads_the_rooms_version_and_its_latest_race_as_its_orm_twin_does():
    room, (owner,) = room_with("Ana")

    def both_read_alike():
        by_hand = _version_and_race(hot_sql.room_version_and_race, room.code)
        assert by_hand == _version_and_race(orm.room_version_and_race_by_orm, room.code)
        return by_hand

    assert both_read_alike() == (room.version, None)
    first, _ = _start(room, owner)
    assert both_read_alike() == (Room.objects.get(pk=room.pk).version, _fields(first))
    race_end.end_race_by_staff(room.code, now=T0)
    everyone_ready(owner, room.code, now=T0)
    second = races.start_race(owner, room.code, now=T0, seed=4)
    version, race = both_read_alike()
    assert version == Room.objects.get(pk=room.pk).version
    assert race == _fields(Race.objects.get(pk=second.pk)) and race["id"] != first.pk
    for read in (hot_sql.room_version_and_race, orm.room_version_and_race_by_orm):
        assert read("NOSUCH") == (None, None)


def _pooled(level, flowers, code):
    return PooledDeal.objects.create(
        level=level,
        flowers=flowers,
        code=code,
        score=0.5,
        first_pairs=10,
        winning_first_pairs=8,
        dead_end_rate=0.1,
    )


def _pop_then_undo(pop, level, flowers) -> tuple[str | None, list[str]]:
    """What `pop` takes from the pools and the codes it leaves there; then undone."""
    with transaction.atomic():
        taken = pop(level, flowers)
        left = list(PooledDeal.objects.order_by("id").values_list("code", flat=True))
        transaction.set_rollback(True)
    return taken, left


def test_the_pools_pop_deletes_and_returns_the_oldest_deal_of_its_pool_as_its_orm_twin():
    # Codes out of their insertion order: the oldest deal is the lowest id, not code.
    easy_deals = [_pooled("easy", False, code) for code in ("EASY-C", "EASY-A", "EASY-B")]
    _pooled("easy", True, "EASY-FLOWERS")
    _pooled("hard", False, "HARD-A")
    everything = list(PooledDeal.objects.order_by("id").values_list("code", flat=True))
    for level, flowers in (("easy", False), ("easy", True), ("hard", False), ("medium", False)):
        by_hand = _pop_then_undo(hot_sql.pop_pooled_deal, level, flowers)
        assert by_hand == _pop_then_undo(orm.pop_pooled_deal_by_orm, level, flowers)
    assert _pop_then_undo(hot_sql.pop_pooled_deal, "medium", False) == (None, everything)
    taken = []
    while (code := hot_sql.pop_pooled_deal("easy", False)) is not None:
        taken.append(code)
        assert not PooledDeal.objects.filter(code=code).exists()
    assert taken == [deal.code for deal in easy_deals] == ["EASY-C", "EASY-A", "EASY-B"]
    left = PooledDeal.objects.order_by("id").values_list("code", flat=True)
    assert list(left) == ["EASY-FLOWERS", "HARD-A"]  # other pools untouched
    assert orm.pop_pooled_deal_by_orm("easy", False) is None


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
        'WITH race AS (SELECT id FROM "rooms_race" WHERE id = $1',
    ):
        assert statement in prepared
    assert Race.objects.get(pk=race.pk).status == Race.Status.RUNNING
