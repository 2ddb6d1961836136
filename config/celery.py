"""The Celery app: the worker (`celery -A config worker`) and the scheduler (`beat`)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("mahjong")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

from infra.worker_heartbeat import WorkerHeartbeat  # noqa: E402 - after the app's settings

# Every worker of the CPU steps' queue says it is alive (infra/worker_heartbeat.py).
app.steps["worker"].add(WorkerHeartbeat)
