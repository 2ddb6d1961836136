"""The Celery app: the worker (`celery -A mahjong worker`) and the scheduler (`beat`)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong.settings")

app = Celery("mahjong")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
