"""Named helpers for race tests: players with device cookies, sockets, reading events."""

import json

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.identity import COOKIE_NAME, signed_token
from accounts.models import Player
from mahjong.asgi import application
from rooms import lobby

ORIGIN = (b"origin", b"http://127.0.0.1")
HOST = (b"host", b"127.0.0.1")


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
