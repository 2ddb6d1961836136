"""Site-wide boards (read only), each for a period (records/periods.py: a UTC day, a week
from Monday, a month, all time): fastest practice wins per layout, the daily challenge,
fastest race wins per level, ratings (docs/RULES.md §Leaderboards by period)."""

import datetime
import re
from dataclasses import dataclass

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, F, IntegerField, Max, Min, Q
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast

from accounts.models import Player, Rating, RatingChange
from mahjong.daily import DAILY_LAYOUT as DAILY_LAYOUT  # the deal lives below the apps
from mahjong.daily import daily_code as daily_code
from mahjong.daily import today as today
from mahjong.engine.catalog import CATALOG
from mahjong.race_rules.ratings import PROVISIONAL_DEVIATION
from mahjong.rules import MINUTE_MS, Level, layout_label
from practice.daily import daily_board as daily_board  # practice frames it too
from practice.models import SoloGame
from practice.wins import BOARD_SIZE
from practice.wins import best_win_per_player as best_win_per_player
from records import periods
from records.periods import ALL_TIME, Period
from rooms.models import Entry, Race, Seat

RATING_BOARD_SIZE = 50
# Columns a board never shows and that weigh: a game's moves and their times, a board's
# faces and tiles, a race's rules (a board only filters on them).
GAME_BULK = ("moves", "move_ms")
ENTRY_BULK = ("faces", "positions", "alive", "race__rules")


@dataclass
class Board:
    title: str
    rows: list  # SoloGame for practice boards, rooms' Entry for race boards


def _raw_sql() -> bool:
    """The hand-written statements below are PostgreSQL's (DISTINCT ON, LATERAL, unnest):
    the fast path bench/leaderboards.py measures. Any other database (SQLite, the default
    with no DATABASE_URL) reads the same boards through the ORM, each raw reader's
    portable twin beside it."""
    return connection.vendor == "postgresql"


def _sql_of(q: Q, tables: dict[str, tuple[str, type]]) -> str:
    """A flat AND of exact and isnull lookups as SQL text for the raw statements, so a
    board's conditions live once, in the Q its ORM twin filters on. `tables`: each
    relation path ("" for the model itself) to its alias in the statement and its model."""
    assert q.connector == Q.AND and not q.negated, q
    parts = []
    for child in q.children:
        if isinstance(child, Q):
            parts.append(_sql_of(child, tables))
            continue
        lookup, value = child
        *path, name = lookup.split("__")
        isnull = name == "isnull"
        if isnull:
            name = path.pop()
        alias, model = tables["__".join(path)]
        column = f"{alias}.{model._meta.get_field(name).column}"
        if isnull:
            parts.append(f"{column} IS {'' if value else 'NOT '}NULL")
        elif value is True or value is False:
            parts.append(column if value else f"NOT {column}")
        elif isinstance(value, int):
            parts.append(f"{column} = {int(value)}")
        else:
            text = str(value)
            assert re.fullmatch(r"[a-z_]+", text), text  # a choice's value: safe as a literal
            parts.append(f"{column} = '{text}'")
    return " AND ".join(parts)


def _in(field: str, period: Period) -> Q:
    """Rows whose `field` (an instant) lies in the period: [start, end) in UTC."""
    start, end = periods.bounds(period)
    if start is None:
        return Q()
    return Q(**{f"{field}__gte": start, f"{field}__lt": end})


# --- fastest clean practice wins, one board per built-in layout --------------------------

