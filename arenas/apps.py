from django.apps import AppConfig


class ArenasConfig(AppConfig):
    name = "arenas"
    verbose_name = "Arenas"

    def ready(self):
        from accounts.signals import player_merged
        from arenas import actions, scoring
        from rooms.core import serializers
        from rooms.race import end as race_end
        from rooms.ranked import fair_play

        # Pace flags are set (FLAGS) before arenas score (SCORES), whatever the apps' order.
        race_end.at_race_end(scoring.settle, race_end.SCORES)
        fair_play.at_flags_cleared(scoring.rescore_entries)
        serializers.register_host(scoring.host_of)
        player_merged.connect(actions.take_over_places, dispatch_uid="arenas.take_over_places")
