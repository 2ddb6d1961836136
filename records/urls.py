from django.urls import path

from records import views

urlpatterns = [
    path("me/", views.me, name="me"),
    path("players/<int:pk>/", views.player_profile, name="player"),
    path("leaderboards/", views.leaderboards_page, name="leaderboards"),
    path("records/", views.records_page, name="records"),
]
