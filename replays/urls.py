from django.urls import path

from replays import views

urlpatterns = [
    path("race/<int:race_id>/", views.race_page, name="replay-race"),
    path("race/<int:race_id>.json", views.race_json, name="replay-race-json"),
]