CLEAN_WINS = SoloGame.CLEAN & Q(status=SoloGame.Status.WON, layout_number__isnull=False)
_CLEAN_WIN_SQL = _sql_of(CLEAN_WINS, {"": ("s", SoloGame)})
# A day's boards in one statement: each player's best clean win per layout that day
# (DISTINCT ON), then the fastest BOARD_SIZE of those per layout. Served by the partial
# index practice 0007_periods_indexes "sologame_clean_finished".
_BEST_IN_PERIOD = f"""
SELECT layout_number, id FROM (
  SELECT id, layout_number, row_number() OVER (
      PARTITION BY layout_number ORDER BY time_ms, finished_at, id) AS place
  FROM (
    SELECT DISTINCT ON (layout_number, player_id) id, layout_number, time_ms, finished_at
    FROM mahjong_sologame s
    WHERE {_CLEAN_WIN_SQL} AND s.finished_at >= %s AND s.finished_at < %s
    ORDER BY layout_number, player_id, time_ms, finished_at, id
  ) AS best
) AS ranked
WHERE place <= %s
ORDER BY layout_number, place
"""


def _fastest_players(
    games, limit: int, who=lambda game: game.player_id, order=("time_ms", "finished_at")
):
    """Walk `games` fastest first and keep each player's first (so best) row until
    `limit` players are found: this reads a few dozen rows of an index in time order
    (practice 0007_periods_indexes "sologame_clean_layout_time", rooms
    0013_periods_indexes "entry_clean_level_time"), not every win of the board."""
    ordered = games.order_by(*order, "pk")
    rows, seen, offset, batch = [], set(), 0, limit * 4
    while len(rows) < limit:
        chunk = list(ordered[offset : offset + batch])
        for row in chunk:
            player = who(row)
            if player not in seen:
                seen.add(player)
                rows.append(row)
                if len(rows) == limit:
                    break
        if len(chunk) < batch:
            break
        offset, batch = offset + batch, batch * 2
    return rows


# A week's, a month's or all time's boards in one statement: for every layout, its
# fastest clean wins of the period, a few per place on the board (each player's first of
# them is kept in Python), read in time order from the partial index practice
# 0007_periods_indexes "sologame_clean_layout_time" instead of sorting every win.
_FASTEST_PER_LAYOUT = f"""
SELECT l.layout_number, g.id, g.player_id
FROM unnest(%s::int[]) AS l(layout_number)
CROSS JOIN LATERAL (
  SELECT id, player_id, time_ms, finished_at FROM mahjong_sologame s
  WHERE {_CLEAN_WIN_SQL} AND s.layout_number = l.layout_number
    AND s.finished_at >= %s AND s.finished_at < %s
  ORDER BY s.time_ms, s.finished_at, s.id
  LIMIT %s
) AS g
"""
ROWS_READ_PER_PLACE = 6
# Instants before and after any game: all time's bounds in the statement above.
EVER = (
    datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC),
    datetime.datetime.max.replace(tzinfo=datetime.UTC),
)


def _ids_per_layout(period: Period, limit: int) -> dict[int, list[int]]:
    """Each layout's board as game ids, fastest first: each player's fastest win of the
    period. A layout whose rows read held fewer than `limit` players while more rows
    remain (one player's many fast wins) is walked further (_fastest_players)."""
    start, end = periods.bounds(period)
    if start is None:
        start, end = EVER
    read = limit * ROWS_READ_PER_PLACE
    layouts = [entry.number for entry in CATALOG]
    with connection.cursor() as cursor:
        cursor.execute(_FASTEST_PER_LAYOUT, [layouts, start, end, read])
        rows = cursor.fetchall()
    by_layout: dict[int, list[tuple[int, int]]] = {}
    for layout, pk, player in rows:
        by_layout.setdefault(layout, []).append((pk, player))
    boards = {}
    for layout, games in by_layout.items():
        seen, ids = set(), []
        for pk, player in games:
            if player not in seen and len(ids) < limit:
                seen.add(player)
                ids.append(pk)
        if len(ids) < limit and len(games) == read:  # more wins wait beyond those read
            wins = SoloGame.objects.filter(CLEAN_WINS, _in("finished_at", period))
            walked = _fastest_players(wins.filter(layout_number=layout).only("pk", "player"), limit)
            ids = [game.pk for game in walked]
        boards[layout] = ids
    return boards


