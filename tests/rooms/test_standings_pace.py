"""The standings feed's pace across processes (rooms/live/standings_feed.py, docs/PROTOCOL.md):
a full room whose sockets sit on several web processes, with CPU players moved by a Celery
worker, gets its standings at most once every STANDINGS_FEED_MS for the whole room, never
a frame whose rows equal the one before, and the same frame, byte for byte, on every
process."""

import asyncio
import json
import random
import time

import pytest

from rooms.race import actions as races
from tests.ops.drill_helpers import Player, WebServer
from tests.rooms.rooms_helpers import room_with

pytestmark = [pytest.mark.drill, pytest.mark.django_db(transaction=True)]

HUMANS = 16
CPUS = ("sharp", "sharp", "steady", "steady")  # 20 seats, as a full room
PLAY_SECONDS = 8


class FramePlayer(Player):
    """A player's socket that also keeps each standings frame as it came: its text and
    when it arrived."""

    def __init__(self, server, code, person):
        super().__init__(server, code, person)
        self.frames: list[tuple[float, str]] = []

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                if message["type"] == "standings":
                    self.frames.append((time.monotonic(), raw))
                    continue
                waiting = self.answers.pop(message.get("id"), None)
                if waiting is not None:
                    waiting.set_result(message)
                else:
                    self.seen.append(message)
        except Exception:  # noqa: BLE001 - the server went away: the test says what is missing
            pass


@pytest.fixture
def full_room_racing(settings):
    """16 humans and 4 CPUs racing already (no countdown): (room, humans)."""
    settings.RACE_COUNTDOWN_SECONDS = 0
    nicknames = [f"P{k}" for k in range(HUMANS)]
    room, people = room_with(*nicknames, cpus=CPUS)
    races.start_race(people[0], room.code, seed=31)
    return room, people


@pytest.fixture
def two_web_hosts(tmp_path, settings):
    """Two web servers of two processes each on the same database and Redis: four web
    processes, as two hosts behind a balancer."""
    servers = [WebServer(tmp_path / name, settings.REDIS_URL) for name in ("a", "b")]
    for server in servers:
        server.log.parent.mkdir()
        server.start()
    yield servers
    for server in servers:
        server.stop()


async def race_for_a_while(servers, code, people) -> list[FramePlayer]:
    """Each human on one of the servers in turn, a pair every 0.3-0.9 s for PLAY_SECONDS."""
    players = [FramePlayer(servers[k % len(servers)], code, p) for k, p in enumerate(people)]
    for player in players:
        await player.connect()
    rng = random.Random(5)
    until = time.monotonic() + PLAY_SECONDS

    async def play(player):
        await asyncio.sleep(rng.uniform(0, 0.5))
        while time.monotonic() < until and player.position.playable_pairs():
            await player.play_pair()
            await asyncio.sleep(rng.uniform(0.3, 0.9))

    await asyncio.gather(*(play(player) for player in players))
    await asyncio.sleep(1.5)  # the last standings
    for player in players:
        await player.close()
    return players


def rows_of(raw: str):
    frame = json.loads(raw)
    return frame["race"], frame["standings"]


async def test_a_full_room_on_four_processes_with_cpus_gets_no_repeated_frame_and_keeps_the_pace(
    settings, full_room_racing, two_web_hosts, celery_worker
):
    room, people = full_room_racing
    players = await race_for_a_while(two_web_hosts, room.code, people)
    for player in players:
        rows = [rows_of(raw) for _, raw in player.frames]
        repeated = [k for k in range(1, len(rows)) if rows[k] == rows[k - 1]]
        assert not repeated, f"a socket got {len(repeated)} frames equal to the one before"
    # Every publish of the room, once: the frames (each carries the time it was read,
    # `at`, in ms, on this machine's clock) over every socket of every process. Publishes
    # are judged by their reads, which each come after the window was taken, so after the
    # last publish's window ended (the sockets' arrival times add this busy machine's
    # delivery jitter).
    published = sorted({json.loads(raw)["at"] for p in players for _, raw in p.frames})
    gaps = [b - a for a, b in zip(published, published[1:], strict=False)]
    assert len(published) >= PLAY_SECONDS  # the panel kept moving: about 2 a second
    short = [gap for gap in gaps if gap < settings.STANDINGS_FEED_MS]
    assert not short, f"{len(short)} of {len(gaps)} publishes < 0.5 s after the one before: {gaps}"


