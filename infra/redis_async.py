"""The web process's own asyncio Redis client, for what is not a channel-layer message
(the standings feed's send window, the socket cap's leases)."""

import asyncio
import weakref

import redis.asyncio
from django.conf import settings

from infra import redis_links

_clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> client


def client() -> redis.asyncio.Redis:
    """One client (and connection pool) per event loop, made on first use: a pool's
    connections belong to the loop that opened them."""
    loop = asyncio.get_running_loop()
    if loop not in _clients:
        # Timeouts and keepalive as every Redis link (docs/OPERATIONS.md §Redis connections).
        _clients[loop] = redis_links.async_client(settings.REDIS_URL)
    return _clients[loop]


def key(*parts: str) -> str:
    """A key under the site's prefix, so several sites (or a load run) share one Redis."""
    return ":".join([settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"], *parts])
