"""The event outbox (rooms/core/outbox.py, docs/ARCHITECTURE.md §The event outbox): an action
records what the sockets must hear, only what commits reaches its caller's outbox, and the
caller sends it once the action returned — the socket consumer from its event loop, views
and tasks through `sent_after`. Listened to on the real Redis channel layer."""

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction

from rooms import tasks
from rooms.core import events, outbox
from rooms.core.errors import RaceOver
from rooms.live.socket_db import run_action
from rooms.lobby import actions as lobby
from rooms.models import Room
from rooms.race import actions as races
from tests.rooms.rooms_helpers import room_with

pytestmark = pytest.mark.django_db(transaction=True)


async def listen(code):
    """A channel in the room's group, subscribed for sure: a probe sent to the group has
    come back through Redis."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(events.group_name(code), channel)
    while True:
        await layer.group_send(events.group_name(code), {"type": "probe"})
        try:
            await asyncio.wait_for(layer.receive(channel), 0.5)
            return layer, channel
        except TimeoutError:
            continue


async def heard(layer, channel, seconds=1.0) -> list[str]:
    """The kinds of room messages that arrive within `seconds` of silence."""
    kinds = []
    while True:
        try:
            message = await asyncio.wait_for(layer.receive(channel), seconds)
        except TimeoutError:
            return kinds
        if message["type"] != "probe":  # a late answer to listen()'s probing
            kinds.append(message["kind"])


class Rollback(Exception):
    pass


def in_thread(function):
    return sync_to_async(function, thread_sensitive=False)


async def test_an_actions_events_wait_for_its_caller_and_go_out_when_its_block_ends():
    room, (ana,) = await in_thread(room_with)("Ana")
    layer, channel = await listen(room.code)

    def add_a_cpu():
        with outbox.sent_after() as box:
            lobby.add_cpu(ana, room.code, "relaxed")
            held = [effect.message["kind"] for effect in box.effects]
            return held

    held_before_the_block_ended = await in_thread(add_a_cpu)()
    assert held_before_the_block_ended == ["lobby"]
    assert await heard(layer, channel) == ["lobby"]


async def test_no_event_leaves_for_a_rolled_back_action():
    room, (ana,) = await in_thread(room_with)("Ana")
    layer, channel = await listen(room.code)

    def one_rolled_back_one_kept():
        with outbox.sent_after() as box:
            with transaction.atomic():
                lobby.set_public(ana, room.code, True)  # kept
                try:
                    with transaction.atomic():  # a savepoint, rolled back
                        lobby.add_cpu(ana, room.code, "relaxed")
                        raise Rollback
                except Rollback:
                    pass
            try:
                with transaction.atomic():  # a whole transaction, rolled back
                    lobby.add_cpu(ana, room.code, "sharp")
                    raise Rollback
            except Rollback:
                pass
            return len(box.effects)

    assert await in_thread(one_rolled_back_one_kept)() == 1
    assert await heard(layer, channel) == ["lobby"]  # the public switch's, no other
    stored = await in_thread(lambda: Room.objects.get(pk=room.pk).seats.count())()
    assert stored == 1  # no CPU was added


async def test_the_consumers_path_sends_what_committed_even_when_the_action_then_refuses(
    race_of_two_past_go,
):
    room, (ana, bo) = race_of_two_past_go
    race = await in_thread(lambda: Room.objects.get(pk=room.pk).current_race())()
    layer, channel = await listen(room.code)
    # Past the cut-off a pair closes the race in a transaction of its own, then refuses.
    with pytest.raises(RaceOver):
        await run_action(races.play_pair, ana, room.code, [0, 1], 0, now=race.cut_off_at)
    assert "race_finished" in await heard(layer, channel)


async def test_the_sweep_tasks_events_are_sent_when_it_returns_its_standings_once(settings):
    settings.RACE_COUNTDOWN_SECONDS = 0
    settings.DISCONNECT_GRACE_SECONDS = 0  # everyone is away as soon as the race is on
    room, players = await in_thread(room_with)("Ana", "Bo", "Cy")
    await in_thread(races.start_race)(players[0], room.code)
    layer, channel = await listen(room.code)
    # The task itself, in a fresh thread no event loop started, as the worker runs it.
    with ThreadPoolExecutor(1) as worker_thread:
        await asyncio.get_running_loop().run_in_executor(worker_thread, tasks.sweep)
    kinds = await heard(layer, channel)
    # Three boards of one room handed over in one call: three versioned events, and the
    # room's standings once, read and sent after the last (before: once per board).
    assert kinds == ["stand_in"] * 3 + ["standings"]


PRIVATE_ASYNC_PARTS = re.compile(
    r"threadlocal|main_event_loop|thread_handler|SyncToAsync\b|DatabaseSyncToAsync"
)


def test_no_module_of_the_site_reads_asgiref_or_channels_internals():
    root = Path(__file__).resolve().parents[2]
    packages = [init.parent for init in root.glob("*/__init__.py") if init.parent.name != "tests"]
    readers = [
        str(path.relative_to(root))
        for package in packages
        for path in package.rglob("*.py")
        if PRIVATE_ASYNC_PARTS.search(path.read_text())
    ]
    assert len(packages) >= 8  # the project and its apps were all looked at
    assert readers == []
