"""Sending to the channel layer from synchronous code (views, Celery tasks)."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def group_send(group: str, message: dict) -> None:
    # async_to_sync runs each call in a fresh event loop; the pub/sub layer keeps one
    # connection set per loop and closes it with the loop, so nothing leaks across
    # calls (the "event loop is closed" trap of the list-based layer).
    async_to_sync(get_channel_layer().group_send)(group, message)
