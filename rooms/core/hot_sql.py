"""Every hand-written SQL statement of the site, each beside the ORM form the tests
(tests/rooms/test_hot_sql.py) compare it with: the hottest paths (the room lock, a board, the
move and the board's update, the live standings; at full load about 250 pairs and 125
standings reads a second, docs/PERFORMANCE.md) and the deal pools' take and lock.

Built by the ORM, these few statements cost the web process more CPU than running them
did, and PostgreSQL parsed and planned each one anew. Here each is one constant text:
PostgreSQL keeps it prepared on the connection (parsed and planned once), SQLite's driver
caches it. Values go in and out through the model fields' own conversions, so a row reads
and writes exactly as the ORM would read and write it, on either database. Everything
else uses the ORM.
"""

import functools
import json
import time
from dataclasses import dataclass
from typing import NamedTuple

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections

from infra import async_db
from mahjong.race_rules.ranking import HasStanding
from rooms.models import Entry, Move, PooledDeal, Race, Room, Seat


# --- running statements --------------------------------------------------------------
def _rows(sql: str, params: list) -> list[tuple]:
    """Run one statement in the current transaction; its rows (none for a write)."""
    # The connection itself, not django.db.connection: that proxy finds it again (a
    # thread-local lookup) on every attribute read, a dozen times a statement.
    db = connections[DEFAULT_DB_ALIAS]
    started = time.monotonic()
    if db.vendor == "postgresql":
        rows = _run_prepared(db, sql, params)
    else:
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall() if cursor.description else []
    if db.queries_logged:  # counted like the ORM's own (tests, bench/pair_cost.py)
        took = f"{time.monotonic() - started:.3f}"
        db.queries_log.append({"sql": sql, "params": params, "time": took})
    return rows


def _run_prepared(db, sql: str, params: list) -> list[tuple]:
    # Django's own cursors bind values on the client, which rules out prepared statements;
    # a plain psycopg cursor binds on the server. Errors still reach callers as Django's
    # (OperationalError when the database is gone, IntegrityError for a doubled pair).
    # Whether rows came is read from the result's status: `cursor.description` builds a
    # column object for each of the room lock's ~70 columns, on every call.
    db.ensure_connection()
    with db.wrap_database_errors, psycopg.Cursor(db.connection) as cursor:
        cursor.execute(sql, params, prepare=True)
        result = cursor.pgresult
        has_rows = result is not None and result.status == psycopg.pq.ExecStatus.TUPLES_OK
        return cursor.fetchall() if has_rows else []


def _lock_suffix(*aliases: str) -> str:
    """FOR UPDATE OF these tables where the database has row locks (SQLite locks the
    whole database for a writing transaction instead)."""
    if not connection.features.has_select_for_update:
        return ""
    return " " + connection.ops.for_update_sql(of=tuple(map(connection.ops.quote_name, aliases)))


# --- rows and model instances -----------------------------------------------------------
def _columns(model, alias: str, names) -> str:
    return ", ".join(f"{alias}.{_column(model, name)}" for name in names)


@functools.cache
def _readers(model, fields: tuple[str, ...], vendor: str):
    """Per column, the conversions the ORM applies to it on reading (JSON, booleans,
    dates on SQLite): found once per model, column list and database."""
    readers = []
    for name in fields:
        field = model._meta.get_field(name)
        column = field.get_col(model._meta.db_table)
        converters = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        readers.append((column, converters))
    return readers


def _instance(model, fields: tuple[str, ...], values):
    db = connections[DEFAULT_DB_ALIAS]
    readers = _readers(model, fields, db.vendor)
    converted = []
    for value, (column, converters) in zip(values, readers, strict=True):
        for convert in converters:
            value = convert(value, column, db)
        converted.append(value)
    return model.from_db(db.alias, fields, converted)


@functools.cache
def _all_fields(model) -> tuple[str, ...]:
    return tuple(f.attname for f in model._meta.concrete_fields)


_INTEGERS = {
    "AutoField",
    "BigAutoField",
    "SmallAutoField",
    "IntegerField",
    "BigIntegerField",
    "SmallIntegerField",
    "PositiveIntegerField",
    "PositiveBigIntegerField",
    "PositiveSmallIntegerField",
}


@functools.cache
def _stores_ints_as_they_are(model, name: str) -> bool:
    """An integer column (or a key to one): the ORM saves a Python int as it is."""
    field = model._meta.get_field(name)
    kind = (field.target_field if field.is_relation else field).get_internal_type()
    return kind in _INTEGERS


def _prepared_value(model, name: str, value):
    # An int for an integer column goes as it is, as the ORM's conversion would send it
    # (a pair saves about fifteen values; the conversion's calls were a visible share).
    if type(value) is int and _stores_ints_as_they_are(model, name):
        return value
    return model._meta.get_field(name).get_db_prep_save(value, connections[DEFAULT_DB_ALIAS])


