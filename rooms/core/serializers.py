"""The JSON shapes of rooms, races, standings and results (events and snapshots)."""

import time

from django.conf import settings
from django.db.models import Sum
from django.utils import timezone, translation

from accounts.models import Rating, RatingChange
from infra import worker_heartbeat
from mahjong.race_rules import ranking
from mahjong.race_rules.ratings import START_DEVIATION, START_RATING, is_provisional
from mahjong.rules import time_limit_ms
from rooms.core import hot_sql
from rooms.core.boards import board_json
from rooms.core.clock import countdown_at
from rooms.models import Entry, Move, Race, Room, Seat


def iso(moment) -> str | None:
    return moment.isoformat() if moment else None


def seat_json(seat: Seat, next_number: int, rating: str | None = None) -> dict:
    return {
        "id": seat.pk,
        "nickname": seat.nickname,
        # A CPU seat: its level and number, which the page names it by in its reader's
        # language ("CPU 1 (Constante)"); `nickname` is its English name.
        "cpu": seat.cpu_level or None,
        "cpu_number": seat.cpu_number,
        # A player who chose no name: the number the page names them by ("Jugador 12").
        "guest_number": seat.guest_number,
        # Said "Ready" for the room's next race (a rematch's ready check; CPUs always are).
        "ready": seat.is_cpu or seat.ready_for >= next_number,
        "rating": rating,  # in a ranked room: "1500?" (docs/ACCOUNTS.md §Ratings)
    }


def rating_label(value: float, deviation: float | None) -> str:
    """A rating as players read it: its shown number, "?" while provisional."""
    provisional = deviation is not None and is_provisional(deviation)
    return f"{round(value)}{'?' if provisional else ''}"


def rating_labels(player_ids) -> dict[int, str]:
    """Each player's rating label; an unrated player starts at 1500, provisional."""
    found = Rating.objects.filter(player_id__in=player_ids).values_list(
        "player_id", "value", "deviation"
    )
    labels = {player: rating_label(value, deviation) for player, value, deviation in found}
    return {p: labels.get(p, rating_label(START_RATING, START_DEVIATION)) for p in player_ids}


# Who hosts a hosted room (Room.hosted): each hosting domain registers a function
# room -> {"name", "url", "next_url"} or None in its apps.py (arenas/apps.py), so rooms
# never import it (docs/ARCHITECTURE.md §Packages point one way).
_HOSTS: list = []


def register_host(find) -> None:
    if find not in _HOSTS:
        _HOSTS.append(find)


def host_of(room: Room) -> dict | None:
    for find in _HOSTS:
        if (found := find(room)) is not None:
            return found
    return None


def room_json(room: Room) -> dict:
    next_number = room.next_race_number()
    seats = list(room.seats.all())
    ratings = rating_labels([s.player_id for s in seats if s.player_id]) if room.ranked else {}
    return {
        "code": room.code,
        # A ranked room has no owner's tools: nobody's page shows them.
        "owner_seat": None if room.ranked or room.hosted or room.quick else _owner_seat_id(room),
        "ranked": room.ranked,
        # A hosted room's host (an arena): where its players go back to, or None.
        "host": host_of(room) if room.hosted else None,
        # Race now (docs/RULES.md §Race now): the moment it starts by itself, None once started.
        "quick": room.quick,
        "quick_starts_at": iso(room.quick_starts_at),
        "public": room.public,  # listed on /rooms/ while in its lobby
        "rules": room.rules(),
        "seats": [seat_json(seat, next_number, ratings.get(seat.player_id)) for seat in seats],
        "next_race": next_number,
        "offer_at": iso(room.offer_at),
        "ready_seconds": settings.REMATCH_READY_SECONDS,
    }


def _owner_seat_id(room: Room) -> int | None:
    return room.seats.filter(player_id=room.owner_id).values_list("pk", flat=True).first()