def _best_in_day(period: Period, limit: int) -> dict[int, list[int]]:
    with connection.cursor() as cursor:
        cursor.execute(_BEST_IN_PERIOD, [*periods.bounds(period), limit])
        rows = cursor.fetchall()
    boards: dict[int, list[int]] = {}
    for layout, pk in rows:
        boards.setdefault(layout, []).append(pk)
    return boards


def _practice_ids(period: Period, limit: int) -> dict[int, list[int]]:
    """PostgreSQL: each layout's board as game ids, fastest first."""
    if period.kind is periods.Kind.DAY:
        return _best_in_day(period, limit)
    return _ids_per_layout(period, limit)


def _practice_ids_orm(period: Period, limit: int) -> dict[int, list[int]]:
    """_practice_ids' portable twin: each layout's fastest players walked in time order."""
    wins = SoloGame.objects.filter(CLEAN_WINS, _in("finished_at", period)).only("pk", "player")
    layouts = wins.order_by().values_list("layout_number", flat=True).distinct()
    boards = {}
    for layout in sorted(layouts):
        boards[layout] = [
            game.pk for game in _fastest_players(wins.filter(layout_number=layout), limit)
        ]
    return boards


def practice_boards(period: Period = ALL_TIME, limit: int = BOARD_SIZE) -> list[Board]:
    """One board per built-in layout with a clean win in the period, in catalogue order:
    each player once, with their fastest clean win finished in the period.

    A day holds few wins: one statement ranks them all (_BEST_IN_PERIOD). A week, a month
    and all time hold many: one statement reads each layout's fastest few from an index
    (_FASTEST_PER_LAYOUT) instead of sorting every win."""
    found = _practice_ids(period, limit) if _raw_sql() else _practice_ids_orm(period, limit)
    ids = [pk for board in found.values() for pk in board]
    games = SoloGame.objects.filter(pk__in=ids).select_related("player").defer(*GAME_BULK)
    by_layout = {}
    for game in sorted(games, key=lambda g: (g.time_ms, g.finished_at, g.pk)):
        by_layout.setdefault(game.layout_number, []).append(game)
    return [
        Board(layout_label(entry.number), by_layout[entry.number])
        for entry in CATALOG
        if by_layout.get(entry.number)
    ]


# --- the daily challenge --------------------------------------------------------------


@dataclass
class DailyRow:
    """A player's daily challenges over a week, a month or all time."""

    player: Player
    days: int  # days whose challenge they cleared (their first win of the day's deal)
    total_ms: int  # the time of those wins, added up
    best_ms: int


# Each player's first win of each day's deal among the games started that UTC day (as
# practice/daily.py counts one day), for many days at once: the days and their codes come
# in as two arrays. A flagged or offline first win counts for nothing (a ghost race is no
# attempt at all), and no later win of that day takes its place (docs/RULES.md §Fair
# play). Served by practice 0007_periods_indexes "sologame_code_started".
_FIRSTS_OF_DAYS = """
WITH days(day, code) AS (SELECT * FROM unnest(%s::date[], %s::text[]))
SELECT day, player_id, time_ms FROM (
  SELECT DISTINCT ON (g.player_id, d.day) d.day, g.player_id, g.time_ms, g.pace_flagged,
         g.played_offline
  FROM days d
  JOIN mahjong_sologame g ON g.code = d.code
   AND g.started_at >= (d.day::timestamp AT TIME ZONE 'UTC')
   AND g.started_at < ((d.day + 1)::timestamp AT TIME ZONE 'UTC')
  WHERE g.status = 'won' AND NOT g.ghost
  ORDER BY g.player_id, d.day, g.started_at, g.id
) AS firsts
WHERE NOT pace_flagged AND NOT played_offline
"""
# A past day's first wins, kept in the cache: all time adds up every day since the first,
# and a day that is over hardly changes (an admin clearing a flagged first win shows within
# DAILY_FIRSTS_SECONDS). Today's are always read afresh.
DAILY_FIRSTS = "daily-firsts"
DAILY_FIRSTS_SECONDS = 6 * 3600


