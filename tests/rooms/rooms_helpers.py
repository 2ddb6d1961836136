"""Named helpers for race tests: players with device cookies, sockets, reading events."""

import json
import time
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.apps import apps
from django.utils import timezone

from accounts.identity import COOKIE_NAME, signed_token
from accounts.models import Player
from config.asgi import application
from rooms.core.boards import deal_for, position_of
from rooms.core.errors import RoomError
from rooms.lobby import actions as lobby
from rooms.lobby import rematch
from rooms.models import Entry, Move
from rooms.race import actions as races

ORIGIN = (b"origin", b"http://127.0.0.1")
HOST = (b"host", b"127.0.0.1")
# When `started` starts a race unless told otherwise: the tests' load time, one instant
# for every race of a module, whatever the real clock says meanwhile.
T0 = timezone.now()


def cookie_for(player: Player) -> str:
    return f"{COOKIE_NAME}={signed_token(player.device_token)}"


def room_with(*nicknames, cpus=()):
    """A room owned by the first player, the others seated; returns (room, players)."""
    players = [Player.objects.create() for _ in nicknames]
    room = lobby.create_room(players[0], nicknames[0])
    for player, nickname in zip(players[1:], nicknames[1:], strict=True):
        lobby.join_room(player, room.code, nickname)
    for level in cpus:
        lobby.add_cpu(players[0], room.code, level)
    return room, players


def started(room, owner, at=T0, seed=None):
    """The room's race, started by `owner` at `at` (on the deal of `seed`, if given),
    and a moment one second past its go: (race, now)."""
    race = races.start_race(owner, room.code, now=at, seed=seed)
    return race, race.go_at + timedelta(seconds=1)


def board_of(nickname: str, number: int = 1) -> Entry:
    """The board of the seat called `nickname` in the room's race `number`."""
    return Entry.objects.get(seat__nickname=nickname, race__number=number)


def first_plan_pair(entry: Entry) -> list[int]:
    """The first pair of the winning plan of the entry's deal (legal on its fresh board),
    lower tile first."""
    return sorted(deal_for(entry.code).plan[0])


def plan_pair(entry: Entry, k: int) -> list[int]:
    """The k-th pair of the deal's winning plan (legal once the ones before it are made)."""
    return sorted(deal_for(entry.code).plan[k])


def stored_pairs(entry: Entry) -> list[list[int]]:
    """The pairs of `entry`'s board stored in the database, in the order played."""
    return list(
        Move.objects.filter(entry=entry, kind=Move.Kind.PAIR).values_list("tiles", flat=True)
    )


def wait_stored(entry: Entry, count: int, seconds: float = 20) -> list[list[int]]:
    """The stored pairs, once there are `count` of them (or `seconds` have passed)."""
    deadline = time.monotonic() + seconds
    while len(stored_pairs(entry)) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    return stored_pairs(entry)


def progress_of(entry: Entry) -> str:
    """The board's progress as the server stores it, as the page writes it."""
    return f"{position_of(Entry.objects.get(pk=entry.pk)).progress()}%"


# The apps whose rows a refused action must leave as they were: rooms, seats, races,
# boards, moves, the queue and the pools; players and ratings; solo games.
STATE_APPS = ("rooms", "accounts", "practice")


def stored_state() -> dict[str, list[tuple]]:
    """Every row of STATE_APPS' tables, per model, in key order."""
    return {
        model.__name__: list(model.objects.order_by("pk").values_list())
        for label in STATE_APPS
        for model in apps.get_app_config(label).get_models()
    }


def refusal(code: str, call, *args, **kwargs) -> str:
    """`call(*args, **kwargs)` raises RoomError `code`; its message. For a refusal that
    may change something (an action after the cut-off closes the race), or one whose
    tables another connection changes meanwhile; otherwise use `refused`."""
    with pytest.raises(RoomError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value.message
    return caught.value.message


def refused(code: str, call, *args, **kwargs) -> str:
    """`call(*args, **kwargs)` raises RoomError `code` and changes nothing: every row
    of STATE_APPS reads back as before (rooms/core/errors.py: "nothing was changed"). The
    error's message."""
    before = stored_state()
    message = refusal(code, call, *args, **kwargs)
    after = stored_state()
    changed = [model for model, rows in before.items() if after[model] != rows]
    assert not changed, f"refused as {code!r}, yet rows of {changed} changed"
    return message


class Socket:
    """A websocket client of one player; `next(type)` skips other events."""

    def __init__(self, code, player=None, origin=ORIGIN):
        headers = [origin, HOST]
        if player is not None:
            headers.append((b"cookie", cookie_for(player).encode()))
        self.ws = WebsocketCommunicator(application, f"/ws/rooms/{code}/", headers=headers)
        self.seen = []

    async def open(self):
        connected, _ = await self.ws.connect()
        assert connected
        return await self.next("snapshot")

    async def send(self, **message):
        await self.ws.send_to(text_data=json.dumps(message))

    async def raw(self, text):
        await self.ws.send_to(text_data=text)

    async def next(self, *types, timeout=10):
        while True:
            message = await self.ws.receive_json_from(timeout=timeout)
            self.seen.append(message)
            if not types or message["type"] in types:
                return message

    async def go(self, timeout=10):
        """This seat's board with its faces once the race runs: the "go" message's, or that
        of a snapshot read past "go" already, which no "go" follows (docs/PROTOCOL.md)."""
        while True:
            message = await self.next("go", "snapshot", timeout=timeout)
            if message["type"] == "go":
                return message["board"]
            race, entry = message.get("race"), message.get("entry")
            if race and race["status"] == "running" and entry and _has_faces(entry["board"]):
                return entry["board"]

    async def ask(self, **message):
        """Send a message with an id; return the answer to it (ack, error, ...)."""
        message.setdefault("id", len(self.seen) + 1000)
        await self.send(**message)
        while True:
            answer = await self.next()
            if answer.get("id") == message["id"]:
                return answer

    async def nothing_more(self):
        return await self.ws.receive_nothing(timeout=0.3)

    async def close(self):
        await self.ws.disconnect()


db = sync_to_async


async def seated(*nicknames, cpus=()):
    """A room whose players all have an open socket: (room, players, sockets)."""
    room, players = await db(room_with)(*nicknames, cpus=cpus)
    sockets = [Socket(room.code, player) for player in players]
    for socket in sockets:
        await socket.open()
    return room, players, sockets


async def close_all(sockets):
    for socket in sockets:
        await socket.close()


def everyone_ready(owner, code, now=None):
    """After a race: the owner offers another game and every seated human says Ready
    (rooms/lobby/rematch.py), so the next start_race gives every seat a board."""
    room = rematch.offer_rematch(owner, code, now=now)
    for seat in room.seats.exclude(player=None).select_related("player"):
        rematch.say_ready(seat.player, code)


def _has_faces(board: dict) -> bool:
    return bool(board["tiles"]) and "face" in board["tiles"][0]
