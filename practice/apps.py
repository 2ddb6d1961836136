from django.apps import AppConfig


class PracticeConfig(AppConfig):
    """Solo practice: one player, one board, hints, undo and pause (docs/PRACTICE.md)."""

    name = "practice"
    verbose_name = "Solo practice"

    def ready(self):
        from accounts.signals import player_merged
        from mahjong import sightings
        from practice import actions

        player_merged.connect(actions.take_over_games, dispatch_uid="practice.take_over_games")
        sightings.register(actions.has_played)