def _firsts_sql(days: list[datetime.date]) -> dict:
    codes = [daily_code(day) for day in days]
    with connection.cursor() as cursor:
        cursor.execute(_FIRSTS_OF_DAYS, [days, codes])
        rows = cursor.fetchall()
    read: dict = {day: [] for day in days}
    for day, player, time_ms in rows:
        read[day].append((player, time_ms))
    return read


FIRSTS_DAYS_PER_QUERY = 400  # SQLite's bound parameters are few


def _firsts_orm(days: list[datetime.date]) -> dict:
    """_firsts_sql's portable twin: the won games of the days' deals in the order they
    started, each player's first of a day kept (a flagged first keeps its place, and
    counts for nothing)."""
    read: dict = {day: [] for day in days}
    for n in range(0, len(days), FIRSTS_DAYS_PER_QUERY):
        chunk: dict[str, set] = {}  # a deal's code: the days it is the challenge of
        for day in days[n : n + FIRSTS_DAYS_PER_QUERY]:
            chunk.setdefault(daily_code(day), set()).add(day)
        games = SoloGame.objects.filter(
            status=SoloGame.Status.WON, code__in=list(chunk), ghost=False
        )  # a ghost race is no attempt (docs/RULES.md §Ghost races)
        columns = ("code", "started_at", "player_id", "time_ms", "pace_flagged", "played_offline")
        seen = set()
        for code, started_at, player, time_ms, flagged, offline in games.order_by(
            "started_at", "pk"
        ).values_list(*columns):
            day = started_at.astimezone(datetime.UTC).date()
            if day not in chunk[code] or (player, day) in seen:
                continue
            seen.add((player, day))
            if not (flagged or offline):
                read[day].append((player, time_ms))
    return read


def _firsts_of_days(days: list[datetime.date], until: datetime.date) -> dict:
    """{day: [(player id, time ms), ...]}: each player's first win of each day's deal."""
    keys = {f"{DAILY_FIRSTS}:{day.isoformat()}": day for day in days if day < until}
    found = {keys[key]: rows for key, rows in cache.get_many(list(keys)).items()}
    missing = [day for day in days if day not in found]
    if missing:
        read = _firsts_sql(missing) if _raw_sql() else _firsts_orm(missing)
        cache.set_many(
            {
                f"{DAILY_FIRSTS}:{day.isoformat()}": firsts
                for day, firsts in read.items()
                if day < until
            },
            DAILY_FIRSTS_SECONDS,
        )
        found.update(read)
    return found


def challenge_days(period: Period, until: datetime.date) -> list[datetime.date]:
    """The days of the period up to `until` (today) whose challenge may have been played;
    all time starts on the first day anyone started a game of the daily layout
    (practice 0007_periods_indexes "sologame_layout_started")."""
    if period.first is not None:
        return [day for day in periods.days(period) if day <= until]
    first = SoloGame.objects.filter(layout_number=DAILY_LAYOUT).aggregate(at=Min("started_at"))
    if first["at"] is None:
        return []
    day = first["at"].astimezone(datetime.UTC).date()
    return [day + datetime.timedelta(days=n) for n in range((until - day).days + 1)]


def days_cleared(period: Period, until: datetime.date, limit: int = BOARD_SIZE) -> list:
    """Over a week, a month or all time: players by the number of days whose challenge
    they cleared, then by the total time of those wins (less is better), then the best."""
    days = challenge_days(period, until)
    if not days:
        return []
    totals: dict[int, list[int]] = {}  # player: [days, total ms, best ms]
    for firsts in _firsts_of_days(days, until).values():
        for player, time_ms in firsts:
            row = totals.setdefault(player, [0, 0, time_ms])
            row[0] += 1
            row[1] += time_ms
            row[2] = min(row[2], time_ms)
    best = sorted(totals.items(), key=lambda item: (-item[1][0], item[1][1], item[1][2], item[0]))
    best = best[:limit]
    players = Player.objects.in_bulk([pk for pk, _row in best])
    return [DailyRow(players[pk], count, total, fastest) for pk, (count, total, fastest) in best]


