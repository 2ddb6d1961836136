"""Who watches a room: its sockets without a seat, counted in Redis so every web process
sees the same number ("3 watching", docs/PROTOCOL.md). Each watching socket holds a lease
in a sorted set per room (its score: when the lease ends), renewed while it speaks (pages
ping every 15 s) and given back when it closes, so the sockets of a killed web process
stop counting within LEASE_SECONDS. Fails open: without Redis no count is shown.
"""

import json
import logging
import time

import redis
from channels.layers import get_channel_layer

from infra import redis_async
from rooms import events

LEASE_SECONDS = 45
logger = logging.getLogger(__name__)


def _key(code: str) -> str:
    return redis_async.key("watchers", code)


async def _update(code: str, add: str | None = None, drop: str | None = None) -> int | None:
    """Add or drop one watcher's lease, forget lapsed ones; the room's count after."""
    now = time.time()
    try:
        async with redis_async.client().pipeline(transaction=True) as pipe:
            if add:
                pipe.zadd(_key(code), {add: now + LEASE_SECONDS})
            if drop:
                pipe.zrem(_key(code), drop)
            pipe.zremrangebyscore(_key(code), "-inf", now)
            pipe.zcard(_key(code))
            pipe.expire(_key(code), LEASE_SECONDS)
            return (await pipe.execute())[-2]
    except (redis.RedisError, OSError) as error:
        logger.warning("room %s: watchers not counted (Redis: %s)", code, error)
        return None


async def watch(code: str, channel_name: str) -> int | None:
    """A socket without a seat opened, or renews its lease: the count after."""
    return await _update(code, add=channel_name)


async def leave(code: str, channel_name: str) -> int | None:
    return await _update(code, drop=channel_name)


async def count(code: str) -> int | None:
    return await _update(code)


def message(count: int) -> dict:
    """The count as a room event (not versioned: a whole state, like the standings)."""
    text = json.dumps({"type": "watchers", "count": count}, separators=(",", ":"))
    return {"type": "room.event", "kind": "watchers", "text": text}


async def announce(code: str, count: int | None) -> None:
    if count is not None:
        await get_channel_layer().group_send(events.group_name(code), message(count))
