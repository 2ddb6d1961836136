from django.urls import path

from replays import views

urlpatterns = [
    path("race/<int:race_id>/", views.race_page, name="replay-race"),
    path("race/<int:race_id>.json", views.race_json, name="replay-race-json"),
    path("game/<int:game_id>/", views.game_page, name="replay-game"),
    path("game/<int:game_id>.json", views.game_json, name="replay-game-json"),
]