# --- ratings --------------------------------------------------------------------------


@dataclass
class RatingRow:
    player: Player
    shown: int  # the rating as shown: the current one, or the period's best
    games: int  # rated races: all of them, or the period's


def rating_board(limit: int = RATING_BOARD_SIZE, period: Period = ALL_TIME) -> list[RatingRow]:
    """Established ratings only, as lichess lists them: a provisional one ("?") could top
    the board after one lucky race (docs/ACCOUNTS.md §Ratings). All time: the current
    ratings. A day, week or month: the best established rating each player reached in it
    (the rating after a rated race of the period whose deviation was already
    established); races the Elo rated (no deviation kept) count on no period's board."""
    if period.first is None:
        rated = Rating.objects.filter(
            games__gt=0,
            player__merged_into__isnull=True,
            deviation__lte=PROVISIONAL_DEVIATION,
        )
        best = rated.select_related("player").order_by("-value", "player_id")[:limit]
        return [RatingRow(rating.player, rating.shown, rating.games) for rating in best]
    changes = RatingChange.objects.filter(_in("created_at", period), player__merged_into=None)
    best = (
        changes.values("player")
        .annotate(
            best=Max("after", filter=Q(deviation__lte=PROVISIONAL_DEVIATION)),
            races=Count("pk"),
        )
        .filter(best__isnull=False)
        .order_by("-best", "player")[:limit]
    )
    rows = list(best)
    players = Player.objects.in_bulk([row["player"] for row in rows])
    return [RatingRow(players[row["player"]], round(row["best"]), row["races"]) for row in rows]


# --- fastest race wins ----------------------------------------------------------------


# What makes a race win count: a finish within the race's own time limit, every pair of
# it the human's (a stand-in's pairs are nobody's record: docs/RULES.md §Leaving), at a
# human pace (a flagged board is on no board until an admin clears it), not voided.
_RACE_WIN_OWN = Q(
    status=Entry.Status.FINISHED,
    cpu_pairs=0,
    pace_flagged=False,
    voided=False,
    race__status=Race.Status.FINISHED,
    seat__player__isnull=False,
)
# ... and not a quick race's: Race now is unrated, history only (docs/RULES.md §Race now).
RACE_WINS = _RACE_WIN_OWN & Q(race__room__quick=False)
_RACE_WIN_SQL = _sql_of(_RACE_WIN_OWN, {"": ("e", Entry), "race": ("r", Race), "seat": ("s", Seat)})
_RACE_WIN = f"""
  {_RACE_WIN_SQL}
  AND NOT EXISTS (SELECT 1 FROM rooms_room q WHERE q.id = r.room_id AND q.quick)
  AND e.finished_ms <= (r.rules ->> 'time_limit_minutes')::int * %(minute_ms)s
  AND r.finished_at >= %(start)s AND r.finished_at < %(end)s
"""
# All time: each level's fastest few in-time finishes, read in time order from the
# partial index rooms 0013_periods_indexes "entry_clean_level_time".
_FASTEST_PER_LEVEL = f"""
SELECT l.level, w.id, w.player_id
FROM unnest(%(levels)s::text[]) AS l(level)
CROSS JOIN LATERAL (
  SELECT e.id, s.player_id FROM rooms_entry e
  JOIN rooms_race r ON r.id = e.race_id JOIN rooms_seat s ON s.id = e.seat_id
  WHERE e.level = l.level AND {_RACE_WIN}
  ORDER BY e.finished_ms, r.finished_at, e.id
  LIMIT %(read)s
) AS w
"""
# A day, week or month: the period's races (rooms 0013_periods_indexes "race_finished"),
# each player's fastest per level, fastest first.
_BEST_RACES_IN_PERIOD = f"""
SELECT level, id, player_id FROM (
  SELECT DISTINCT ON (e.level, s.player_id) e.level, e.id, s.player_id, e.finished_ms,
         r.finished_at
  FROM rooms_race r JOIN rooms_entry e ON e.race_id = r.id JOIN rooms_seat s ON s.id = e.seat_id
  WHERE e.level = ANY(%(levels)s) AND {_RACE_WIN}
  ORDER BY e.level, s.player_id, e.finished_ms, r.finished_at, e.id
) AS best
ORDER BY finished_ms, finished_at, id
"""


