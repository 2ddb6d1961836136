"""The room socket: a thin async shell around rooms.lobby.actions and rooms.race.actions
(docs/PROTOCOL.md).

It identifies the player from the device cookie, forwards the room's versioned events,
answers each message with an ack or an error naming what was wrong, and rate-limits a
flooding socket. It never writes game state itself.
"""

import asyncio
import logging
import time
from datetime import datetime
from typing import NamedTuple

import psycopg
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import InterfaceError, OperationalError
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.identity import player_from_scope
from infra import language
from rooms.core import errors, events, messages, serializers
from rooms.core.boards import board_json
from rooms.live import watchers
from rooms.live.socket_db import PLAY, SOCKETS, in_db_thread, run_action, run_action_in
from rooms.lobby import actions as lobby
from rooms.models import Race, Room, room_code
from rooms.race import actions as races
from rooms.race import held_board

logger = logging.getLogger(__name__)
MAX_MESSAGE_BYTES = 4096
RATE_PER_SECOND = 8
BURST = 24
SEEN_EVERY_SECONDS = 5


class TokenBucket:
    """Allows `burst` messages at once and `rate` a second after that."""

    def __init__(self, rate: float, burst: int, clock=time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.last = float(burst), clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Opened(NamedTuple):
    player: object
    seat_id: int | None
    snapshot: dict


def _open(scope, code) -> Opened | None:
    """A socket's opening in one trip to a worker thread (a wave of them comes with every
    race an arena starts): who it is, their seat back from a stand-in CPU, the snapshot,
    the seat seen. None: no such room."""
    player = player_from_scope(scope)
    room = Room.objects.filter(code=code).first()
    if room is None:
        return None
    seat = room.seats.filter(player=player).first() if player else None
    if seat is None:
        return Opened(player, None, _snapshot_of(code, None, room))
    # A player back on a board a CPU stood in for takes it back: a new version, read again.
    taken_back = races.take_seat_back(player, seat.pk, code)
    snapshot = _snapshot_of(code, seat.pk, None if taken_back else room)
    lobby.seat_seen(seat.pk)
    return Opened(player, seat.pk, snapshot)


def _snapshot_of(code: str, seat_id: int | None, room: Room | None = None) -> dict:
    """The room now as this seat sees it (None: a watcher), from `room` if it was just
    read: every snapshot a socket sends (opening, a new race, a resync, asked) is this."""
    room = room or Room.objects.get(code=code)
    seat = room.seats.filter(pk=seat_id).first() if seat_id else None
    return serializers.snapshot(room, seat)


_snapshot = in_db_thread(_snapshot_of)


@in_db_thread
def _board_at_go(code, seat_id) -> tuple[dict, held_board.HeldBoard | None] | None:
    """The seat's "go" with its board, and the board to hold for its pairs; None: not yet."""
    room = Room.objects.get(code=code)
    race = room.current_race()
    entry = race.entries.filter(seat_id=seat_id).first() if race else None
    if entry is None or timezone.now() < race.go_at:
        return None
    go = {"type": "go", "race": race.number, "board": board_json(entry, with_faces=True)}
    return go, held_board.held(code, entry)


class RoomConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self):
        # Later messages of this connection run in the same task, in this language.
        translation.activate(language.from_scope(self.scope))
        self.code = room_code(self.scope["url_route"]["kwargs"]["code"])
        await self.accept()
        # In the group before the snapshot is read, so no event after it is missed.
        group = events.group_name(self.code)
        await self.channel_layer.group_add(group, self.channel_name)
        if hasattr(self.channel_layer, "add_frame_sink"):  # the standings, written as they came
            self.channel_layer.add_frame_sink(self.channel_name, self.write_frame)
        opened = await run_action(_open, self.scope, self.code)
        if opened is None:
            self.forget_group()
            await self.channel_layer.group_discard(group, self.channel_name)
            await self.send_json({"type": "error", "code": "no_room", "message": _("no such room")})
            await self.close(code=4404)
            return
        self.player, self.seat_id = opened.player, opened.seat_id
        self.bucket = TokenBucket(RATE_PER_SECOND, BURST)
        self.last_seen = time.monotonic()  # seen as it opened
        self.go_task = None
        self.board = None  # the seat's board, held for its pairs (rooms/race/held_board.py)
        self.inbox = asyncio.Queue()  # this socket's messages for the database, in order
        self.inbox_task = asyncio.create_task(self.work_inbox())
        await self.send_first_snapshot(opened.snapshot)
        await self.count_watchers()

    async def count_watchers(self):
        """A socket without a seat watches: everyone hears the new count; a seated one is
        only told the count."""
        self.watching, self.watch_renewed = self.seat_id is None, time.monotonic()
        if self.watching:
            await watchers.announce(self.code, await watchers.watch(self.code, self.channel_name))
            return
        count = await watchers.count(self.code)
        if count is not None:
            await self.send(text_data=watchers.message(count)["text"])

    async def disconnect(self, code):
        if getattr(self, "go_task", None):
            self.go_task.cancel()
        if hasattr(self, "inbox"):
            self.close_inbox()
        if getattr(self, "watching", False):
            await watchers.announce(self.code, await watchers.leave(self.code, self.channel_name))
        if hasattr(self, "bucket"):
            await self.channel_layer.group_discard(events.group_name(self.code), self.channel_name)
            self.forget_group()

    def forget_group(self):
        if hasattr(self.channel_layer, "discard_frame_sink"):
            self.channel_layer.discard_frame_sink(self.channel_name)

    # --- outgoing ------------------------------------------------------------------
    async def send_snapshot(self):
        await self.send_first_snapshot(await _snapshot(self.code, self.seat_id))

    async def send_first_snapshot(self, snapshot: dict):
        if _counting_down(snapshot):
            self.schedule_go(snapshot["race"]["go_at"])
        await self.send_json(snapshot)

    def schedule_go(self, go_at_iso: str):
        if self.go_task:
            self.go_task.cancel()
        self.go_task = asyncio.create_task(self.send_go(go_at_iso))

    async def send_go(self, go_at_iso: str):
        delay = (datetime.fromisoformat(go_at_iso) - timezone.now()).total_seconds()
        while True:
            await asyncio.sleep(max(0.0, delay))
            found = await _board_at_go(self.code, self.seat_id)
            if found is not None:
                go, self.board = found
                await self.send_json(go)
                return
            delay = 0.02  # the clock said go a hair early: try again at once

    async def room_event(self, message):
        kind = message["kind"]
        if kind == "lobby" and self.player is not None:
            # Joining happens over HTTP; a new seat for this player shows up here.
            self.seat_id = await self.find_seat() or self.seat_id
            if self.seat_id and self.watching:  # a watcher who joined plays: one fewer
                self.watching = False
                await watchers.announce(
                    self.code, await watchers.leave(self.code, self.channel_name)
                )
        await self.send(text_data=message["text"])  # encoded once by the publisher
        if kind == "race_started":  # a seat's board of backs; everyone's fresh standings
            await self.send_snapshot()

    async def write_frame(self, text: str) -> None:
        """A frame built once for every socket of the room (the standings): written as it
        is, with no dispatch (infra/channel_layer.py)."""
        await self.send(text_data=text)

    async def layer_resync(self, message):
        """The channel layer's subscriber for this room's shard reconnected: events sent
        meanwhile are lost (pub/sub keeps nothing), so the socket gets the room as it is
        now, and its "go" if a race started in the gap (infra/channel_layer.py)."""
        await self.send_snapshot()

    async def dispatch(self, message):
        # Channels' own dispatch first hops to the one shared sync thread to close old
        # database connections, for every message: 20 hops per pair in a full room, and
        # channels offers no switch for it. Our handlers reach the database only through
        # `in_db_thread`, which looks after connections in its own thread. The one method
        # of channels overridden, and why: docs/ARCHITECTURE.md §The event outbox.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    @in_db_thread
    def find_seat(self):
        seat = Room.objects.get(code=self.code).seats.filter(player=self.player).first()
        return seat.pk if seat else None

    # --- incoming ------------------------------------------------------------------
    async def receive(self, text_data=None, bytes_data=None):
        if not hasattr(self, "inbox"):  # closed as it opened (no such room): already told
            return
        if not self.bucket.allow():
            return await self.reply_error(None, "rate_limited", _("too many messages: slow down"))
        if text_data is None or _too_big(text_data):
            return await self.reply_error(None, "bad_message", _("send JSON text of at most 4 KB"))
        message = messages.parse(text_data)
        kind = None if isinstance(message, messages.Refused) else messages.type_of(message)
        if kind not in ON_LOOP:
            self.inbox.put_nowait(message)
            return
        # A ping is answered here and now, even while this socket's last pair still waits
        # for the database (away, or slow under load): a page takes a socket whose pings
        # go unanswered for dead, and opening another is the dearest thing to ask then.
        await self.send_json({**HANDLERS[kind](self, message), "id": message.id})
        if self.upkeep_due():
            self.inbox.put_nowait(UPKEEP)

    async def work_inbox(self):
        """This socket's messages that reach the database, each in turn, as they came:
        a slow action holds up the socket's next actions, never its pings. Ends at
        CLOSED, after the action in hand (never cancelled midway: what it committed is
        sent when its thread is back, rooms/live/socket_db.py)."""
        while (message := await self.inbox.get()) is not CLOSED:
            try:
                await (self.upkeep("ping") if message is UPKEEP else self.handle(message))
            except Exception:  # the socket closed under an answer: CLOSED follows
                logger.debug("room %s: an answer was not sent", self.code, exc_info=True)

    def close_inbox(self):
        """Messages not yet begun are dropped (the page sends its kept pairs again on its
        next socket, docs/PROTOCOL.md §Reconnecting); the one in hand is finished."""
        while not self.inbox.empty():
            self.inbox.get_nowait()
        self.inbox.put_nowait(CLOSED)

    def refusal(self, message) -> errors.RoomError | None:
        """The one place a message is refused before it reaches an action: one its schema
        refuses (rooms/core/messages.py), and any action of a socket without a seat, whatever
        its fields (docs/PROTOCOL.md, its "Watching" paragraph), before any reaches the database."""
        kind = message.type if isinstance(message, messages.Refused) else messages.type_of(message)
        if self.seat_id is None and kind in HANDLERS and kind not in SEATLESS:
            return errors.RoomError(_("you have no seat in this room"), "no_seat")
        if isinstance(message, messages.Refused):
            return errors.refused_error(message)
        return None

    def upkeep_due(self) -> bool:
        now = time.monotonic()
        lease_due = self.watching and now - self.watch_renewed > SEEN_EVERY_SECONDS
        return lease_due or (self.seat_id is not None and now - self.last_seen > SEEN_EVERY_SECONDS)

    async def upkeep(self, kind: str):
        """A watcher's lease renewed, a seat marked seen: each every few seconds at most."""
        if self.watching and time.monotonic() - self.watch_renewed > SEEN_EVERY_SECONDS:
            self.watch_renewed = time.monotonic()
            # The lease, renewed; leases that lapsed (a killed web process's sockets)
            # stop counting on every page too.
            await watchers.announce(self.code, await watchers.renew(self.code, self.channel_name))
        if kind != "move":  # a pair stores its own time: seen then too
            await self.mark_seen()

    async def handle(self, message):
        refused = self.refusal(message)
        if refused is not None:
            return await self.reply_error(message.id, refused.code, refused.message)
        kind = messages.type_of(message)
        try:
            await self.upkeep(kind)
            answer = await self.answer(kind, message)
        except errors.RoomError as error:
            return await self.reply_error(message.id, error.code, error.message)
        except (OperationalError, InterfaceError, psycopg.OperationalError):  # nothing stored
            logger.warning("room %s: %s: database unavailable", self.code, kind)
            text = _("the game's database cannot be reached: nothing was stored; try again")
            return await self.reply_error(message.id, "unavailable", text)
        except Exception:  # a bug must not cost the player the socket; nothing was stored
            logger.exception("room %s: %s failed", self.code, kind)
            return await self.reply_error(message.id, "server_error", _("that failed; try again"))
        if answer is not None:
            await self.send_json({**answer, "id": message.id})

    async def answer(self, kind: str, message):
        """The message's answer, once what it changed is stored and its events sent."""
        board, self.board = self.board, None  # held again only once sure of it
        if kind == "move" and board is not None:
            if await held_board.play(board, message.tiles, message.n, timezone.now()):
                self.board = board
                return _ack(board.pairs_removed, "playing")
        elif kind not in PLAYING:
            self.board = board  # a hint, a snapshot, the lobby: the board is as it was
        lane = PLAY if kind in PLAYING else SOCKETS  # pairs never queue behind openings
        return await run_action_in(lane, HANDLERS[kind], self, message)  # events sent

    async def reply_error(self, request_id, code, message):
        await self.send_json({"type": "error", "id": request_id, "code": code, "message": message})

    async def mark_seen(self):
        now = time.monotonic()
        if self.seat_id and now - self.last_seen > SEEN_EVERY_SECONDS:
            self.last_seen = now
            await run_action(lobby.seat_seen, self.seat_id)


