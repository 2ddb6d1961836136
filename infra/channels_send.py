"""Sending to the channel layer from synchronous code (views, socket actions' worker
threads, Celery tasks)."""

import asyncio
import logging
import os

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def group_send(group: str, message: dict) -> None:
    loop = web_event_loop()
    if loop is not None:
        # A socket action's worker thread: hand the send to the web process's event loop
        # and let the action answer at once, instead of holding the thread (and the
        # player's ack) until the loop gets round to it.
        sending = asyncio.run_coroutine_threadsafe(_send(group, message), loop)
        sending.add_done_callback(log_failure)
        return
    # No loop to hand it to (a task, a test): async_to_sync runs it in a fresh event
    # loop; the pub/sub layer keeps one connection set per loop and closes it with the
    # loop, so nothing leaks across calls.
    async_to_sync(get_channel_layer().group_send)(group, message)


async def _send(group: str, message: dict) -> None:
    await get_channel_layer().group_send(group, message)


def web_event_loop():
    """The event loop that started this thread through sync_to_async, if any (asgiref
    records it per thread; a forked process must not use its parent's)."""
    local = SyncToAsync.threadlocal
    if getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(local, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


def log_failure(sending) -> None:
    """Done-callback of a send that nobody awaits. The change is stored all the same; the
    sockets see the version gap on the next event and fetch a snapshot, or take the next
    standings (docs/PROTOCOL.md)."""
    if not sending.cancelled() and sending.exception() is not None:
        logger.warning("an event could not be sent: %r", sending.exception())
