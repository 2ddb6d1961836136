from django.urls import path

from arenas import views

urlpatterns = [
    path("", views.arenas_page, name="arenas"),
    path("new", views.create_arena, name="arena-create"),
    path("<str:code>/", views.arena_page, name="arena"),
    path("<str:code>/join", views.join_arena, name="arena-join"),
    path("<str:code>/cancel", views.cancel_arena, name="arena-cancel"),
]
