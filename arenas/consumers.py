"""The arena socket (docs/PROTOCOL.md §Arenas): a thin async shell around
arenas.actions. It sends the arena's state on connect and again whenever the arena
changes (arenas/live.py), for players and spectators alike, and answers each message
with an ack or an error naming what was wrong. It never writes a row itself."""

import asyncio
import json
import logging
import weakref

from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.identity import player_from_scope
from arenas import actions, live, queries, tasks
from arenas.models import Arena, arena_code
from infra import language, socket_frames
from rooms.core import outbox
from rooms.live.socket_db import in_db_thread

logger = logging.getLogger(__name__)
MAX_MESSAGE_BYTES = 1024
REFRESH_AFTER_SECONDS = 0.1  # changes within this go out as one state
# A socket gets at most one state this often: the table moves when races end and players
# come and go, and 200 sockets of a 200-row table at every change were megabytes a second
# to write and to read (docs/PERFORMANCE.md §One arena under load).
STATE_EVERY_SECONDS = 0.3


def _arena(code):
    return Arena.objects.filter(code=code).first() if code else None


def _state_parts(code, language_code):
    """The arena's shared state and its players' own parts, read in `language_code`."""
    arena = _arena(code)
    if arena is None:
        return None
    with translation.override(language_code):
        return queries.state_parts(arena)


def _text(parts, player_id) -> str:
    shared, yours = parts
    return json.dumps({**shared, "you": yours.get(player_id)})


class _Feed:
    """One process's sockets of one arena. A change announced to the arena's group reaches
    every socket; the first to hear it asks the feed, which reads the state once per
    language (REFRESH_AFTER_SECONDS after the change, and STATE_EVERY_SECONDS after the
    state before at the soonest) and writes it to each socket with that socket's
    own line: one read a change for the process, not one a socket (200 sockets of one
    arena read the table 200 times a change before, which starved the sockets' database
    threads: docs/PERFORMANCE.md §One arena under load)."""

    def __init__(self, code):
        self.code, self.sockets, self.dirty, self.task = code, set(), False, None
        self.last_at = float("-inf")  # the loop's time of the last state written

    def changed(self):
        self.dirty = True
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._refresh())

    async def _refresh(self):
        while self.dirty and self.sockets:
            now = asyncio.get_running_loop().time()
            await asyncio.sleep(
                max(REFRESH_AFTER_SECONDS, self.last_at + STATE_EVERY_SECONDS - now)
            )
            self.dirty = False  # what changed until now is in the read below
            by_language = {}
            for socket in list(self.sockets):
                by_language.setdefault(socket.language, []).append(socket)
            for language_code, sockets in by_language.items():
                parts = await _read_parts(self.code, language_code)
                if parts is not None:
                    await _send_each(sockets, parts)
            self.last_at = asyncio.get_running_loop().time()  # the pace counts from here


async def _read_parts(code, language_code):
    try:
        return await in_db_thread(_state_parts)(code, language_code)
    except Exception as failure:  # noqa: BLE001 - the next change or a reconnect reads again
        logger.warning("arena %s: its state was not read: %r", code, failure)
        return None


async def _send_each(sockets, parts):
    shared, yours = parts
    head = json.dumps(shared)[:-1] + ', "you": '  # the shared part encoded once
    for socket in sockets:
        you = yours.get(socket.player.pk) if socket.player else None
        try:
            await socket.send(text_data=head + json.dumps(you) + "}")
        except Exception as failure:  # noqa: BLE001 - that socket went meanwhile
            logger.info("arena %s: a state was not sent: %r", socket.code, failure)


# This process's feeds: by event loop (a feed's task and sockets belong to the loop that
# made them; a test's loop and its feeds go together), then by arena code.
_feeds: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _feed(code, join=None, leave=None) -> _Feed:
    feeds = _feeds.setdefault(asyncio.get_running_loop(), {})
    feed = feeds.get(code) or feeds.setdefault(code, _Feed(code))
    if join is not None:
        feed.sockets.add(join)
    if leave is not None:
        feed.sockets.discard(leave)
        if not feed.sockets:
            feeds.pop(code, None)
    return feed


def _act(message_type, player, code, body):
    """One action; a ready player is paired within a second if a race can form."""
    with outbox.sent_after():
        if message_type == "ready":
            actions.ready(player, code)
            tasks.pair_soon(code)
        elif message_type == "pause":
            actions.pause(player, code)
        elif message_type == "all_in":
            actions.set_all_in(player, code, body.get("on"))


MESSAGE_TYPES = ("ready", "pause", "all_in")


class ArenaConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.language = language.from_scope(self.scope)
        translation.activate(self.language)
        self.code = arena_code(self.scope["url_route"]["kwargs"]["code"])
        self.player = await in_db_thread(player_from_scope)(self.scope)
        await self.accept()
        if await in_db_thread(_arena)(self.code) is None:
            await self.send_error("no_arena", _("no arena has this code"))
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(live.group_name(self.code), self.channel_name)
        self.joined_group = True
        _feed(self.code, join=self)
        await self.send_state()

    async def disconnect(self, code):
        if getattr(self, "joined_group", False):
            _feed(self.code, leave=self)
            await self.channel_layer.group_discard(live.group_name(self.code), self.channel_name)

    async def send_state(self):
        """This socket's state now (on connect and after its own action)."""
        parts = await _read_parts(self.code, self.language)
        if parts is not None:
            await self.send(text_data=_text(parts, self.player.pk if self.player else None))

    async def send_error(self, code, message, for_type=None):
        await self.send(
            text_data=json.dumps(
                {"type": "error", "code": code, "message": message, "for": for_type}
            )
        )

    async def arena_changed(self, _event):
        _feed(self.code).changed()

    async def receive(self, text_data=None, bytes_data=None):
        body = socket_frames.json_object(text_data, MAX_MESSAGE_BYTES)
        if body is None:
            await self.send_error("bad_message", _("send one JSON object of at most 1 KB"))
            return
        if body.get("type") not in MESSAGE_TYPES:
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
            await in_db_thread(_act)(message_type, self.player, self.code, body)
        except actions.ArenaError as refused:
            await self.send_error(refused.code, refused.message, message_type)
            return
        await self.send(text_data=json.dumps({"type": "ack", "for": message_type}))
        await self.send_state()
