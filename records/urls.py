from django.urls import path

from records import views

urlpatterns = [
    path("me/", views.me, name="me"),
    path("players/<int:pk>/", views.player_profile, name="player"),
    path("leaderboards/", views.leaderboards_page, name="leaderboards"),
    path("leaderboards/daily/<str:day>/", views.daily_day_page, name="daily-day"),
    # Every board for one day, week (ISO, from Monday) or month: docs/RULES.md
    # §Leaderboards by period.
    path("leaderboards/day/<str:text>/", views.period_page, {"kind": "day"}, name="board-day"),
    path("leaderboards/week/<str:text>/", views.period_page, {"kind": "week"}, name="board-week"),
    path(
        "leaderboards/month/<str:text>/", views.period_page, {"kind": "month"}, name="board-month"
    ),
    path("leaderboards/<path:rest>", views.not_a_leaderboard, name="not-a-leaderboard"),
    path("records/", views.records_page, name="records"),
]
