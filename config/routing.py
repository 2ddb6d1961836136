from django.urls import path, re_path

from arenas.consumers import ArenaConsumer
from infra.consumers import EchoConsumer, NoRouteConsumer
from rooms.consumers import RoomConsumer

websocket_urlpatterns = [
    path("ws/echo/", EchoConsumer.as_asgi()),
    # Any code, even an empty one (a client drops a newline from a URL): the room consumer
    # answers "no_room" to a code that names no room.
    re_path(r"^ws/rooms/(?P<code>[^/]*)/\Z", RoomConsumer.as_asgi()),
    re_path(r"^ws/arenas/(?P<code>[^/]*)/\Z", ArenaConsumer.as_asgi()),
    re_path(r"", NoRouteConsumer.as_asgi()),  # every other address: "no_route"
]
