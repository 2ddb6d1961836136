from django.apps import AppConfig


class MahjongConfig(AppConfig):
    """The game core: the engine, the game's facts and its pure race rules in Python, and
    the board component that draws them in the browser (its static files)."""

    name = "mahjong"
    verbose_name = "Mahjong"
