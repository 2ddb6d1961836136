"""One device, and one network address, may hold only so many websockets open at once
(infra/socket_cap.py): past the cap a socket is told why and closed, nothing else
changes, and a place given back or left by a dead process is free again."""

import asyncio
import time
import uuid

import pytest
import redis
from django.conf import settings as django_settings

from infra import socket_cap
from tests.conftest import free_port
from tests.rooms.rooms_helpers import Socket, db, room_with

pytestmark = pytest.mark.django_db(transaction=True)


def at_address(socket: Socket, address: str, forwarded: str | None = None) -> Socket:
    """The socket as if it came from `address` (and through a proxy that wrote `forwarded`)."""
    socket.ws.scope["client"] = (address, 40000)
    if forwarded is not None:
        socket.ws.scope["headers"].append((b"x-forwarded-for", forwarded.encode()))
    return socket


async def refused_socket(socket: Socket) -> dict:
    """The one error a refused socket gets, after checking that it is then closed."""
    connected, _ = await socket.ws.connect()
    assert connected  # accepted only to be told why
    error = await socket.ws.receive_json_from()
    closing = await socket.ws.receive_output()
    assert closing == {"type": "websocket.close", "code": socket_cap.REFUSED_CLOSE_CODE}
    return error


def leases(kind: str, name: str) -> dict[bytes, float]:
    from infra import redis_async

    client = redis.Redis.from_url(django_settings.REDIS_URL)
    # redis_async.key needs no event loop: only the site's prefix.
    return dict(client.zrange(redis_async.key("sockets", kind, name), 0, -1, withscores=True))


async def test_a_device_past_its_cap_is_told_why_and_a_closed_tab_makes_room(settings):
    settings.SOCKETS_PER_DEVICE = 2
    room, (ana,) = await db(room_with)("Ana")
    first, second = Socket(room.code, ana), Socket(room.code, ana)
    await first.open()
    await second.open()
    error = await refused_socket(Socket(room.code, ana))
    assert error["type"] == "error" and error["code"] == "too_many_sockets"
    assert "device" in error["message"]
    await first.ask(type="ping", t=1)  # the open ones are untouched
    await first.close()
    again = Socket(room.code, ana)
    assert (await again.open())["room"]["code"] == room.code
    await second.close()
    await again.close()


async def test_a_refusal_is_in_the_players_language(settings):
    settings.SOCKETS_PER_DEVICE = 1
    room, (ana,) = await db(room_with)("Ana")
    held = Socket(room.code, ana)
    await held.open()
    spanish = Socket(room.code, ana)
    spanish.ws.scope["headers"].append((b"accept-language", b"es"))
    error = await refused_socket(spanish)
    assert error["code"] == "too_many_sockets"
    assert "dispositivo" in error["message"]
    await held.close()


async def test_an_address_past_its_cap_is_refused_whatever_the_devices(settings):
    settings.SOCKETS_PER_ADDRESS = 2
    room, players = await db(room_with)("Ana", "Bo", "Cy")
    school = f"test-{uuid.uuid4().hex}"
    ana, bo = (at_address(Socket(room.code, p), school) for p in players[:2])
    await ana.open()
    await bo.open()
    error = await refused_socket(at_address(Socket(room.code, players[2]), school))
    assert error["code"] == "too_many_sockets" and "network" in error["message"]
    elsewhere = at_address(Socket(room.code, players[2]), f"test-{uuid.uuid4().hex}")
    await elsewhere.open()  # another address counts on its own
    for socket in (ana, bo, elsewhere):
        await socket.close()
    assert leases("address", school) == {}  # every place given back


async def test_behind_the_proxy_a_forged_forwarded_for_does_not_dodge_the_address_cap(settings):
    settings.SOCKETS_PER_ADDRESS = 1
    settings.BEHIND_TLS_PROXY = True
    room, players = await db(room_with)("Ana", "Bo")
    client = f"test-{uuid.uuid4().hex}"  # what the proxy saw and wrote last
    first = at_address(Socket(room.code, players[0]), "10.0.0.2", f"1.1.1.1, {client}")
    await first.open()
    forged = at_address(Socket(room.code, players[1]), "10.0.0.2", f"2.2.2.2, {client}")
    assert (await refused_socket(forged))["code"] == "too_many_sockets"
    await first.close()


async def test_a_lease_left_by_a_killed_web_process_runs_out(settings):
    settings.SOCKETS_PER_ADDRESS = 1
    room, (ana,) = await db(room_with)("Ana")
    address = f"test-{uuid.uuid4().hex}"
    from infra import redis_async

    client = redis.Redis.from_url(django_settings.REDIS_URL)
    key = redis_async.key("sockets", "address", address)
    client.zadd(key, {b"socket-of-a-dead-process": time.time() - 1})  # its lease ended
    socket = at_address(Socket(room.code, ana), address)
    await socket.open()
    assert b"socket-of-a-dead-process" not in leases("address", address)
    await socket.close()


async def test_a_socket_that_talks_renews_its_lease(settings, monkeypatch):
    settings.SOCKETS_PER_ADDRESS = 5
    monkeypatch.setattr(socket_cap, "RENEW_AFTER_SECONDS", 0)
    monkeypatch.setattr(socket_cap, "RENEW_BATCH_SECONDS", 0)  # sent at the next turn
    room, (ana,) = await db(room_with)("Ana")
    address = f"test-{uuid.uuid4().hex}"
    socket = at_address(Socket(room.code, ana), address)
    await socket.open()
    (taken,) = leases("address", address).values()
    time.sleep(0.05)
    await socket.ask(type="ping", t=1)
    await socket.ask(type="ping", t=2)  # the renewal runs beside the first message
    (renewed,) = leases("address", address).values()
    assert renewed > taken
    await socket.close()


async def test_with_its_redis_unreachable_the_cap_lets_sockets_in(settings):
    settings.SOCKETS_PER_DEVICE = 1
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    room, (ana,) = await db(room_with)("Ana")
    sockets = [Socket(room.code, ana) for _ in range(3)]  # past the cap of 1, twice
    for socket in sockets:  # not counted, so none refused: the site stays playable
        snapshot = await socket.open()
        assert socket.seen == [snapshot] and snapshot["room"]["code"] == room.code
    for socket in sockets:  # and every one stays open and answers
        assert (await socket.ask(type="ping", t=1))["type"] == "pong"
        await socket.close()


async def test_hundreds_of_sockets_closing_at_once_all_give_their_place_back():
    # Past the Redis pool's size, commands wait for a connection instead of failing: 300
    # leases taken and given back at the same moment (an arena race's sockets closing).
    name = uuid.uuid4().hex
    key = socket_cap.redis_async.key("sockets", "device", name)
    many = [socket_cap.Lease([("device", key, 1000)]) for _ in range(300)]
    assert await asyncio.gather(*(lease.take() for lease in many)) == [None] * 300
    assert len(leases("device", name)) == 300
    await asyncio.gather(*(lease.give_back() for lease in many))
    assert leases("device", name) == {}