def race_json(race: Race) -> dict:
    return {
        "id": race.pk,  # its replay's address, once finished (replays/urls.py)
        "number": race.number,
        "status": race.status,
        "rules": race.rules,
        "started_at": iso(race.started_at),
        "go_at": iso(race.go_at),
        # The 3-2-1 begins here; before it a ranked race gathers its players ("Get ready").
        "countdown_at": iso(countdown_at(race.go_at)) if race.go_at else None,
        "time_limit_at": iso(race.time_limit_at),
        "cut_off_at": iso(race.cut_off_at),
        "finished_at": iso(race.finished_at),
    }


def entry_row(entry: Entry | hot_sql.StandingRow) -> dict:
    return {
        "seat": entry.seat_id,
        "nickname": entry.seat.nickname,
        "cpu": entry.seat.cpu_level or None,
        "cpu_number": entry.seat.cpu_number,
        "guest_number": entry.seat.guest_number,
        # A CPU plays this human's board while they are away (docs/RULES.md §Leaving).
        "stand_in": entry.cpu_control,
        "status": entry.status,
        "progress": entry.progress,
        "finished_ms": entry.finished_ms,
    }


def standings_json(race: Race) -> list[dict]:
    """The live order of docs/RULES.md §Races: finished by time, playing by progress, then
    out or gave up by progress. Read several times a second per room, so just the columns
    shown (hot_sql)."""
    return standings_of(hot_sql.standing_rows(race.pk), race.rules)


def standings_of(rows: list[hot_sql.StandingRow], rules: dict) -> list[dict]:
    """standings_json from boards read already (in entry order) and the race's rules."""
    entries = {row.pk: row for row in rows}
    ordered = ranking.live_order([e.standing() for e in entries.values()], time_limit_ms(rules))
    return [entry_row(entries[s.key]) for s in ordered]


def results_json(race: Race) -> list[dict]:
    entries = race.entries.select_related("seat").order_by("place", "pk")
    rated = _rating_changes(race) if race.room.ranked else {}
    timelines = _timelines(race, {e.pk: e.tile_count for e in entries})
    return [
        {
            **entry_row(e),
            "place": e.place,
            "points": float(e.points or 0),
            "hints_used": e.hints_used,
            "shuffles_used": e.shuffles_used,
            # A stand-in's share of a human's board: shown, never the human's record.
            "cpu_pairs": e.cpu_pairs if e.seat.player_id is not None else 0,
            "pairs": e.pairs_removed,
            "level": e.level,
            "code": e.code,
            "timeline": timelines[e.pk],
            "rating_change": rated.get(e.seat.player_id, {}).get("change"),
            # "1500? → 1662?": the rating before and after this race.
            "rating_from": rated.get(e.seat.player_id, {}).get("from"),
            "rating_to": rated.get(e.seat.player_id, {}).get("to"),
        }
        for e in entries
    ]


def _rating_changes(race: Race) -> dict[int, dict]:
    """Each rated player's change of rating in this ranked race: in whole points, and
    the ratings before and after it as labels."""
    changes = RatingChange.objects.filter(race_ref=race.pk)
    return {
        c.player_id: {
            "change": c.shown_delta,
            "from": rating_label(c.before, c.deviation_before),
            "to": rating_label(c.after, c.deviation),
        }
        for c in changes
    }


