from django.urls import path

from mahjong.consumers import EchoConsumer
from rooms.consumers import RoomConsumer

websocket_urlpatterns = [
    path("ws/echo/", EchoConsumer.as_asgi()),
    path("ws/rooms/<str:code>/", RoomConsumer.as_asgi()),
]
