"""Site-wide background tasks."""

import time

import redis
from celery import shared_task
from django.conf import settings

from infra.channels_send import group_send

HEARTBEAT_KEY = "mahjong:scheduler-heartbeat"


@shared_task
def heartbeat() -> None:
    """Sent by the scheduler every few seconds; /healthz reads its age."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.set(HEARTBEAT_KEY, f"{time.time():.3f}", ex=10 * settings.HEARTBEAT_SECONDS)


@shared_task
def broadcast_echo(text: str) -> None:
    """Send a line to every echo socket: proves worker -> channel layer -> browser."""
    group_send("echo", {"type": "echo.message", "text": text, "source": "worker"})
