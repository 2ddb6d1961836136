"""What rooms tell their sockets: versioned events, published after commit.

Every event carries `v`, the room's version after it. A socket that sees a gap (or
reconnects) asks for a snapshot instead of guessing (DESIGN: versioned events).
"""

from django.db import transaction
from django.db.models import F

from mahjong.channels_send import group_send
from rooms import views_json
from rooms.models import Race, Room


def group_name(room_code: str) -> str:
    return f"room.{room_code}"


def publish(room: Room, event: dict) -> None:
    """Bump the room's version (the caller holds its lock) and send after commit."""
    Room.objects.filter(pk=room.pk).update(version=F("version") + 1)
    room.refresh_from_db(fields=["version"])
    event = {**event, "v": room.version}
    message = {"type": "room.event", "event": event}
    # robust: with Redis down the change is stored all the same, and must be answered as
    # such; the sockets see the version gap on the next event and fetch a snapshot.
    transaction.on_commit(lambda: group_send(group_name(room.code), message), robust=True)


def publish_lobby(room: Room) -> None:
    publish(room, {"type": "lobby", "room": views_json.room_json(room)})


def publish_race_started(room: Room, race: Race) -> None:
    # No faces here: each socket fetches its own board, faces only from "go" on.
    publish(room, {"type": "race_started", "race": views_json.race_json(race)})


def publish_standings(room: Room, race: Race) -> None:
    publish(
        room,
        {"type": "standings", "race": race.number, "standings": views_json.standings_json(race)},
    )


def publish_race_finished(room: Room, race: Race) -> None:
    publish(
        room,
        {
            "type": "race_finished",
            "race": views_json.race_json(race),
            "results": views_json.results_json(race),
            "table": views_json.table_json(room),
        },
    )
