from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "rooms"
    verbose_name = "Races"

    def ready(self):
        from accounts.signals import player_merged
        from mahjong import sightings
        from rooms.core import boards
        from rooms.lobby import actions as lobby
        from rooms.race import end as race_end
        from rooms.ranked import actions as ranked
        from rooms.ranked import results as ranked_results

        player_merged.connect(lobby.take_over_seats, dispatch_uid="rooms.take_over_seats")
        player_merged.connect(ranked.take_over_queue_place, dispatch_uid="rooms.queue_place")
        sightings.register(boards.has_raced)
        race_end.at_race_end(ranked_results.settle, race_end.FLAGS)
