"""Checks of the parts the site needs: database, Redis (channel layer), worker, scheduler.

Each check returns a small dict and never raises, so /healthz, /livez and
`manage.py health` can report every part even when several are down. Two questions
(docs/OPERATIONS.md §Health): `liveness()` is "can this web process serve?" (its
database and its channel layer: what a balancer checks, no worker needed); `report()`
is "can the whole site play?" (also a worker and the scheduler: for people and monitors).
"""

import asyncio
import time
from collections.abc import Callable

from asgiref.sync import async_to_sync
from celery import current_app as celery_app
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

from infra import redis_links
from infra.tasks import HEARTBEAT_KEY

TIMEOUT_SECONDS = 1.0


def check_database() -> None:
    """The database answers: Django's own round trip (no SQL of ours outside
    rooms/core/hot_sql.py)."""
    connection.ensure_connection()
    if not connection.is_usable():
        raise ConnectionError("the database does not answer")


def check_channel_layer() -> None:
    async def publish():
        # A publish to a group nobody listens to: proves the layer reaches its Redis.
        layer = get_channel_layer()
        await asyncio.wait_for(layer.group_send("health", {"type": "health"}), TIMEOUT_SECONDS)

    async_to_sync(publish)()


def check_redis() -> None:
    redis_links.client(settings.REDIS_URL, TIMEOUT_SECONDS).ping()
    check_channel_layer()


def check_worker() -> None:
    replies = celery_app.control.ping(timeout=TIMEOUT_SECONDS, limit=1)
    if not replies:
        raise RuntimeError("no Celery worker answered")


def check_scheduler() -> None:
    client = redis_links.client(settings.REDIS_URL, TIMEOUT_SECONDS)
    beat = client.get(HEARTBEAT_KEY)
    if beat is None:
        raise RuntimeError("no heartbeat from the scheduler")
    age = time.time() - float(beat)
    if age > 3 * settings.HEARTBEAT_SECONDS:
        raise RuntimeError(f"last heartbeat {age:.0f} s ago")


CHECKS: dict[str, Callable[[], None]] = {
    "database": check_database,
    "redis": check_redis,
    "worker": check_worker,
    "scheduler": check_scheduler,
}
# The site cannot serve a game without these; a missing scheduler delays deadlines only.
REQUIRED = ("database", "redis", "worker")
# What one web process needs to answer pages and sockets: no worker, no scheduler.
LIVENESS: dict[str, Callable[[], None]] = {
    "database": check_database,
    "channel_layer": check_channel_layer,
}


def run_check(name: str, checks: dict[str, Callable[[], None]] = CHECKS) -> dict:
    started = time.perf_counter()
    try:
        checks[name]()
    except Exception as error:  # noqa: BLE001 - any failure means "down", with its reason
        result = {"ok": False, "error": f"{type(error).__name__}: {error}"}
    else:
        result = {"ok": True}
    result["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


def report() -> dict:
    parts = {name: run_check(name) for name in CHECKS}
    healthy = all(parts[name]["ok"] for name in REQUIRED)
    return {"status": "ok" if healthy else "unavailable", "parts": parts}


def liveness() -> dict:
    parts = {name: run_check(name, LIVENESS) for name in LIVENESS}
    alive = all(part["ok"] for part in parts.values())
    return {"status": "ok" if alive else "unavailable", "parts": parts}
