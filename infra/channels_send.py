"""Sending to the channel layer from synchronous code (a task, a script), and logging the
failure of a send that nobody awaits. Room actions do not send: they record on an outbox
their caller sends (rooms/core/outbox.py, docs/ARCHITECTURE.md §The event outbox)."""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def group_send(group: str, message: dict) -> None:
    # async_to_sync runs it in a fresh event loop (or, from a thread sync_to_async
    # started, in that loop); the pub/sub layer keeps one connection set per loop and
    # closes it with the loop, so nothing leaks across calls.
    async_to_sync(get_channel_layer().group_send)(group, message)


def log_failure(sending) -> None:
    """Done-callback of a send that nobody awaits. The change is stored all the same; the
    sockets see the version gap on the next event and fetch a snapshot, or take the next
    standings (docs/PROTOCOL.md)."""
    if not sending.cancelled() and sending.exception() is not None:
        logger.warning("an event could not be sent: %r", sending.exception())
