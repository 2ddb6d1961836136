"""With no worker alive, the race page still opens and says that its CPU players are
paused: the server reads the heartbeat each worker of the CPU steps' queue writes
(infra/worker_heartbeat.py) and puts it in the room's snapshot as `cpus_paused`
(docs/PROTOCOL.md), served in the page and sent on every socket."""

import asyncio
import json
import re
import time

import pytest
from celery.contrib.testing.worker import start_worker

from config.celery import app
from infra import worker_heartbeat
from tests.rooms.rooms_helpers import Socket, db, room_with

NOTICE_EN = "CPU players are paused"
NOTICE_ES = "Los jugadores CPU están en pausa"


@pytest.fixture
def no_heartbeat():
    """No worker's heartbeat is fresh (an earlier test's worker may have left one)."""
    worker_heartbeat.client().delete(worker_heartbeat.KEY)


def served(client, code, language="en"):
    """The room page: (status, the notice's opening tag, its initial snapshot)."""
    client.cookies["django_language"] = language
    response = client.get(f"/rooms/{code}/")
    html = response.content.decode()
    tag = re.search(r'<p id="cpus-paused"[^>]*>', html).group(0)
    initial = re.search(r'<script id="initial-snapshot"[^>]*>(.*?)</script>', html, re.S)
    return response.status_code, tag, json.loads(initial.group(1)), html


@pytest.mark.django_db
def test_the_page_says_cpus_are_paused_in_both_languages_when_no_worker_heartbeat(
    client, no_heartbeat
):
    room, _ = room_with("Ann", cpus=["steady"])
    status, tag, initial, html = served(client, room.code)
    assert status == 200
    assert " hidden" not in tag and NOTICE_EN in html
    assert initial["cpus_paused"] is True
    _, tag, _, html = served(client, room.code, "es")
    assert " hidden" not in tag and NOTICE_ES in html


@pytest.mark.django_db
def test_no_cpu_notice_in_a_room_without_cpus_even_with_no_worker(client, no_heartbeat):
    room, _ = room_with("Ann", "Bea")
    _, tag, initial, _ = served(client, room.code)
    assert " hidden" in tag and initial["cpus_paused"] is False


@pytest.mark.django_db
def test_no_cpu_notice_once_a_worker_beat(client, no_heartbeat):
    worker_heartbeat.beat()  # what a worker's timer runs every HEARTBEAT_SECONDS
    room, _ = room_with("Ann", cpus=["steady"])
    _, tag, initial, _ = served(client, room.code)
    assert " hidden" in tag and initial["cpus_paused"] is False


@pytest.mark.django_db(transaction=True)
async def test_a_running_worker_alone_lifts_the_notice_on_the_socket(no_heartbeat):
    """No scheduler: the worker's own heartbeat is what the snapshot reads."""
    room, players = await db(room_with)("Ann", cpus=["relaxed"])
    socket = Socket(room.code, players[0])
    assert (await socket.open())["cpus_paused"] is True
    with start_worker(app, pool="solo", perform_ping_check=False, queues=["celery"]):
        await socket.send(type="snapshot")
        assert (await socket.next("snapshot"))["cpus_paused"] is False
    await socket.close()


@pytest.mark.django_db(transaction=True)
async def test_a_pool_only_worker_does_not_lift_the_notice(no_heartbeat):
    room, players = await db(room_with)("Ann", cpus=["relaxed"])
    with start_worker(app, pool="solo", perform_ping_check=False, queues=["pools"]):
        socket = Socket(room.code, players[0])
        assert (await socket.open())["cpus_paused"] is True
        await socket.close()


@pytest.mark.django_db(transaction=True)
async def test_the_notice_is_back_within_three_heartbeats_of_the_last_worker_stopping(
    no_heartbeat, settings
):
    settings.HEARTBEAT_SECONDS = 1  # the heartbeat lives 3 s
    room, players = await db(room_with)("Ann", cpus=["relaxed"])
    socket = Socket(room.code, players[0])
    await socket.open()
    with start_worker(app, pool="solo", perform_ping_check=False, queues=["celery"]):
        await socket.send(type="snapshot")
        assert (await socket.next("snapshot"))["cpus_paused"] is False
    stopped = time.monotonic()
    while True:
        await socket.send(type="snapshot")
        if (await socket.next("snapshot"))["cpus_paused"]:
            break
        assert time.monotonic() - stopped < 3 * settings.HEARTBEAT_SECONDS + 2
        await asyncio.sleep(0.2)
    await socket.close()
