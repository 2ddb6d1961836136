from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "rooms"
    verbose_name = "Races"

    def ready(self):
        from accounts.signals import player_merged
        from mahjong import sightings
        from rooms import boards, lobby, ranked

        player_merged.connect(lobby.take_over_seats, dispatch_uid="rooms.take_over_seats")
        player_merged.connect(ranked.take_over_queue_place, dispatch_uid="rooms.queue_place")
        sightings.register(boards.has_raced)