# --- the statements ---------------------------------------------------------------------
# Each text is made once per database kind (table and column names, quoting, locking).
def _text(build):
    cached = functools.cache(build)
    return lambda: cached(connection.vendor)


def lock_room(code: str) -> Room | None:
    """The room, its row locked until the transaction commits: every action in a room
    takes this lock first, so they happen one at a time, in one order."""
    rows = _rows(_lock_room_sql(), [code])
    return _instance(Room, _all_fields(Room), rows[0]) if rows else None


@_text
def _lock_room_sql(vendor):
    return (
        f"SELECT {_columns(Room, 'r', _all_fields(Room))} FROM {_table(Room)} r"
        f" WHERE r.code = %s{_lock_suffix('r')}"
    )


def room_version_and_race(code: str) -> tuple[int | None, Race | None]:
    """The room's event version and its latest race (None, None: no such room)."""
    rows = _rows(_version_and_race_sql(), [code])
    if not rows:
        return None, None
    version, *race = rows[0]
    return version, _instance(Race, _all_fields(Race), race) if race[0] is not None else None


@_text
def _version_and_race_sql(vendor):
    # The latest race as Room.current_race orders them (Race.ORDER, highest first).
    return (
        f"SELECT r.version, {_columns(Race, 'race', _all_fields(Race))} FROM {_table(Room)} r"
        f" LEFT JOIN {_table(Race)} race ON race.room_id = r.id WHERE r.code = %s"
        f" ORDER BY race.{_column(Race, Race.ORDER)} DESC LIMIT 1"
    )


def lock_room_and_entry(
    code: str, *, player_id: int | None = None, seat_id: int | None = None
) -> tuple[Room, Entry] | None:
    """The room and one board in its running race (with its race and seat), their rows
    locked, in one statement: the room first, as lock_room would. The board of a player
    (a human's move) or of a seat (a CPU's step): the one way a board is locked. None when
    the room, the running race or the board is missing (nothing is locked then)."""
    by, key = ("player", player_id) if seat_id is None else ("seat", seat_id)
    rows = _rows(_room_and_entry_sql(connection.vendor, by), [code, Race.Status.RUNNING.value, key])
    if not rows:
        return None
    room_values, entry_values, race_values, seat_values = _split(rows[0], Room, Entry, Race)
    entry = _instance(Entry, _all_fields(Entry), entry_values)
    entry.race = _instance(Race, _all_fields(Race), race_values)
    entry.seat = _instance(Seat, _all_fields(Seat), seat_values)
    return _instance(Room, _all_fields(Room), room_values), entry


def _split(row: tuple, *models) -> list[tuple]:
    """A joined row cut into each model's columns (all fields, in order); the rest last."""
    parts = []
    for model in models:
        width = len(_all_fields(model))
        parts.append(row[:width])
        row = row[width:]
    return [*parts, row]


@functools.cache
def _room_and_entry_sql(vendor, by: str):
    key = "s.player_id" if by == "player" else "e.seat_id"
    return (
        f"SELECT {_columns(Room, 'r', _all_fields(Room))},"
        f" {_columns(Entry, 'e', _all_fields(Entry))},"
        f" {_columns(Race, 'race', _all_fields(Race))},"
        f" {_columns(Seat, 's', _all_fields(Seat))}"
        f" FROM {_table(Room)} r JOIN {_table(Race)} race ON race.room_id = r.id"
        f" JOIN {_table(Entry)} e ON e.race_id = race.id"
        f" JOIN {_table(Seat)} s ON e.seat_id = s.id"
        f" WHERE r.code = %s AND race.status = %s AND {key} = %s"
        # The race's row is locked too, though nobody else can change it without the
        # room's lock: a locked row is re-read once a waited-for lock is released (in
        # READ COMMITTED), an unlocked one is not. Without it, a pair that waited while
        # the race ended would still see the race running.
        f"{_lock_suffix('r', 'race', 'e')}"
    )


MOVE_FIELDS = ("entry_id", "number", "kind", "tiles", "at", "by_cpu")


class PairWrite(NamedTuple):
    """A pair as stored: the move, the board's row after it, and what the board must
    still be for it to be stored (the compare of the compare-and-set)."""

    entry_id: int
    race_id: int
    number: int  # pairs removed before it; the board must still be at this count
    shuffles_used: int  # and at this many shuffles (a shuffle moves faces, not the count)
    was_cpu_control: bool  # and played by whom it was (a stand-in takes it, or gives it back)
    tiles: tuple[int, int]
    alive: str  # the board's tiles after it (hex, as Entry.alive)
    at: object  # a datetime: the move's time and the board's last action
    by_cpu: bool
    cpu_control: bool  # after it (a human's pair takes the board back from a stand-in)
    status: str  # after it: still playing, finished or out
    finished_ms: int | None
    cpu_step: int | None  # a CPU's step number; None keeps the board's