def _too_big(text: str) -> bool:
    # Characters first, so a huge frame is refused before it is encoded to count bytes.
    return len(text) > MAX_MESSAGE_BYTES or len(text.encode()) > MAX_MESSAGE_BYTES


def _counting_down(snapshot: dict) -> bool:
    """The race runs and this seat's board has no faces yet: "go" is still to come."""
    race, entry = snapshot.get("race"), snapshot.get("entry")
    if not race or race["status"] != Race.Status.RUNNING or not entry:
        return False
    return "face" not in entry["board"]["tiles"][0]


# --- handlers: sync, run in a worker thread; each calls one action with the message its
# schema parsed (rooms/core/messages.py) --------------------------------------------------------
def _snapshot_handler(consumer, message: messages.Snapshot):
    return _snapshot_of(consumer.code, consumer.seat_id)


def _move(consumer, message: messages.Move):
    """The full way of a pair (the socket's held board was not sure of it): the board it
    leaves is held for the next ones."""
    entry = races.play_pair(consumer.player, consumer.code, message.tiles, message.n)
    consumer.board = held_board.held(consumer.code, entry)  # its inbox awaits this thread
    return _ack(entry.pairs_removed, entry.status, entry.finished_ms)


def _ack(pairs_removed: int, status: str, finished_ms: int | None = None) -> dict:
    answer = {"type": "ack", "pairs_removed": pairs_removed, "status": status}
    if finished_ms is not None:  # the board is cleared: the clock stops at this time
        answer["finished_ms"] = finished_ms
    return answer


