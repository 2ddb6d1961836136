"""Database work for the sockets, run in the event loop's worker threads, and the room
actions they call, whose effects are sent once the thread is back (rooms/core/outbox.py).

Like channels' database_sync_to_async, Django's connection housekeeping
(`close_old_connections`: an obsolete connection closed, a failed one checked and
dropped, the health check armed) runs in the worker thread, not in the loop's one shared
sync thread. But not around every call: under load every pair is a call, and Django's
health check (a `SELECT 1` round trip before the first query once housekeeping ran) was
one of its six round trips. So a thread's connection is looked after before a call only
when that was last done HEALTH_CHECK_AFTER_IDLE_SECONDS ago or more, and after a call
that raised. A connection that broke within those seconds (the database restarted) fails
that one call, which is answered `unavailable` and stores nothing; the housekeeping after
it drops the connection, and the next call reconnects. (With CONN_MAX_AGE 0, as in the
tests, the connection is closed after every call, as before.) Only public parts of Django and
asgiref are used: a plain function handed to `sync_to_async(thread_sensitive=False)`.
"""

import asyncio
import functools
import threading
import time
import weakref
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections, connection

from rooms.core.outbox import Outbox, collecting

HEALTH_CHECK_AFTER_IDLE_SECONDS = 5.0
_housekept = threading.local()  # monotonic time of this thread's last housekeeping


class ThreadLane:
    """Worker threads of their own, per event loop, for the sockets' database work. Most
    of an action's time is spent waiting for the database, so a web process needs more
    threads than asyncio's default pool (cores + 4); each thread keeps its own database
    connection. The loop's default pool is left as it is: nothing else in the process
    shares these threads by surprise (docs/ARCHITECTURE.md §The sockets' threads)."""

    def __init__(self, size_setting: str, name: str):
        self.size_setting, self.name = size_setting, name
        # event loop -> its lane's threads, which end once the loop is gone (its executor
        # collected, ThreadPoolExecutor's workers stop)
        self._executors = weakref.WeakKeyDictionary()

    def executor(self) -> ThreadPoolExecutor:
        loop = asyncio.get_running_loop()
        executor = self._executors.get(loop)
        if executor is None:
            size = getattr(settings, self.size_setting)
            executor = ThreadPoolExecutor(size, thread_name_prefix=self.name)
            self._executors[loop] = executor
        return executor


# Everything a socket does: opening, snapshots, the lobby, arena states.
SOCKETS = ThreadLane("SOCKET_DB_THREADS", "room-db")
# A running race's actions (a pair, a shuffle, giving up): a player waits for their
# answer, and a wave of sockets opening when races start queues on SOCKETS, not in front
# of the pairs of races already running (docs/PERFORMANCE.md §One arena under load).
PLAY = ThreadLane("SOCKET_PLAY_THREADS", "play")


def in_db_thread(function, lane: ThreadLane = SOCKETS):
    """`function` as a coroutine run in one of `lane`'s worker threads: sockets of
    different rooms wait for the database side by side, each room's row lock still
    ordering its own actions."""
    in_thread = _looked_after(function)

    @functools.wraps(function)
    async def in_lane(*args, **kwargs):
        run = sync_to_async(in_thread, thread_sensitive=False, executor=lane.executor())
        return await run(*args, **kwargs)

    return in_lane


def _looked_after(function):
    """`function` with its thread's database connection looked after around it."""

    @functools.wraps(function)
    def in_thread(*args, **kwargs):
        if not _housekept_lately():
            close_old_connections()
            _housekept.at = time.monotonic()
        try:
            result = function(*args, **kwargs)
        except BaseException:
            close_old_connections()  # a failed connection is checked now, dropped if broken
            _housekept.at = None  # and the next call starts with a checked one
            raise
        if connection.settings_dict["CONN_MAX_AGE"] == 0:  # kept for no call: closed now,
            close_old_connections()  # as Django closes it after a request
        return result

    return in_thread


def _housekept_lately() -> bool:
    at = getattr(_housekept, "at", None)
    return at is not None and time.monotonic() - at < HEALTH_CHECK_AFTER_IDLE_SECONDS


async def run_action(function, *args, **kwargs):
    """`function(*args, **kwargs)` in a worker thread with an outbox of its own, then what it
    committed sent from this event loop, in order, also when it raised (an action may
    commit, then refuse). The sends are awaited here, before the caller answers: a room's
    events leave in the order its actions' threads came back."""
    return await run_action_in(SOCKETS, function, *args, **kwargs)


async def run_action_in(lane: ThreadLane, function, *args, **kwargs):
    """`run_action` on `lane`'s threads."""
    box = Outbox()

    def collected():
        with collecting(box):
            return function(*args, **kwargs)

    try:
        return await in_db_thread(collected, lane)()
    finally:
        await box.send()
