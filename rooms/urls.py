from django.urls import path

from rooms import views

urlpatterns = [
    path("", views.rooms_home, name="rooms"),
    path("new", views.create_room, name="room-create"),
    path("join", views.join_by_code, name="room-join-by-code"),
    path("quick", views.race_now, name="race-now"),
    path("open.json", views.open_rooms_json, name="rooms-open"),
    path("<str:code>/", views.room_page, name="room"),
    path("<str:code>/join", views.join, name="room-join"),
    path("<str:code>/leave", views.leave_quick, name="room-leave-quick"),
]
