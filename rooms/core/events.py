"""What rooms tell their sockets: versioned events, recorded on the caller's outbox and
sent after commit (rooms/core/outbox.py).

Every event carries `v`, the room's version after it, advanced by the action that sends
it (rooms.core.room.advance_version). A socket that sees a gap (or reconnects) asks for a
snapshot instead of guessing (docs/ARCHITECTURE.md §Versioned events). The live
standings are not among them: they are a whole state, sent at a measured pace by
rooms/live/standings_feed.py.
"""

import json

from rooms.core import outbox, serializers
from rooms.models import Race, Room, Seat


def group_name(room_code: str) -> str:
    return f"room.{room_code}"


def publish(room: Room, version: int, event: dict) -> None:
    """Record the event, marked with the room's `version`: its caller sends it after
    commit, never for a rolled-back change."""
    event = {**event, "v": version}
    # Encoded once here, not once per socket: a pair in a full room reaches 20 sockets.
    text = json.dumps(event, separators=(",", ":"))
    message = {"type": "room.event", "kind": event["type"], "text": text}
    outbox.record(outbox.GroupMessage(group_name(room.code), message))


def publish_lobby(room: Room, version: int) -> None:
    publish(room, version, {"type": "lobby", "room": serializers.room_json(room)})


def publish_race_started(room: Room, race: Race, version: int) -> None:
    # No faces here: each socket fetches its own board, faces only from "go" on.
    publish(room, version, {"type": "race_started", "race": serializers.race_json(race)})


def publish_race_finished(room: Room, race: Race, version: int) -> None:
    publish(
        room,
        version,
        {
            "type": "race_finished",
            "race": serializers.race_json(race),
            "results": serializers.results_json(race),
            "table": serializers.table_json(room),
            "history": serializers.history_json(room),
        },
    )


def publish_stand_in(room: Room, seat: Seat, on: bool, version: int, pairs: int = 0) -> None:
    """A CPU took an absent human's board (`on`), or the human took it back (`pairs`:
    those the stand-in made while the human was away)."""
    event = {
        "type": "stand_in",
        "seat": seat.pk,
        "nickname": seat.nickname,
        "guest_number": seat.guest_number,  # named by each page in its language
        "on": on,
    }
    if not on:
        event["pairs"] = pairs
    publish(room, version, event)
