"""Site-wide background tasks."""

import time

from celery import shared_task
from django.conf import settings

from infra import backups, redis_links
from infra.channels_send import group_send

HEARTBEAT_KEY = "mahjong:scheduler-heartbeat"


@shared_task
def heartbeat() -> None:
    """Sent by the scheduler every few seconds; /healthz reads its age."""
    client = redis_links.client(settings.REDIS_URL)
    client.set(HEARTBEAT_KEY, f"{time.time():.3f}", ex=10 * settings.HEARTBEAT_SECONDS)


@shared_task
def broadcast_echo(text: str) -> None:
    """Send a line to every echo socket: proves worker -> channel layer -> browser."""
    group_send("echo", {"type": "echo.message", "text": text, "source": "worker"})


# A dump may take minutes, past the 60 s every other task is held to; under the broker's
# visibility timeout (2 h), so Redis never hands a running backup to a second worker.
@shared_task(soft_time_limit=100 * 60, time_limit=110 * 60)
def backup_database() -> dict:
    """Sent by the scheduler at BACKUP_HOURS (docs/OPERATIONS.md §Backups); run by the
    pool worker (CELERY_TASK_ROUTES), never beside the CPU steps."""
    backup = backups.take_backup()
    return {"path": str(backup.path), "size": backup.size, "seconds": backup.seconds}
