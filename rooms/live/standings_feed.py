"""The live panel's feed: a room's standings, published at most once every
STANDINGS_FEED_MS for the whole room, however many processes change them.

At a human pace a full room changes its standings about five times a second, and each
change went to all 20 sockets as a frame of its own: a large share of the site's work
under load (docs/PERFORMANCE.md). Standings are a whole state, not a change, so only the
latest matters.

The room's window is a Redis key (`…:standings:CODE`), shared by every web process and
worker: while it exists, nobody else may publish the room's standings.

- A change takes the window (`SET NX`, held for HOLD_MS at most, so a process that died
  holding it blocks the room for no longer) if it is open, that is if nobody published
  in the last period: it reads the standings now, then, in one script, compares them
  with the last published and sets the window to end one period **after that check**,
  just before the publish (not after the take: a slow read would otherwise let the next
  publish come early; docs/PERFORMANCE.md, "the pace"), and publishes them.
- A change that finds the window closed learns when it ends (`PTTL`, in the same round
  trip) and tries again then, so it still goes out (in a web process, one asyncio task
  per room and process, which goes on taking windows while changes keep coming and
  knows when its own window ends without asking; in a worker or a view, which have no
  loop to wait in, one Celery task `rooms.tasks.send_standings` per room and window,
  counted down).
- The standings read are built once, by the process that holds the window: one JSON
  text, published on the channel layer and written to every socket as it is, on every
  web process (rooms/consumers.py `room_event`).
- Rows equal to the last published (kept in Redis, so across processes) are not sent:
  a shuffle, a change undone within the period. The window then ends at once (the last
  publish was a period ago or more).
- Each publish costs Redis two round trips (the take, the check) besides the publish
  itself: at 1,000 players the window's scripts were the largest share of the web
  processes' CPU (docs/PERFORMANCE.md §The pair's cost on a quiet machine).

Redis away: sends go out unpaced, as each change asks (fails open).

Standings are not versioned events. Each carries `v`, the room version it was read at (a
page that already holds a later version drops it), and `at`, the server's time of the
read in ms (a page keeps the latest it has seen). docs/PROTOCOL.md.
"""

import asyncio
import contextlib
import functools
import logging
import time
import uuid
from dataclasses import dataclass
from typing import ClassVar

import msgspec
import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from infra import async_db, redis_async, redis_links
from infra.channels_send import log_failure
from rooms.core import events, hot_sql, outbox, serializers, tasks_sent
from rooms.live.socket_db import in_db_thread

logger = logging.getLogger(__name__)
HOLD_MS = 3000  # the longest a window is held between its take and its publish
ROWS_KEPT_SECONDS = 3600  # longer than any race; an idle room's memory then goes
_MIN_WAIT_MS = 5  # a window that vanished between SET and PTTL: try again this soon
_encode = msgspec.json.Encoder().encode

_senders: set[str] = set()  # rooms with a sender task; touched only in the event loop
_changed: set[str] = set()  # rooms changed since their sender last began a read

# The window (KEYS[1]) taken with this holder's token (ARGV[1]) if open, in one round
# trip: 0, or the ms until it may open. Only the token's holder ends it.
_TAKE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 0 end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then return -1 end
return left
"""
# The rows about to be published (ARGV[1]) compared with the last published (KEYS[1]):
# 1 when they differ: kept, and the window (KEYS[2]) ends a period (ARGV[4] ms) from now;
# 0 when they are the same, and the window ended now; 2 when the window is no longer
# the holder's (ARGV[3]: held past HOLD_MS, or taken when Redis did not answer): nothing
# to publish.
_CHECK = """
if redis.call('GET', KEYS[2]) ~= ARGV[3] then return 2 end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[2])
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[4])
return 1
"""


def changed(code: str) -> None:
    """The room's standings changed in the current transaction: its caller has them sent
    after commit (rooms/core/outbox.py)."""
    outbox.record(StandingsChanged(code))


@dataclass(frozen=True)
class StandingsChanged:
    """An outbox effect: one per room and outbox, however many changes the call made."""

    code: str
    once: ClassVar[bool] = True

    async def send(self) -> None:
        """In the web process's event loop: the room's next paced publish."""
        _changed.add(self.code)
        if self.code not in _senders:
            _senders.add(self.code)
            asyncio.create_task(_sender(self.code)).add_done_callback(log_failure)

    def messages(self) -> list[tuple[str, dict]]:
        return []  # sent by send_in_thread, in its place among the outbox's effects

    def send_in_thread(self) -> None:
        """A worker's task, a view: no loop of its own to wait in."""
        send_from_thread(self.code)