def record_pair(write: PairWrite) -> bool:
    """Store the pair if the board is still what the write read (the race running, the
    board playing at its pair count, shuffles and controller): the one write of every
    pair, a player's or a CPU's, under the room's lock or without it (a player's pair on
    the event loop, rooms/race/held_board.py). True when stored; False changes nothing.
    One statement on PostgreSQL (the board's update and the move's insert in one WITH,
    the race's row share-locked so its end waits for the pair or the pair sees it over);
    two on SQLite, which has no such clause and runs one writer at a time."""
    if connection.vendor == "postgresql":
        return bool(_rows(pair_write_sql(), pair_write_params(write)))
    updated = _count(_guarded_update_sql(connection.vendor), _update_params(write))
    if updated:
        _rows(_insert_pair_sql(), _move_params(write))
    return bool(updated)


async def record_pair_now(write: PairWrite) -> bool:
    """record_pair from the event loop, in a transaction of its own: one statement, one
    round trip, durable when it returns (PostgreSQL only: infra/async_db.py)."""
    return bool(await async_db.rows(pair_write_sql(), pair_write_params(write)))


def pair_write_sql() -> str:
    """The PostgreSQL text of record_pair, for a connection of the event loop too."""
    return _pair_write_sql("postgresql")


def pair_write_params(write: PairWrite) -> list:
    return [
        write.race_id,
        Race.Status.RUNNING.value,
        *_update_params(write),
        *_move_params(write)[1:],
    ]


@functools.cache
def _pair_write_sql(vendor):
    move_columns = ", ".join(_column(Move, name) for name in MOVE_FIELDS)
    return (
        f"WITH race AS (SELECT id FROM {_table(Race)} WHERE id = %s AND status = %s"
        # Shared by the race's pairs at once; its end (rooms/race/end.py) locks the row
        # for update first, so a pair is either in its results or refused after it.
        " FOR SHARE),"
        f" board AS ({_guarded_update_sql(vendor)} RETURNING id)"
        f" INSERT INTO {_table(Move)} ({move_columns})"
        " SELECT id, %s, %s, CAST(%s AS jsonb), CAST(%s AS timestamptz), CAST(%s AS boolean)"
        " FROM board RETURNING id"
    )


@functools.cache
def _guarded_update_sql(vendor):
    race = (
        "(SELECT id FROM race)"
        if vendor == "postgresql"
        else (f"(SELECT id FROM {_table(Race)} WHERE id = %s AND status = %s)")
    )
    return (
        f"UPDATE {_table(Entry)} SET alive = %s, pairs_removed = pairs_removed + 1,"
        " cpu_pairs = cpu_pairs + %s,"
        " last_human_pair_at = COALESCE(%s, last_human_pair_at), last_action_at = %s,"
        " cpu_control = %s, status = %s, finished_ms = %s, cpu_step = COALESCE(%s, cpu_step)"
        f" WHERE id = %s AND race_id IN {race} AND pairs_removed = %s AND shuffles_used = %s"
        " AND status = %s AND cpu_control = %s"
    )


def _update_params(write: PairWrite) -> list:
    at = _prepared_value(Entry, "last_action_at", write.at)
    race = [] if connection.vendor == "postgresql" else [write.race_id, Race.Status.RUNNING.value]
    return [
        write.alive,
        int(write.by_cpu),
        None if write.by_cpu else at,
        at,
        write.cpu_control,
        write.status,
        write.finished_ms,
        write.cpu_step,
        write.entry_id,
        *race,
        write.number,
        write.shuffles_used,
        Entry.Status.PLAYING.value,
        write.was_cpu_control,
    ]


def _move_params(write: PairWrite) -> list:
    move = (
        write.entry_id,
        write.number,
        Move.Kind.PAIR.value,
        list(write.tiles),
        write.at,
        write.by_cpu,
    )
    return [_prepared_value(Move, n, v) for n, v in zip(MOVE_FIELDS, move, strict=True)]


def _count(sql: str, params: list) -> int:
    """Run one write in the current transaction (SQLite): the rows it changed."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


@_text
def _insert_pair_sql(vendor):
    columns = ", ".join(_column(Move, name) for name in MOVE_FIELDS)
    marks = ", ".join(["%s"] * len(MOVE_FIELDS))
    return f"INSERT INTO {_table(Move)} ({columns}) VALUES ({marks})"


class SeatName(NamedTuple):
    nickname: str
    cpu_level: str
    cpu_number: int | None
    guest_number: int | None
    player_id: int | None


@dataclass(frozen=True, slots=True)
class StandingRow(HasStanding):
    """One board as the live standings show it: read as plain values, not model
    instances (the feed reads 20 of these several times a second per room)."""

    pk: int
    seat_id: int
    status: str
    pairs_removed: int
    tile_count: int
    finished_ms: int | None
    cpu_control: bool
    seat: SeatName


def standing_rows(race_id: int) -> list[StandingRow]:
    """The race's boards for the standings, in entry order."""
    return [_standing_row(row) for row in _rows(_standings_sql(), [race_id])]


