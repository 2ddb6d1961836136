from django.urls import path

from replays import views

urlpatterns = [
    path("race/<int:race_id>.json", views.race_json, name="replay-race-json"),
]