# --- in a web process's event loop -----------------------------------------------------
async def _sender(code: str) -> None:
    """The room's sender in this process: a window taken and a publish for each round of
    changes, until none came during the last publish. After its own publish it waits out
    its own window without asking Redis when it ends (that was most of the window's
    round trips: every change in a busy room asked, twice)."""
    try:
        while code in _changed:
            token = uuid.uuid4().hex
            while (wait_ms := await _take_window(code, token)) != 0:
                await asyncio.sleep(_retry_in(wait_ms) / 1000)
            # Cleared before reading: a change committed after the read is sent in the
            # next round, and one committed before it is in what is read.
            _changed.discard(code)
            if await _publish_held(code, token) and code in _changed:
                await asyncio.sleep(_period_ms() / 1000)  # this process's own window
    finally:  # also when cancelled (shutdown): the next change starts a sender again
        _senders.discard(code)


async def _publish_held(code: str, token: str) -> bool:
    """With the window held: read, compare (the window then ends a period later, or at
    once when nothing changed), publish. True when published."""
    took, verdict = time.monotonic(), None
    try:
        read = await _read_on_loop(code)
        if read is not None:
            verdict = await _checked(code, read[1], token)
        if verdict == _CHANGED:
            await _publish(code, read[0])
        elif verdict == _LOST:  # another holds the window now: this change goes after it
            _changed.add(code)
    finally:
        if verdict is None:  # no race to show, or the read failed: the window opens now
            await _drop_window(code, token)
        took = time.monotonic() - took
        if took > HOLD_MS / 2000:
            logger.warning("standings of %s: window held %.1f s", code, took)
    return verdict == _CHANGED


# --- in a thread with no event loop (a worker's task, a view) ---------------------------
def send_from_thread(code: str) -> None:
    """Publish the room's standings now if its window is open; else have a Celery task
    try again when it ends (one task per room and window). The same steps as
    `_sender`'s and `_publish_held`'s, on the thread's Redis client."""
    client, token = _sync_client(), uuid.uuid4().hex
    wait_ms = _take_window(code, token, asynchronous=False)
    if wait_ms != 0:
        _send_later_from_a_task(client, code, _retry_in(wait_ms))
        return
    read = _read(code)
    if read is None:
        _drop_window(code, token, asynchronous=False)
        return
    verdict = _checked(code, read[1], token, asynchronous=False)
    if verdict == _CHANGED:
        async_to_sync(_publish)(code, read[0])
    elif verdict == _LOST:  # another holds the window now: this change goes out after it
        _send_later_from_a_task(client, code, _period_ms())


def _send_later_from_a_task(client, code: str, wait_ms: int) -> None:
    """One countdown task per room and window: the change is in what it reads."""
    try:
        if not client.set(_due_key(code), b"1", nx=True, px=wait_ms + _period_ms()):
            return  # a task is already due for this room, after this change's commit
    except (redis.RedisError, OSError):
        return  # no Redis: no window either, nothing to wait for
    tasks_sent.send(tasks_sent.SEND_STANDINGS, code, countdown=wait_ms / 1000)


def send_due(code: str) -> None:
    """The countdown task: its room's window should be open now (rooms/tasks.py)."""
    with contextlib.suppress(redis.RedisError, OSError):
        _sync_client().delete(_due_key(code))
    send_from_thread(code)


# --- shared --------------------------------------------------------------------------
def _take_window(code: str, token: str, asynchronous: bool = True):
    """0 when this process now holds the room's window with `token` (nobody published in
    the last period); else the ms until it may open. Fails open (0) with Redis away.
    (A coroutine on the loop's client, the answer itself on the thread's.)"""
    return _run(_TAKE, [_window_key(code)], [token, HOLD_MS], asynchronous, on_error=0, code=code)


