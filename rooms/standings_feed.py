"""The live panel's feed: a room's standings, sent at most once every STANDINGS_FEED_MS.

At a human pace a full room changes its standings about five times a second, and each
change went to all 20 sockets as a frame of its own: a large share of the site's work
under load (docs/PERFORMANCE.md). Standings are a whole state, not a change, so only the
latest matters: the first change after a send schedules the next one STANDINGS_FEED_MS
later, which reads the standings then, however many pairs fell meanwhile. Each web process
keeps its schedule in its event loop (nothing shared is asked per pair); before it sends,
it takes the room's window in Redis (`SET NX` with the period as expiry), so that a room
whose players are connected to several processes still gets one send per period: a
process that finds the window taken tries again a period later, so its change still goes
out. Without that, two processes sent a busy room's standings twice per period
(docs/PERFORMANCE.md, fourth round).

Standings are not versioned events. Each carries `v`, the room version it was read at (a
page that already holds a later version drops it), and `at`, the server's time of the
read in ms (a page keeps the latest it has seen). docs/PROTOCOL.md.
"""

import asyncio
import json
import time

import redis
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

from infra import redis_async
from infra.channels_send import group_send, log_failure, web_event_loop
from rooms import events, hot_sql, views_json
from rooms.socket_db import in_db_thread

_pending: set[str] = set()  # rooms with a send scheduled; touched only in the event loop


def changed(code: str) -> None:
    """The room's standings changed in the current transaction: send them after commit."""
    # robust: with Redis down the change is stored all the same (the feed catches up).
    transaction.on_commit(lambda: _schedule(code), robust=True)


def _schedule(code: str) -> None:
    loop = web_event_loop()
    if loop is None:  # a worker's task, a script: no event loop to wait on, send now
        message = standings_message(code)
        if message is not None:
            group_send(events.group_name(code), message)
        return
    loop.call_soon_threadsafe(_schedule_in_loop, code)


def _schedule_in_loop(code: str) -> None:
    if code not in _pending:
        _pending.add(code)
        asyncio.create_task(_send_later(code)).add_done_callback(log_failure)


async def _send_later(code: str) -> None:
    period = settings.STANDINGS_FEED_MS / 1000
    try:
        while not await _take_window(code):
            await asyncio.sleep(period)  # another process sends this period
        await asyncio.sleep(period)
    finally:  # also when cancelled (shutdown), or the room would never be sent again
        # Cleared before reading: a change committed after the read schedules a send of
        # its own, and one committed before it is in what is read.
        _pending.discard(code)
    read = await in_db_thread(_read)(code)
    if read is not None and await _rows_changed(code, read[1]):
        await get_channel_layer().group_send(events.group_name(code), read[0])


async def _rows_changed(code: str, rows: bytes) -> bool:
    """False when the room's last standings sent, by any process, had these very rows (a
    shuffle, a change undone within the period): a frame equal to the one before is
    waste (docs/PERFORMANCE.md). One `SET … GET`, at most once a period a room. Fails
    open: with Redis away, sends go out as before."""
    key = redis_async.key("standings-rows", code)
    try:
        before = await redis_async.client().set(key, rows, get=True, ex=_ROWS_KEPT_SECONDS)
    except (redis.RedisError, OSError):
        return True
    return before != rows


_ROWS_KEPT_SECONDS = 3600  # longer than any race; an idle room's memory then goes


async def _take_window(code: str) -> bool:
    """True when this process may send the room's next standings: no other process has
    taken the current period. Fails open: with Redis away, sends go out as before."""
    key = redis_async.key("standings", code)
    try:
        window = settings.STANDINGS_FEED_MS
        return bool(await redis_async.client().set(key, b"1", nx=True, px=window))
    except (redis.RedisError, OSError):
        return True


def standings_message(code: str) -> dict | None:
    """The room's standings now, as a channel-layer message (None: no race to show)."""
    read = _read(code)
    return None if read is None else read[0]


def _read(code: str) -> tuple[dict, bytes] | None:
    """The room's standings message now, and its rows (with the race's number) as the
    bytes two sends compare; None: no race to show."""
    version, race = hot_sql.room_version_and_race(code)
    if race is None:
        return None
    rows = views_json.standings_json(race)
    event = {
        "type": "standings",
        "race": race.number,
        "v": version,
        "at": int(time.time() * 1000),
        "standings": rows,
    }
    text = json.dumps(event, separators=(",", ":"))
    same = json.dumps([race.number, rows], separators=(",", ":")).encode()
    return {"type": "room.event", "kind": "standings", "text": text}, same
