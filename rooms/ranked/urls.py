"""Ranked play's pages (/ranked/…), included by config/urls.py."""

from django.urls import path

from rooms.ranked import views

urlpatterns = [
    path("", views.ranked_page, name="ranked"),
    path("join", views.join_queue, name="ranked-join"),
    path("leave", views.leave_queue, name="ranked-leave"),
    path("status", views.queue_status, name="ranked-status"),
]