_SAME, _CHANGED, _LOST = 0, 1, 2  # what _CHECK says


def _checked(code: str, rows: bytes, token: str, asynchronous: bool = True):
    """_CHECK's verdict on these rows; with Redis away, they are published unpaced."""
    keys, args = [_rows_key(code), _window_key(code)], [rows, ROWS_KEPT_SECONDS, token]
    return _run(_CHECK, keys, [*args, _period_ms()], asynchronous, on_error=_CHANGED)


def _drop_window(code: str, token: str, asynchronous: bool = True):
    """Nothing to publish (no race): the window, if still the holder's, opens now (with
    Redis away, it ends by itself after HOLD_MS)."""
    return _run(_DROP, [_window_key(code)], [token], asynchronous, on_error=0)


def _run(source: str, keys: list, args: list, asynchronous: bool, on_error: int, code=None):
    """A script's answer as an int, from the loop's client (a coroutine) or the thread's;
    `on_error` when Redis does not answer (logged when `code` is given: sent unpaced)."""
    call = _script(source, asynchronous)

    def failed(error: Exception) -> int:
        if code is not None:
            logger.warning("standings of %s sent unpaced (Redis: %r)", code, error)
        return on_error

    if not asynchronous:
        try:
            return int(call(keys=keys, args=args))
        except (redis.RedisError, OSError) as error:
            return failed(error)

    async def answer() -> int:
        try:
            return int(await call(keys=keys, args=args))
        except (redis.RedisError, OSError) as error:
            return failed(error)

    return answer()


_DROP = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
"""


async def _publish(code: str, message: dict) -> None:
    """As a frame, its text as it is for every socket (infra/channel_layer.py), where the
    layer can; else as a channel-layer message."""
    layer = get_channel_layer()
    if hasattr(layer, "group_send_frame"):
        await layer.group_send_frame(events.group_name(code), "standings", message["text"])
    else:
        await layer.group_send(events.group_name(code), message)


async def _read_on_loop(code: str) -> tuple[dict, bytes] | None:
    """_read from the event loop: on PostgreSQL one statement through the loop's own
    connection (no worker thread), elsewhere _read in one."""
    if not async_db.available():
        return await in_db_thread(_read)(code)
    read = await hot_sql.standings_now(code)
    if read is None:
        return None
    return _message(
        read.version, read.race_number, serializers.standings_of(read.rows, read.race_rules)
    )


def _read(code: str) -> tuple[dict, bytes] | None:
    """The room's standings message now, its text encoded once here for every socket of
    every web process, and its rows (with the race's number) as the bytes two publishes
    compare; None: no race to show."""
    version, race = hot_sql.room_version_and_race(code)
    if race is None:
        return None
    return _message(version, race.number, serializers.standings_json(race))


def _message(version: int, race_number: int, rows: list[dict]) -> tuple[dict, bytes]:
    event = {
        "type": "standings",
        "race": race_number,
        "v": version,
        "at": int(time.time() * 1000),
        "standings": rows,
    }
    text = _encode(event).decode()
    return {"type": "room.event", "kind": "standings", "text": text}, _encode([race_number, rows])


def _retry_in(wait_ms: int) -> int:
    """When to try again for a window that ends in `wait_ms`: then, or a period from now
    if it is held (its holder will end it a period after its publish)."""
    return min(max(wait_ms, _MIN_WAIT_MS), _period_ms())


def _period_ms() -> int:
    return int(settings.STANDINGS_FEED_MS)


def _window_key(code: str) -> str:
    return redis_async.key("standings", code)


def _rows_key(code: str) -> str:
    return redis_async.key("standings-rows", code)


def _due_key(code: str) -> str:
    return redis_async.key("standings-due", code)


def _script(source: str, asynchronous: bool):
    """A Lua script of this module on this loop's client (or the process's sync client):
    EVALSHA, loaded on first use and again after a Redis restart (redis-py's Script)."""
    return _registered(redis_async.client() if asynchronous else _sync_client(), source)


@functools.lru_cache(maxsize=32)
def _registered(client, source: str):
    return client.register_script(source)


@functools.cache
def _sync_client() -> redis.Redis:
    return redis_links.client(settings.REDIS_URL)