def _standing_row(row: tuple) -> StandingRow:
    # A boolean reads as 0 or 1 on SQLite: the one conversion made here.
    return StandingRow(*row[:6], bool(row[6]), SeatName(*row[7:]))


# Plain columns (no JSON or dates), so only the boolean needs converting on SQLite.
_STANDING_ENTRY_COLUMNS = (
    "id",
    "seat_id",
    "status",
    "pairs_removed",
    "tile_count",
    "finished_ms",
    "cpu_control",
)
_STANDING_SEAT_COLUMNS = ("nickname", "cpu_level", "cpu_number", "guest_number", "player_id")


@_text
def _standings_sql(vendor):
    return (
        f"SELECT {_columns(Entry, 'e', _STANDING_ENTRY_COLUMNS)},"
        f" {_columns(Seat, 's', _STANDING_SEAT_COLUMNS)}"
        f" FROM {_table(Entry)} e JOIN {_table(Seat)} s ON e.seat_id = s.id"
        " WHERE e.race_id = %s ORDER BY e.id"
    )


class StandingsRead(NamedTuple):
    version: int
    race_number: int
    race_rules: dict
    rows: list[StandingRow]


async def standings_now(code: str) -> StandingsRead | None:
    """The room's version, its latest race and that race's boards for the standings, in
    one statement from the event loop (PostgreSQL: infra/async_db.py); None: no such
    room, or no race yet. What room_version_and_race and standing_rows read, the race
    cut to the columns the standings need."""
    rows = await async_db.rows(_standings_now_sql(), [code])
    if not rows or rows[0][1] is None:
        return None
    version, _race_id, number, rules = rows[0][:4]
    if isinstance(rules, str):  # Django's adapters load JSON as text, for its own fields
        rules = json.loads(rules)
    boards = [_standing_row(row[4:]) for row in rows if row[4] is not None]
    return StandingsRead(version, number, rules, boards)


@_text
def _standings_now_sql(vendor):
    return (
        f"SELECT r.version, race.id, race.number, race.rules,"
        f" {_columns(Entry, 'e', _STANDING_ENTRY_COLUMNS)},"
        f" {_columns(Seat, 's', _STANDING_SEAT_COLUMNS)}"
        f" FROM {_table(Room)} r"
        # The latest race as Room.current_race orders them (Race.ORDER, highest first).
        f" LEFT JOIN LATERAL (SELECT id, number, rules FROM {_table(Race)}"
        f" WHERE room_id = r.id ORDER BY {_column(Race, Race.ORDER)} DESC LIMIT 1) race ON true"
        f" LEFT JOIN {_table(Entry)} e ON e.race_id = race.id"
        f" LEFT JOIN {_table(Seat)} s ON e.seat_id = s.id"
        " WHERE r.code = %s ORDER BY e.id"
    )


# --- the deal pools (rooms/pools/actions.py) ---------------------------------------------------
def pop_pooled_deal(level: str, flowers: bool) -> str | None:
    """Delete and return the code of the pool's oldest deal in one statement; takers at
    once skip each other's row on PostgreSQL (SKIP LOCKED) instead of waiting."""
    rows = _rows(_pop_deal_sql(), [level, flowers])
    return rows[0][0] if rows else None


@_text
def _pop_deal_sql(vendor):
    table = _table(PooledDeal)
    lock = " FOR UPDATE SKIP LOCKED" if vendor == "postgresql" else ""
    return (
        f"DELETE FROM {table} WHERE id = (SELECT id FROM {table} WHERE level = %s"
        f" AND flowers = %s ORDER BY id LIMIT 1{lock}) RETURNING code"
    )


POOL_LOCK = 0x504F4F4C  # "POOL": the PostgreSQL advisory lock namespace of the pools


def lock_pool(key: int) -> None:
    """Refills of pool number `key` take turns until the transaction ends. (SQLite needs
    nothing: its transactions here are IMMEDIATE, one writer at a time; no ORM form.)"""
    if connection.vendor == "postgresql":
        _rows("SELECT pg_advisory_xact_lock(%s, %s)", [POOL_LOCK, key])


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _column(model, name: str) -> str:
    return connection.ops.quote_name(model._meta.get_field(name).column)
