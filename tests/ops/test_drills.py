"""The fault drills of bench/drills, staged small enough for CI with real processes: the
web server (uvicorn, two workers) killed with kill -9 in the middle of a race and started
again, and Redis killed and started again under a running race. (The database outage is
in test_faults.py, the Celery worker's in test_workers.py; the long versions under load
are bench/drills, results in docs/PERFORMANCE.md.)"""

import asyncio

import pytest

from rooms.models import Entry, Move
from rooms.race import actions as races
from tests.ops.drill_helpers import PrivateRedis, WebServer, connected_players
from tests.rooms.rooms_helpers import db, room_with

pytestmark = [pytest.mark.drill, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def race_of_three_past_go(settings):
    """Ana, Bo and Cy racing already (the test process starts it, no countdown: "go" at
    once), on a fixed deal: (room, [ana, bo, cy])."""
    settings.RACE_COUNTDOWN_SECONDS = 0
    room, people = room_with("Ana", "Bo", "Cy")
    races.start_race(people[0], room.code, seed=11)
    return room, people


def boards_are_whole(code: str) -> dict[int, int]:
    """Each board's stored pairs agree with its count and its tiles left; per seat id,
    the count."""
    counts = {}
    for entry in Entry.objects.filter(race__room__code=code):
        pairs = Move.objects.filter(entry=entry, kind=Move.Kind.PAIR).count()
        assert pairs == entry.pairs_removed
        assert int(entry.alive, 16).bit_count() == entry.tile_count - 2 * pairs
        counts[entry.seat_id] = pairs
    return counts


async def all_stored_and_closed(code: str, players) -> None:
    """Every board whole, each holding exactly the pairs its player counts; sockets closed."""
    counts = await db(boards_are_whole)(code)
    assert sorted(counts.values()) == sorted(player.count for player in players)
    for player in players:
        await player.close()


async def test_the_web_server_killed_mid_race_loses_no_acknowledged_pair(
    tmp_path, settings, race_of_three_past_go
):
    room, people = race_of_three_past_go
    server = WebServer(tmp_path, settings.REDIS_URL)
    server.start()
    try:
        players = await connected_players(server, room.code, people)
        for player in players:
            for _ in range(3):
                await player.play_pair()
        # A pair from each in flight as every web process dies at once.
        sending = [asyncio.create_task(player.play_pair()) for player in players]
        await asyncio.sleep(0.01)
        server.kill()
        outcomes = await asyncio.gather(*sending, return_exceptions=True)
        server.start()
        for player, outcome in zip(players, outcomes, strict=True):
            snapshot = await player.connect()  # the page reconnects and resyncs
            stored = snapshot["entry"]["pairs_removed"]
            if isinstance(outcome, BaseException):  # no answer: stored or not, not half
                assert stored in (3, 4)
            else:  # acknowledged before the kill: stored
                assert stored == 4
            await player.play_pair()  # and the race goes on
            assert player.count == stored + 1
        await all_stored_and_closed(room.code, players)
    finally:
        server.stop()


async def test_with_redis_killed_and_back_no_pair_is_refused_and_the_race_ends_live(
    tmp_path, settings, race_of_three_past_go
):
    room, people = race_of_three_past_go
    redis = PrivateRedis(tmp_path)
    redis.start()
    server = WebServer(tmp_path, redis.url)
    server.start()
    try:
        players = await connected_players(server, room.code, people)
        for player in players:
            await player.play_pair()
        await players[1].wait_for("standings")  # the live panel runs through Redis
        redis.stop()
        for player in players:  # stored and acknowledged without Redis
            await player.play_pair()
        redis.start()
        await asyncio.sleep(1)  # the channel layer reconnects
        for player in players:
            await player.play_pair()
        for player in players:
            player.seen.clear()
        await players[0].play_pair()
        await players[1].wait_for("standings")  # the panel is live again
        for player in players:
            assert (await player.ask(type="give_up"))["status"] == "gave_up"
        for player in players:  # the race's end reaches every open socket
            finished = await player.wait_for("race_finished")
            assert finished["race"]["status"] == "finished"
        await all_stored_and_closed(room.code, players)
    finally:
        server.stop()
        redis.stop()