async def test_a_frame_built_once_reaches_sockets_on_two_hosts_byte_for_byte(
    settings, full_room_racing, two_web_hosts
):
    room, people = full_room_racing
    players = await race_for_a_while(two_web_hosts, room.code, people)
    by_host = [{} for _ in two_web_hosts]  # `at` -> the frame's text, per host
    for k, player in enumerate(players):
        for _, raw in player.frames:
            at = json.loads(raw)["at"]
            texts = by_host[k % 2]
            assert texts.setdefault(at, raw) == raw  # one text per publish on a host
    shared = by_host[0].keys() & by_host[1].keys()
    assert len(shared) >= PLAY_SECONDS
    assert all(by_host[0][at] == by_host[1][at] for at in shared)
    # No host missed a publish the other delivered (each had sockets of the room).
    assert by_host[0].keys() == by_host[1].keys()


async def test_a_tasks_change_while_the_window_is_closed_goes_out_when_it_ends(
    settings, race_of_two_past_go, celery_worker
):
    # A worker has no loop to wait in: its change leaves a countdown task for the end of
    # the room's window, which a worker runs then.
    from django.db import transaction

    from rooms.core import outbox
    from rooms.live import standings_feed
    from tests.rooms.rooms_helpers import Socket, db

    settings.STANDINGS_FEED_MS = 400
    room, (ana, bo) = race_of_two_past_go
    socket = Socket(room.code, bo)
    await socket.open()
    assert await standings_feed._take_window(room.code, "other") == 0  # as another process
    await standings_feed._checked(room.code, b"[]", "other")  # ... and publishing
    published = time.monotonic()

    def a_task():
        with outbox.sent_after(), transaction.atomic():
            standings_feed.changed(room.code)

    await db(a_task)()
    frame = await socket.next("standings", timeout=5)
    assert time.monotonic() - published >= 0.4  # not within the other's window
    assert {row["nickname"] for row in frame["standings"]} == {"Ana", "Bo"}
    await socket.close()


async def test_the_loop_and_a_thread_share_one_window_and_one_check_of_the_rows(
    settings, race_of_two_past_go
):
    # A web process's sender (on its loop) and a worker's or a view's send (in a thread)
    # take the same window and compare with the same last rows, whichever came first.
    from rooms.live import standings_feed as feed
    from tests.rooms.rooms_helpers import db

    settings.STANDINGS_FEED_MS = 400
    room, _players = race_of_two_past_go
    in_thread = db(lambda step, *args: step(*args, asynchronous=False))
    assert await feed._take_window(room.code, "loop") == 0
    assert 0 < await in_thread(feed._take_window, room.code, "thread") <= 3000
    assert await feed._checked(room.code, b"[1]", "loop") == feed._CHANGED
    assert await in_thread(feed._checked, room.code, b"[1]", "thread") == feed._LOST
    assert 0 < await in_thread(feed._take_window, room.code, "thread") <= 400
    await asyncio.sleep(0.45)  # the loop's window ends a period after its check
    assert await in_thread(feed._take_window, room.code, "thread") == 0
    assert await in_thread(feed._checked, room.code, b"[1]", "thread") == feed._SAME
    assert await feed._take_window(room.code, "loop") == 0  # same rows: the window opened
    await feed._drop_window(room.code, "loop")
    assert await in_thread(feed._take_window, room.code, "thread") == 0
