from django.urls import path

from replays import views

urlpatterns = [
    path("race/<int:race_id>/", views.race_page, name="replay-race"),
    path("race/<int:race_id>.json", views.race_json, name="replay-race-json"),
    path("game/<int:game_id>/", views.game_page, name="replay-game"),
    path("game/<int:game_id>.json", views.game_json, name="replay-game-json"),
    # Ghost races (docs/RULES.md §Ghost races): a finished board raced again.
    path("race/<int:race_id>/ghost/<int:seat_id>/", views.race_ghost, name="ghost-race"),
    path("game/<int:game_id>/ghost/", views.game_ghost, name="ghost-game"),
    path("daily/ghost/", views.daily_ghost, name="ghost-daily"),
]
