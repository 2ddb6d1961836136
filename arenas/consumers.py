"""The arena socket (docs/PROTOCOL.md §Arenas): a thin async shell around
arenas.actions. It sends the arena's state on connect and again whenever the arena
changes (arenas/live.py), for players and spectators alike, and answers each message
with an ack or an error naming what was wrong. It never writes a row itself."""

import asyncio
import json
import logging

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.identity import player_from_scope
from arenas import actions, live, pairing, queries
from arenas.models import Arena, arena_code
from infra import language
from rooms.core import outbox

logger = logging.getLogger(__name__)
MAX_MESSAGE_BYTES = 1024
REFRESH_AFTER_SECONDS = 0.2  # changes within this go out as one state


def _arena(code):
    return Arena.objects.filter(code=code).first() if code else None


def _state(code, player_id):
    arena = _arena(code)
    return queries.state_json(arena, player_id) if arena else None


def _act(message_type, player, code, body):
    """One action; a ready player is paired at once if a race can form."""
    with outbox.sent_after():
        if message_type == "ready":
            actions.ready(player, code)
            arena = _arena(code)
            if arena is not None:
                pairing.pair_arena(arena)
        elif message_type == "pause":
            actions.pause(player, code)
        elif message_type == "all_in":
            actions.set_all_in(player, code, body.get("on"))


MESSAGE_TYPES = ("ready", "pause", "all_in")


class ArenaConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        translation.activate(language.from_scope(self.scope))
        self.code = arena_code(self.scope["url_route"]["kwargs"]["code"])
        self.player = await sync_to_async(player_from_scope, thread_sensitive=False)(self.scope)
        self.refresh = None
        await self.accept()
        if await sync_to_async(_arena, thread_sensitive=False)(self.code) is None:
            await self.send_error("no_arena", _("no arena has this code"))
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(live.group_name(self.code), self.channel_name)
        self.joined_group = True
        await self.send_state()

    async def disconnect(self, code):
        if self.refresh is not None:
            self.refresh.cancel()
        if getattr(self, "joined_group", False):
            await self.channel_layer.group_discard(live.group_name(self.code), self.channel_name)

    async def send_state(self):
        player_id = self.player.pk if self.player else None
        state = await sync_to_async(_state, thread_sensitive=False)(self.code, player_id)
        if state is not None:
            await self.send(text_data=json.dumps(state))

    async def send_error(self, code, message, for_type=None):
        await self.send(
            text_data=json.dumps(
                {"type": "error", "code": code, "message": message, "for": for_type}
            )
        )

    async def arena_changed(self, _event):
        if self.refresh is None or self.refresh.done():
            self.refresh = asyncio.ensure_future(self._refresh_soon())

    async def _refresh_soon(self):
        await asyncio.sleep(REFRESH_AFTER_SECONDS)
        try:
            await self.send_state()
        except Exception as failure:  # noqa: BLE001 - the socket went meanwhile
            logger.info("arena %s: a state was not sent: %r", self.code, failure)

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is None or len(text_data) > MAX_MESSAGE_BYTES:
            await self.send_error("bad_message", _("send one JSON object of at most 1 KB"))
            return
        try:
            body = json.loads(text_data)
        except ValueError:
            body = None
        if not isinstance(body, dict) or body.get("type") not in MESSAGE_TYPES:
            await self.send_error(
                "bad_message",
                _("a message is a JSON object whose type is one of: %(types)s")
                % {"types": ", ".join(MESSAGE_TYPES)},
            )
            return
        message_type = body["type"]
        if self.player is None:
            await self.send_error("not_joined", _("join the arena first"), message_type)
            return
        try:
            await sync_to_async(_act, thread_sensitive=False)(
                message_type, self.player, self.code, body
            )
        except actions.ArenaError as refused:
            await self.send_error(refused.code, refused.message, message_type)
            return
        await self.send(text_data=json.dumps({"type": "ack", "for": message_type}))
        await self.send_state()
