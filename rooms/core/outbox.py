"""An action's effects on the sockets, kept until its caller sends them
(docs/ARCHITECTURE.md §The event outbox).

An action never talks to the channel layer. What it wants the sockets to hear (a versioned
event, "this room's standings changed") it records here; the record is made with
`transaction.on_commit`, so only what committed reaches the outbox (a rolled-back change,
or a savepoint rolled back, leaves nothing in it). Whoever called the action sends the
outbox after the action returned, in the order recorded:

- the socket consumer (rooms/live/socket_db.py `run_action`) awaits `Outbox.send` in its own
  event loop once the database thread is back;
- a view, a task or the admin opens one with `sent_after()`, which sends it through
  `async_to_sync` when the block ends.

A change made with no outbox open (the shell, the account merge's signal receivers, a
test calling an action directly) is sent at commit, synchronously: nothing is lost for a
caller that forgot. Sending never undoes the change: a send that fails is logged, and the
sockets see the version gap on the next event and fetch a snapshot (docs/PROTOCOL.md).
"""

import contextlib
import contextvars
import logging
from dataclasses import dataclass
from typing import ClassVar, Protocol

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


class Effect(Protocol):
    once: ClassVar[bool]  # recorded twice in one outbox (equal by value), sent once

    async def send(self) -> None:
        """Send it from the web process's event loop (the consumer's)."""

    def messages(self) -> list[tuple[str, dict]]:
        """What to send now, as (group, message) pairs: for a caller with no loop of its
        own (a view's or a task's thread). Runs in that thread, so it may read the
        database."""

    # Optional: `send_in_thread(self) -> None`, for an effect that sends itself from such
    # a thread (the paced standings, rooms/live/standings_feed.py); `messages` is then
    # not asked.


@dataclass(frozen=True)
class GroupMessage:
    """A message for every socket of a channel-layer group."""

    group: str
    message: dict
    once: ClassVar[bool] = False

    async def send(self) -> None:
        await get_channel_layer().group_send(self.group, self.message)

    def messages(self) -> list[tuple[str, dict]]:
        return [(self.group, self.message)]


class Outbox:
    def __init__(self):
        self.effects: list[Effect] = []
        self.closed = False  # being sent or sent: what commits later goes on its own

    def add(self, effect: Effect) -> None:
        if self.closed:  # committed after its caller sent (an outer transaction held it)
            _send_alone(effect)
        else:
            if effect.once and effect in self.effects:  # sent once, after the last change
                self.effects.remove(effect)
            self.effects.append(effect)

    def _take(self) -> list[Effect]:
        self.closed = True
        effects, self.effects = self.effects, []
        return effects

    async def send(self) -> None:
        """From the web process's event loop: each effect in turn, in the order committed
        (so one room's events keep their order). A failure is logged, not raised: the
        change is stored all the same."""
        for effect in self._take():
            try:
                await effect.send()
            except Exception as error:  # noqa: BLE001 - Redis away: log, go on
                logger.warning("an event could not be sent: %r", error)

    def send_now(self) -> None:
        """From a thread with no event loop of its own (a view, a task): what to send is
        read here, then sent through async_to_sync, one loop for the messages in a row.
        An effect that sends itself (`send_in_thread`: the paced standings) goes in its
        place: what was recorded before it is sent first."""
        messages = []
        for effect in self._take():
            try:
                if hasattr(effect, "send_in_thread"):
                    _flush(messages)
                    effect.send_in_thread()
                else:
                    messages.extend(effect.messages())
            except Exception as error:  # noqa: BLE001 - a failed read costs only the send
                logger.warning("an event could not be sent: %r", error)
        _flush(messages)


def _flush(messages: list[tuple[str, dict]]) -> None:
    if messages:
        async_to_sync(_send_all)(list(messages))
        messages.clear()


async def _send_all(messages: list[tuple[str, dict]]) -> None:
    layer = get_channel_layer()
    for group, message in messages:
        try:
            await layer.group_send(group, message)
        except Exception as error:  # noqa: BLE001 - Redis away: log, go on
            logger.warning("an event could not be sent: %r", error)


def _send_alone(effect: Effect) -> None:
    box = Outbox()
    box.add(effect)
    box.send_now()


_current: contextvars.ContextVar[Outbox | None] = contextvars.ContextVar("outbox", default=None)


def record(effect: Effect) -> None:
    """Put the effect in the current outbox once the current transaction commits (at
    once outside one); with no outbox open, send it then."""
    box = _current.get()
    target = box.add if box is not None else _send_alone
    # robust: only the fallback sends here, and it logs its own failures; a bug in it
    # must not turn a stored change into an error answer either.
    transaction.on_commit(lambda: target(effect), robust=True)


@contextlib.contextmanager
def collecting(box: Outbox):
    """Make `box` this thread's (this task's) outbox for the length of the block."""
    token = _current.set(box)
    try:
        yield box
    finally:
        _current.reset(token)


@contextlib.contextmanager
def sent_after():
    """For sync callers (views, tasks, the admin): the actions of the block record in one
    outbox, sent when the block ends, also when it raised (an action may commit, say
    closing a race past its cut-off, then refuse)."""
    box = Outbox()
    try:
        with collecting(box):
            yield box
    finally:
        box.send_now()