def _race_win_ids(levels: list[str], period: Period, limit: int) -> dict[str, list[int]]:
    """PostgreSQL: each level's board as entry ids, fastest first."""
    start, end = periods.bounds(period)
    read = limit * ROWS_READ_PER_PLACE
    params = {"levels": levels, "minute_ms": MINUTE_MS, "read": read}
    if start is None:
        params.update(start=EVER[0], end=EVER[1])
        sql = _FASTEST_PER_LEVEL
    else:
        params.update(start=start, end=end)
        sql = _BEST_RACES_IN_PERIOD
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    found: dict[str, list[tuple[int, int]]] = {}
    for level, pk, player in rows:
        found.setdefault(level, []).append((pk, player))
    boards = {}
    for level, entries in found.items():
        seen, ids = set(), []
        for pk, player in entries:
            if player not in seen and len(ids) < limit:
                seen.add(player)
                ids.append(pk)
        if len(ids) < limit and start is None and len(entries) == read:
            ids = [entry.pk for entry in _walk_race_wins(level, limit)]
        boards[level] = ids
    return boards


def _race_win_ids_orm(levels: list[str], period: Period, limit: int) -> dict[str, list[int]]:
    """_race_win_ids' portable twin: each level's fastest players walked in time order."""
    boards = {}
    for level in levels:
        ids = [entry.pk for entry in _walk_race_wins(level, limit, period)]
        if ids:
            boards[level] = ids
    return boards


def _walk_race_wins(level: str, limit: int, period: Period = ALL_TIME) -> list[Entry]:
    """Each player's fastest in-time win at `level` in the period, walked in time order
    (_fastest_players): all time on PostgreSQL when one level's first rows read held too
    few players (one player's many fast wins), and every board elsewhere."""
    time_limit_ms = (
        Cast(KeyTextTransform("time_limit_minutes", "race__rules"), IntegerField()) * MINUTE_MS
    )
    wins = Entry.objects.filter(RACE_WINS, _in("race__finished_at", period), level=level)
    wins = wins.alias(time_limit_ms=time_limit_ms)
    in_time = wins.filter(finished_ms__lte=F("time_limit_ms")).select_related("seat")
    return _fastest_players(
        in_time.only("pk", "seat__player"),
        limit,
        who=lambda entry: entry.seat.player_id,
        order=("finished_ms", "race__finished_at"),
    )


def _race_boards(levels: list[str], period: Period, limit: int) -> dict[str, list[Entry]]:
    reader = _race_win_ids if _raw_sql() else _race_win_ids_orm
    ids = reader(levels, period, limit)
    entries = Entry.objects.filter(pk__in=[pk for board in ids.values() for pk in board])
    loaded = entries.select_related("seat__player", "race__room").defer(*ENTRY_BULK).in_bulk()
    return {level: [loaded[pk] for pk in board] for level, board in ids.items()}


def fastest_race_wins(
    level: str, limit: int = BOARD_SIZE, period: Period = ALL_TIME
) -> list[Entry]:
    """Each human's fastest race at `level` finished within the race's time limit in the
    period (by the race's end), every pair of it made by the human."""
    return _race_boards([level], period, limit).get(level, [])


def race_boards(period: Period = ALL_TIME) -> list[Board]:
    """One board per level with a race won in time in the period, easiest first: every
    level's board read at once."""
    found = _race_boards([level for level, _label in Level.choices], period, BOARD_SIZE)
    return [Board(label, found[level]) for level, label in Level.choices if found.get(level)]
