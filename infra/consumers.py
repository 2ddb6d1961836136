"""The echo socket of the status page (a live check of websockets and the channel layer),
and the answer to a socket at an address that has no consumer."""

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext as _

from infra import language

ECHO_GROUP = "echo"
MAX_ECHO_LENGTH = 200


class EchoConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self):
        await self.channel_layer.group_add(ECHO_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(ECHO_GROUP, self.channel_name)

    async def receive_json(self, content, **kwargs):
        text = content.get("echo") if isinstance(content, dict) else None
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

    async def decode_json(self, text_data):
        try:
            return await super().decode_json(text_data)
        except ValueError:
            return None

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
