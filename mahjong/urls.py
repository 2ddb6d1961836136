from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from mahjong import guide_views, practice_views, views
from rooms import ranked_views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("status/", views.status_page, name="status"),
    path("rules/", guide_views.rules_page, name="rules"),
    path("learn/", guide_views.learn_page, name="learn"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("play/", practice_views.play, name="play"),
    path("play/api/new", practice_views.new_game, name="play-new"),
    path("play/api/move", practice_views.move, name="play-move"),
    path("play/api/undo", practice_views.undo, name="play-undo"),
    path("play/api/hint", practice_views.hint, name="play-hint"),
    path("play/api/pause", practice_views.pause, name="play-pause"),
    path("play/api/resume", practice_views.resume, name="play-resume"),
    path("play/<str:code>/", practice_views.play, name="play-code"),
    path("records/", practice_views.records_page, name="records"),
    path("rooms/", include("rooms.urls")),
    path("ranked/", ranked_views.ranked_page, name="ranked"),
    path("ranked/join", ranked_views.join_queue, name="ranked-join"),
    path("ranked/leave", ranked_views.leave_queue, name="ranked-leave"),
    path("ranked/status", ranked_views.queue_status, name="ranked-status"),
    path("", include("accounts.urls")),
    path("admin/", admin.site.urls),
]
