"""What arena pages read (read only): the lists, an arena's table, its races running now,
its podium, and the winners of a period (for records' leaderboards)."""

from datetime import datetime

from django.utils import timezone
from django.utils.translation import get_language

from arenas.models import Arena, ArenaPlayer, ArenaRace
from layouts import library
from mahjong.race_rules.arena_points import on_fire
from mahjong.rules import Level
from rooms.core.serializers import iso
from rooms.models import Race, Seat, seat_name


def listed(now: datetime | None = None) -> dict:
    """The public arenas running now and upcoming (soonest first), and the latest
    finished ones."""
    now = now or timezone.now()
    public = Arena.objects.filter(public=True)
    running = public.filter(status=Arena.Status.RUNNING).order_by("starts_at")
    upcoming = public.filter(status=Arena.Status.UPCOMING).order_by("starts_at")
    finished = public.filter(status=Arena.Status.FINISHED).order_by("-starts_at")
    return {
        "running": list(running),
        "upcoming": list(upcoming[:10]),
        "finished": list(finished[:5]),
    }


def next_arena(now: datetime | None = None) -> Arena | None:
    """The home page's arena: the running public one ending last, else the next to start."""
    public = Arena.objects.filter(public=True)
    running = public.filter(status=Arena.Status.RUNNING).order_by("starts_at").first()
    return running or public.filter(status=Arena.Status.UPCOMING).order_by("starts_at").first()


def ranked_players(arena: Arena) -> list[ArenaPlayer]:
    """The table's order: points, then the higher average share, then best time, then
    who joined first. Each gets `.rank` (equal on all three: the same rank)."""
    return _ranked(list(ArenaPlayer.objects.filter(arena=arena)))


def _ranked(players: list[ArenaPlayer]) -> list[ArenaPlayer]:
    """ranked_players' order and ranks, for one arena's players as read."""

    def key(p):
        return (-p.points, -p.average_share, p.best_ms if p.best_ms is not None else 1 << 62)

    players.sort(key=lambda p: (*key(p), p.joined_at, p.pk))
    previous = None
    for index, player in enumerate(players):
        player.rank = (
            previous.rank if previous is not None and key(previous) == key(player) else index + 1
        )
        previous = player
    return players


def table_json(arena: Arena, players: list[ArenaPlayer] | None = None) -> list[dict]:
    players = ranked_players(arena) if players is None else players
    return [
        {
            "rank": p.rank,
            "id": p.pk,
            "name": p.nickname,
            "points": p.points,
            "races": p.races,
            "fire": on_fire(p.streak),
            "best_ms": p.best_ms,
            "state": p.state,
        }
        for p in players
    ]


def running_races(arena: Arena) -> list[dict]:
    """The arena's races under way: each room's code, its seats' names, and (not for the
    page) the players seated there, read in two queries whatever their number."""
    owned = list(
        ArenaRace.objects.filter(arena=arena, race__status=Race.Status.RUNNING)
        .order_by("pk")
        .values_list("race__room_id", "race__room__code")
    )
    seats: dict[int, list[tuple[str, int | None]]] = {room: [] for room, _code in owned}
    rows = Seat.objects.filter(room_id__in=seats).order_by("pk")
    columns = ("room_id", "nickname", "cpu_level", "cpu_number", "guest_number", "player_id")
    for room_id, *name, player_id in rows.values_list(*columns):
        # Read in each socket's language: a CPU's or a nameless player's name is its reader's.
        seats[room_id].append((seat_name(*name), player_id))
    return [
        {
            "room": code,
            "players": [name for name, _player in seats[room]],
            "player_ids": [player for _name, player in seats[room] if player is not None],
        }
        for room, code in owned
    ]


def board_label(arena: Arena) -> str:
    """What the arena is raced on: the level's name, or the layout's title."""
    if arena.layout:
        return library.title_of(arena.layout, get_language() or "en")
    return str(Level(arena.level).label)


def arena_json(arena: Arena) -> dict:
    return {
        "code": arena.code,
        "name": arena.name,
        "status": arena.status,
        "public": arena.public,
        "level": arena.level,
        "board": board_label(arena),
        "minutes": arena.minutes,
        "time_limit_minutes": arena.time_limit_minutes,
        "starts_at": iso(arena.starts_at),
        "ends_at": iso(arena.ends_at),
    }


def state_parts(arena: Arena, now: datetime | None = None) -> tuple[dict, dict[int, dict]]:
    """What the arena page draws now, in two parts: the state every reader shares (the
    arena, its table, its races, the podium; no "you") and, by player id, each joined
    player's own "you". Read once for all of a process's sockets (arenas/consumers.py)."""
    now = now or timezone.now()
    players = ranked_players(arena)
    finished = arena.status == Arena.Status.FINISHED
    races = [] if finished else running_races(arena)
    racing_in = {player: race["room"] for race in races for player in race.pop("player_ids")}
    table = table_json(arena, players)
    shared = {
        "type": "state",
        "server_now": iso(now),
        "arena": arena_json(arena),
        "table": table,
        "races": races,
        "podium": table[:3] if finished else [],
    }
    yours = {
        p.player_id: {
            "id": p.pk,
            "name": p.nickname,
            "state": p.state,
            "all_in": p.all_in,
            "rank": p.rank,
            "points": p.points,
            "room": racing_in.get(p.player_id),
        }
        for p in players
    }
    return shared, yours


def state_json(arena: Arena, player_id: int | None, now: datetime | None = None) -> dict:
    """Everything the arena page draws now, for this player (None: a spectator)."""
    shared, yours = state_parts(arena, now)
    return {**shared, "you": yours.get(player_id)}


def winners_between(start: datetime | None, end: datetime | None) -> list[dict]:
    """The winners of the arenas that finished in [start, end) (None: unbounded): per
    player, wins (first place, ties included) and podiums (top three), most wins first.
    Every finished arena's players in one query. For records' leaderboards by period."""
    done = Arena.objects.filter(status=Arena.Status.FINISHED)
    if start is not None:
        done = done.filter(finished_at__gte=start)
    if end is not None:
        done = done.filter(finished_at__lt=end)
    by_arena: dict[int, list[ArenaPlayer]] = {}
    for player in ArenaPlayer.objects.filter(arena__in=done, races__gt=0):
        by_arena.setdefault(player.arena_id, []).append(player)
    tally: dict[int, dict] = {}
    for players in by_arena.values():
        for row in _ranked(players)[:3]:
            line = tally.setdefault(
                row.player_id,
                {"player_id": row.player_id, "name": row.nickname, "wins": 0, "podiums": 0},
            )
            line["podiums"] += 1
            line["wins"] += row.rank == 1
    return sorted(tally.values(), key=lambda t: (-t["wins"], -t["podiums"], t["name"]))
