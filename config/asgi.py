"""ASGI entry point: HTTP through Django, websockets through Channels."""

import gc
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before the consumers (and their models) are imported.
django_asgi_app = get_asgi_application()

from django.conf import settings  # noqa: E402

# Threads of a web process hand the interpreter's lock on sooner than Python's 5 ms: a
# pair's thread takes it back after each query, and waited behind threads serialising
# snapshots while it held its room's row lock (docs/PERFORMANCE.md §One arena under load).
sys.setswitchinterval(settings.WEB_GIL_SWITCH_MICROSECONDS / 1_000_000)

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from infra.socket_cap import SocketCap  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Sockets know a player by the device cookie alone (accounts.identity), so no
        # session or user lookup: those wrappers also sat on every frame sent.
        # A foreign origin is refused before it counts against the socket cap.
        "websocket": AllowedHostsOriginValidator(
            CookieMiddleware(SocketCap(URLRouter(websocket_urlpatterns)))
        ),
    }
)


# A web process makes many short-lived objects per socket message (ORM rows, events). Its
# full collections walked everything Django loaded at start too and stalled the sockets
# (at 300 players, ack p99 311 ms → 200 ms without that): freeze what exists now, and
# collect the young generation less often.
gc.freeze()
gc.set_threshold(20_000, 50, 100)