def _timelines(race: Race, tile_counts: dict[int, int]) -> dict[int, list[list[int]]]:
    """Each board's [ms since go, progress %] after each of its pairs, for the results
    chart: every board's pairs in one query, not one per board."""
    found = {pk: [] for pk in tile_counts}
    pairs = Move.objects.filter(entry__race=race, kind=Move.Kind.PAIR).order_by(
        "entry_id", "number"
    )
    for entry_id, at in pairs.values_list("entry_id", "at"):
        line = found[entry_id]
        ms = int((at - race.go_at).total_seconds() * 1000)
        line.append([ms, (len(line) + 1) * 200 // tile_counts[entry_id]])
    return found


def table_json(room: Room) -> list[dict]:
    """The room's running table: points summed over its finished races, per seat."""
    totals = (
        Entry.objects.filter(race__room=room, race__status=Race.Status.FINISHED)
        .values(
            "seat_id", "seat__nickname", "seat__cpu_level", "seat__cpu_number", "seat__guest_number"
        )
        .annotate(points=Sum("points"))
        .order_by("-points", "seat_id")
    )
    return [
        {
            "seat": row["seat_id"],
            "nickname": row["seat__nickname"],
            "cpu": row["seat__cpu_level"] or None,
            "cpu_number": row["seat__cpu_number"],
            "guest_number": row["seat__guest_number"],
            "points": float(row["points"]),
        }
        for row in totals
    ]


def history_json(room: Room) -> list[dict]:
    """The room's finished races, oldest first: each one's replay is a link away."""
    finished = room.races.filter(status=Race.Status.FINISHED).order_by("number")
    return [{"id": pk, "number": number} for pk, number in finished.values_list("pk", "number")]


def your_entry_json(entry: Entry, now) -> dict:
    race = entry.race
    gone = now >= race.go_at
    return {
        **entry_row(entry),
        "level": entry.level,
        "code": entry.code if race.status == Race.Status.FINISHED else None,
        "pairs_removed": entry.pairs_removed,
        "hints_left": race.rules["hints"] - entry.hints_used,
        "shuffles_left": race.rules["shuffles"] - entry.shuffles_used,
        "penalty_until": iso(entry.penalty_until),
        "board": board_json(entry, with_faces=gone),
    }


def cpus_paused(room: dict, standings: list[dict]) -> bool:
    """CPU players (seats or stand-ins) are in the room, read from the rows a snapshot
    sends anyway, and no worker of the CPU steps' queue beat lately
    (infra/worker_heartbeat.py, docs/PROTOCOL.md): one Redis read, only in a room with
    CPUs."""
    cpus = any(seat["cpu"] for seat in room["seats"]) or any(r["stand_in"] for r in standings)
    return cpus and not worker_heartbeat.alive()


def snapshot(room: Room, seat: Seat | None, now=None) -> dict:
    """Everything a socket needs to draw the room now, for this seat."""
    now = now or timezone.now()
    race, shared = _shared_part(room)
    data = {**shared, "server_now": iso(now), "you": seat.pk if seat else None}
    # Read each time, not kept: a worker that starts or stops changes it at once.
    data["cpus_paused"] = cpus_paused(shared["room"], shared.get("standings", []))
    if race is not None:
        entry = race.entries.filter(seat=seat).first() if seat else None
        data["entry"] = your_entry_json(entry, now) if entry else None
    return data


# A race's start opens every seat's socket at once (an arena starts up to ten races in one
# pass, 20 seats each): the part of a snapshot that every seat of the room shares is read
# once per room version and language in a web process, and kept this long (the
# standings in it, which move without a new version, are that much older at most).
SHARED_SNAPSHOT_SECONDS = 0.25
_shared: dict[tuple, tuple[float, Race | None, dict]] = {}  # key -> (read at, race, part)


def _shared_part(room: Room) -> tuple[Race | None, dict]:
    key = (room.code, room.version, translation.get_language())
    now = time.monotonic()
    kept = _shared.get(key)
    if kept is not None and now - kept[0] < SHARED_SNAPSHOT_SECONDS:
        return kept[1], kept[2]
    race, part = _read_shared_part(room)
    for old in [k for k, (at, _r, _p) in _shared.items() if now - at >= SHARED_SNAPSHOT_SECONDS]:
        _shared.pop(old, None)  # another thread may have taken it already
    _shared[key] = (now, race, part)
    return race, part


def _read_shared_part(room: Room) -> tuple[Race | None, dict]:
    race = room.current_race()
    part = {
        "type": "snapshot",
        "v": room.version,
        "room": room_json(room),
        "table": table_json(room),
        "history": history_json(room),
        "race": None,
    }
    if race is not None:
        part["race"] = race_json(race)
        part["standings"] = standings_json(race)
        if race.status == Race.Status.FINISHED:
            part["results"] = results_json(race)
    return race, part
