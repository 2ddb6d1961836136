"""The echo socket of the status page (a live check of websockets and the channel layer),
and the answer to a socket at an address that has no consumer."""

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext as _

from infra import language, socket_frames

ECHO_GROUP = "echo"
MAX_ECHO_LENGTH = 200
MAX_FRAME_BYTES = 1024


class EchoConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self):
        await self.channel_layer.group_add(ECHO_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(ECHO_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        content = socket_frames.json_object(text_data, MAX_FRAME_BYTES)
        text = content.get("echo") if content is not None else None
        if not isinstance(text, str) or len(text) > MAX_ECHO_LENGTH:
            await self.send_json(
                {
                    "type": "error",
                    "error": f'send {{"echo": text}} of at most {MAX_ECHO_LENGTH} characters',
                }
            )
            return
        # Through Redis and back, not a shortcut: the reply proves the layer works.
        await self.channel_layer.send(
            self.channel_name, {"type": "echo.message", "text": text, "source": "socket"}
        )

    async def echo_message(self, event):
        await self.send_json({"type": "echo", "text": event["text"], "source": event["source"]})

    async def layer_resync(self, event):
        """The layer's subscriber reconnected (infra/channel_layer.py): an echo keeps no
        state to catch up with."""


class NoRouteConsumer(AsyncJsonWebsocketConsumer):
    """A socket at any other address: a clear error, then closed as "not found" (4404).
    Without it Channels' router raises, and the client sees only a broken connection."""

    async def connect(self):
        translation.activate(language.from_scope(self.scope))
        await self.accept()
        await self.send_json({"type": "error", "code": "no_route", "message": _("no such address")})
        await self.close(code=4404)