def _hint(consumer, message: messages.Hint):
    # The count on the page's Hint button is the server's, as this hint left it.
    hinted = races.use_hint(consumer.player, consumer.code)
    return {"type": "hint", "pair": list(hinted.pair), "hints_left": hinted.hints_left}


def _shuffle(consumer, message: messages.Shuffle):
    entry = races.shuffle(consumer.player, consumer.code)
    return {
        "type": "shuffled",
        "board": board_json(entry, with_faces=True),
        "penalty_until": serializers.iso(entry.penalty_until),
        "shuffles_left": entry.race.rules["shuffles"] - entry.shuffles_used,
    }


def _give_up(consumer, message: messages.GiveUp):
    entry = races.give_up(consumer.player, consumer.code)
    return {"type": "ack", "status": entry.status}


def _start(consumer, message: messages.Start):
    race = races.start_race(consumer.player, consumer.code)
    return {"type": "ack", "race": race.number}


def _rules(consumer, message: messages.Rules):
    lobby.update_rules(consumer.player, consumer.code, message.rules.changes())
    return {"type": "ack"}


def _add_cpu(consumer, message: messages.AddCpu):
    lobby.add_cpu(consumer.player, consumer.code, message.level)
    return {"type": "ack"}


def _remove_seat(consumer, message: messages.RemoveSeat):
    lobby.remove_seat(consumer.player, consumer.code, message.seat)
    return {"type": "ack"}


