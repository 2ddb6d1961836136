"""The Django project: settings, URLs, the ASGI stack, the Celery app. Configuration
only; every page and action lives in an app (docs/ARCHITECTURE.md §Where things live).

The Celery app is loaded with Django, so @shared_task binds to it and tasks sent from
the web process reach our broker (what Celery's Django guide prescribes)."""

from config.celery import app as celery_app

__all__ = ("celery_app",)
