"""How many websockets one device, and one network address, may hold open at once.

Each socket's messages are rate-limited (rooms.consumers), but nothing stopped one client
from opening thousands of sockets, each holding memory, a group subscription and a
database lookup in a web process. Now a socket takes a lease in Redis as it opens (a
sorted set per device and per address: the socket as member, the end of its lease as
score), gives it back when it closes, and renews it while it talks (pages ping every
15 s). A web process killed with sockets open so leaks nothing for longer than
LEASE_SECONDS, and every web process counts together. Past a cap the socket is accepted
only to be told why (error `too_many_sockets`), then closed with REFUSED_CLOSE_CODE.

Fails open: with Redis away, sockets open as before (the site stays playable).
docs/PROTOCOL.md; caps in settings (SOCKETS_PER_DEVICE, SOCKETS_PER_ADDRESS; 0 = none).
"""

import asyncio
import hashlib
import json
import logging
import time
import uuid

import redis
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.identity import COOKIE_NAME, token_from_cookie
from accounts.throttle import socket_address
from infra import language, redis_async

logger = logging.getLogger(__name__)
LEASE_SECONDS = 90
RENEW_AFTER_SECONDS = 20
# Renewals due in a process are gathered this long and sent as one pipeline: one round
# trip a second for the process instead of one a socket (at 1,000 sockets, 50 a second
# were about 4% of the web processes' CPU; docs/PERFORMANCE.md).
RENEW_BATCH_SECONDS = 1.0
REFUSED_CLOSE_CODE = 4429


class SocketCap:
    """ASGI middleware for websockets, inside the cookie middleware (it reads the device
    cookie) and the origin check (a refused origin takes no lease)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        first = await receive()
        lease = Lease(_holders(scope)) if first["type"] == "websocket.connect" else Lease([])
        over = await lease.take()
        if over is not None:
            return await _refuse(scope, send, over)
        try:
            await self.app(scope, lease.renewing(first, receive), send)
        finally:
            await lease.give_back()


def _holders(scope) -> list[tuple[str, str, int]]:
    """(kind, Redis key, cap) of each count this socket falls under."""
    holders = []
    token = token_from_cookie(scope.get("cookies", {}).get(COOKIE_NAME))
    if token and settings.SOCKETS_PER_DEVICE:
        digest = hashlib.sha256(token.encode()).hexdigest()[:24]  # no token in Redis
        key = redis_async.key("sockets", "device", digest)
        holders.append(("device", key, settings.SOCKETS_PER_DEVICE))
    address = socket_address(scope)
    if address and settings.SOCKETS_PER_ADDRESS:
        key = redis_async.key("sockets", "address", address)
        holders.append(("address", key, settings.SOCKETS_PER_ADDRESS))
    return holders


class Lease:
    """One socket's place in each of its counts."""

    def __init__(self, holders):
        self.holders = holders
        self.member = uuid.uuid4().hex
        self.renewed = time.monotonic()

    async def take(self) -> str | None:
        """Counts this socket in; the kind of count it is over (then it is counted out
        again), or None."""
        if not self.holders:
            return None
        now = time.time()
        try:
            async with redis_async.client().pipeline(transaction=True) as pipe:
                for _kind, key, _cap in self.holders:
                    pipe.zremrangebyscore(key, "-inf", now)  # leases of sockets long gone
                    pipe.zadd(key, {self.member: now + LEASE_SECONDS})
                    pipe.zcard(key)
                    pipe.expire(key, LEASE_SECONDS)
                counts = (await pipe.execute())[2::4]
        except (redis.RedisError, OSError) as error:
            logger.warning("socket cap not checked (Redis: %r); socket let in", error)
            self.holders = []
            return None
        holders = zip(self.holders, counts, strict=True)
        over = [kind for (kind, _key, cap), count in holders if count > cap]
        if over:
            await self.give_back()
            return over[0]
        return None

    def renewing(self, first, receive):
        """`receive` for the app: the connect event first, then the socket's own, renewing
        the lease (in the background) when the socket talks and it is due."""
        pending = [first]

        async def receive_renewing():
            if pending:
                return pending.pop()
            event = await receive()
            if self.holders and time.monotonic() - self.renewed > RENEW_AFTER_SECONDS:
                self.renewed = time.monotonic()
                _renew_soon(self.holders, self.member)
            return event

        return receive_renewing

    async def give_back(self) -> None:
        if not self.holders:
            return
        try:
            async with redis_async.client().pipeline(transaction=False) as pipe:
                for _kind, key, _cap in self.holders:
                    pipe.zrem(key, self.member)
                await pipe.execute()
        except (redis.RedisError, OSError) as error:  # the lease runs out by itself
            logger.warning("socket lease not given back (Redis: %r)", error)


_batches: dict[asyncio.AbstractEventLoop, dict[str, set[str]]] = {}  # loop -> key -> members
_flushes: set[asyncio.Task] = set()  # kept referenced until done


def _renew_soon(holders, member: str) -> None:
    """The lease renewed with the process's other renewals of the next moment."""
    loop = asyncio.get_running_loop()
    batch = _batches.get(loop)
    if batch is None:
        batch = _batches[loop] = {}
        task = loop.create_task(_renew_batch(loop))
        _flushes.add(task)
        task.add_done_callback(_flushes.discard)
    for _kind, key, _cap in holders:
        batch.setdefault(key, set()).add(member)


async def _renew_batch(loop) -> None:
    await asyncio.sleep(RENEW_BATCH_SECONDS)
    batch = _batches.pop(loop, {})
    until = time.time() + LEASE_SECONDS
    try:
        async with redis_async.client().pipeline(transaction=False) as pipe:
            for key, members in batch.items():
                pipe.zadd(key, dict.fromkeys(members, until), xx=True)  # only leases still held
                pipe.expire(key, LEASE_SECONDS)
            await pipe.execute()
    except (redis.RedisError, OSError) as error:
        logger.warning("%d socket leases not renewed (Redis: %r)", len(batch), error)


async def _refuse(scope, send, over: str) -> None:
    with translation.override(language.from_scope(scope)):
        if over == "device":
            message = _("too many open connections from this device: close another tab")
        else:
            message = _("too many open connections from your network: try again later")
    error = {"type": "error", "id": None, "code": "too_many_sockets", "message": message}
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps(error)})
    await send({"type": "websocket.close", "code": REFUSED_CLOSE_CODE})
