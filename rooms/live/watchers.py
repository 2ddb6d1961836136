"""Who watches a room: its sockets without a seat, counted in Redis so every web process
sees the same number ("3 watching", docs/PROTOCOL.md). Each watching socket holds a lease
in a sorted set per room (its score: when the lease ends), renewed while it speaks (pages
ping every 15 s) and given back when it closes, so the sockets of a killed web process
stop counting within settings.WATCHER_LEASE_SECONDS, 45 s (the renewal that forgets them
says the new count to the room). Fails open: without Redis no count is shown.
"""

import json
import logging
import time

import redis
from channels.layers import get_channel_layer
from django.conf import settings

from infra import redis_async
from rooms.core import events

logger = logging.getLogger(__name__)


def _key(code: str) -> str:
    return redis_async.key("watchers", code)


async def _update(
    code: str, add: str | None = None, drop: str | None = None
) -> tuple[int, int] | None:
    """Add or drop one watcher's lease, forget lapsed ones: (the room's count after, how
    many lapsed)."""
    now = time.time()
    lease = settings.WATCHER_LEASE_SECONDS
    try:
        async with redis_async.client().pipeline(transaction=True) as pipe:
            if add:
                pipe.zadd(_key(code), {add: now + lease})
            if drop:
                pipe.zrem(_key(code), drop)
            pipe.zremrangebyscore(_key(code), "-inf", now)
            pipe.zcard(_key(code))
            pipe.expire(_key(code), lease)
            *_, lapsed, counted, _ = await pipe.execute()
            return counted, lapsed
    except (redis.RedisError, OSError) as error:
        logger.warning("room %s: watchers not counted (Redis: %s)", code, error)
        return None


def _count(updated: tuple[int, int] | None) -> int | None:
    return None if updated is None else updated[0]


async def watch(code: str, channel_name: str) -> int | None:
    """A socket without a seat opened: the count after."""
    return _count(await _update(code, add=channel_name))


async def renew(code: str, channel_name: str) -> int | None:
    """A watching socket renews its lease: the count after if leases lapsed meanwhile
    (then the room must hear it: no socket closed to say so), else None."""
    updated = await _update(code, add=channel_name)
    return updated[0] if updated is not None and updated[1] else None


async def leave(code: str, channel_name: str) -> int | None:
    return _count(await _update(code, drop=channel_name))


async def count(code: str) -> int | None:
    return _count(await _update(code))


def message(count: int) -> dict:
    """The count as a room event (not versioned: a whole state, like the standings)."""
    text = json.dumps({"type": "watchers", "count": count}, separators=(",", ":"))
    return {"type": "room.event", "kind": "watchers", "text": text}


async def announce(code: str, count: int | None) -> None:
    if count is not None:
        await get_channel_layer().group_send(events.group_name(code), message(count))
