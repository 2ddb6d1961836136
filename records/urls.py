from django.urls import path

from records import views

urlpatterns = [
    path("me/", views.me, name="me"),
    path("players/<int:pk>/", views.player_profile, name="player"),
    path("leaderboards/", views.leaderboards_page, name="leaderboards"),
    path("leaderboards/daily/<str:day>/", views.daily_day_page, name="daily-day"),
    path("records/", views.records_page, name="records"),
]