def _public(consumer, message: messages.Public):
    lobby.set_public(consumer.player, consumer.code, message.public)
    return {"type": "ack"}


def _ping(consumer, message: messages.Ping):
    return {"type": "pong", "t": message.t, "server_now": serializers.iso(timezone.now())}


def _offer(consumer, message: messages.Offer):
    races.offer_another_game(consumer.player, consumer.code)
    return {"type": "ack"}


def _ready(consumer, message: messages.Ready):
    races.say_ready(consumer.player, consumer.code)
    return {"type": "ack"}


SEATLESS = {"snapshot", "ping"}  # what a socket without a seat may ask
# Handlers that read no database, answered on the event loop as the message comes (the
# rest wait their turn in the socket's inbox): a page takes a ping answered late for a
# dead socket, and under load or with the database away that turn can be long.
ON_LOOP = {"ping"}
UPKEEP = object()  # in the inbox: a ping's lease renewal and seat seen, when due
CLOSED = object()  # in the inbox: the socket closed
PLAYING = {"move", "shuffle", "give_up"}  # a running race's actions: the play lane
# One handler per message type of rooms/core/messages.py
# (tests/rooms/test_socket_schemas.py checks).
HANDLERS = {
    "snapshot": _snapshot_handler,
    "move": _move,
    "hint": _hint,
    "shuffle": _shuffle,
    "give_up": _give_up,
    "start": _start,
    "rules": _rules,
    "add_cpu": _add_cpu,
    "remove_seat": _remove_seat,
    "public": _public,
    "offer": _offer,
    "ready": _ready,
    "ping": _ping,
}
