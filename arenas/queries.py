"""What arena pages read (read only): the lists, an arena's table, its races running now,
its podium, and the winners of a period (for records' leaderboards)."""

from datetime import datetime

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import get_language

from arenas.models import Arena, ArenaPlayer, ArenaRace
from layouts import library
from mahjong.race_rules.arena_points import on_fire
from mahjong.rules import Level
from rooms.models import Race


def iso(moment) -> str | None:
    return moment.isoformat() if moment else None


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
    players = list(ArenaPlayer.objects.filter(arena=arena))

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
    owned = (
        ArenaRace.objects.filter(arena=arena, race__status=Race.Status.RUNNING)
        .select_related("race__room")
        .order_by("pk")
    )
    races = []
    for each in owned:
        seats = each.race.room.seats.order_by("pk").values_list("nickname", flat=True)
        races.append({"room": each.race.room.code, "players": list(seats)})
    return races


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


def state_json(arena: Arena, player_id: int | None, now: datetime | None = None) -> dict:
    """Everything the arena page draws now, for this player (None: a spectator)."""
    now = now or timezone.now()
    players = ranked_players(arena)
    mine = next((p for p in players if p.player_id == player_id), None)
    you = None
    if mine is not None:
        racing = (
            ArenaRace.objects.filter(
                arena=arena,
                race__status=Race.Status.RUNNING,
                race__room__seats__player_id=player_id,
            )
            .select_related("race__room")
            .first()
        )
        you = {
            "id": mine.pk,
            "name": mine.nickname,
            "state": mine.state,
            "all_in": mine.all_in,
            "rank": mine.rank,
            "points": mine.points,
            "room": racing.race.room.code if racing else None,
        }
    finished = arena.status == Arena.Status.FINISHED
    return {
        "type": "state",
        "server_now": iso(now),
        "arena": arena_json(arena),
        "table": table_json(arena, players),
        "races": [] if finished else running_races(arena),
        "you": you,
        "podium": [row for row in table_json(arena, players)[:3]] if finished else [],
    }


def winners_between(start: datetime, end: datetime) -> list[dict]:
    """The winners of the arenas that finished in [start, end): per player, wins (first
    place) and podiums (top three), most wins first. For records' leaderboards by period."""
    done = Arena.objects.filter(
        Q(status=Arena.Status.FINISHED), finished_at__gte=start, finished_at__lt=end
    )
    tally: dict[int, dict] = {}
    for arena in done:
        for row in ranked_players(arena)[:3]:
            if row.races == 0:
                continue
            line = tally.setdefault(
                row.player_id,
                {"player_id": row.player_id, "name": row.nickname, "wins": 0, "podiums": 0},
            )
            line["podiums"] += 1
            line["wins"] += row.rank == 1
    return sorted(tally.values(), key=lambda t: (-t["wins"], -t["podiums"], t["name"]))
