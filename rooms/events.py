"""What rooms tell their sockets: versioned events, published after commit.

Every event carries `v`, the room's version after it, advanced by the action that sends
it (rooms.lobby.advance_version). A socket that sees a gap (or reconnects) asks for a
snapshot instead of guessing (docs/ARCHITECTURE.md §Versioned events). The live
standings are not among them: they are a whole state, sent at a measured pace by
rooms/standings_feed.py.
"""

import json

from django.db import transaction

from infra.channels_send import group_send
from rooms import views_json
from rooms.models import Race, Room, Seat


def group_name(room_code: str) -> str:
    return f"room.{room_code}"


def publish(room: Room, version: int, event: dict) -> None:
    """Send the event, marked with the room's `version`, once the transaction commits."""
    event = {**event, "v": version}
    # Encoded once here, not once per socket: a pair in a full room reaches 20 sockets.
    text = json.dumps(event, separators=(",", ":"))
    message = {"type": "room.event", "kind": event["type"], "text": text}
    # robust: with Redis down the change is stored all the same, and must be answered as
    # such; the sockets see the version gap on the next event and fetch a snapshot.
    transaction.on_commit(lambda: group_send(group_name(room.code), message), robust=True)


def publish_lobby(room: Room, version: int) -> None:
    publish(room, version, {"type": "lobby", "room": views_json.room_json(room)})


def publish_race_started(room: Room, race: Race, version: int) -> None:
    # No faces here: each socket fetches its own board, faces only from "go" on.
    publish(room, version, {"type": "race_started", "race": views_json.race_json(race)})


def publish_race_finished(room: Room, race: Race, version: int) -> None:
    publish(
        room,
        version,
        {
            "type": "race_finished",
            "race": views_json.race_json(race),
            "results": views_json.results_json(race),
            "table": views_json.table_json(room),
            "history": views_json.history_json(room),
        },
    )


def publish_stand_in(room: Room, seat: Seat, on: bool, version: int, pairs: int = 0) -> None:
    """A CPU took an absent human's board (`on`), or the human took it back (`pairs`:
    those the stand-in made while the human was away)."""
    event = {"type": "stand_in", "seat": seat.pk, "nickname": seat.nickname, "on": on}
    if not on:
        event["pairs"] = pairs
    publish(room, version, event)
