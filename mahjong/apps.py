from django.apps import AppConfig


class MahjongConfig(AppConfig):
    name = "mahjong"
    verbose_name = "Mahjong"

    def ready(self):
        # Load the Celery app with Django, so @shared_task binds to it and tasks sent
        # from the web process reach our broker.
        from mahjong import celery  # noqa: F401
