from django.urls import path

from practice import views

urlpatterns = [
    path("", views.play, name="play"),
    path("daily/", views.play_daily, name="play-daily"),
    path("layouts/<slug:name>.svg", views.layout_preview, name="play-layout-preview"),
    path("api/new", views.new_game, name="play-new"),
    path("api/move", views.move, name="play-move"),
    path("api/undo", views.undo, name="play-undo"),
    path("api/hint", views.hint, name="play-hint"),
    path("api/pause", views.pause, name="play-pause"),
    path("api/resume", views.resume, name="play-resume"),
    path("<str:code>/", views.play, name="play-code"),
]
