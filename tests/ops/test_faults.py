"""Faults that CI can stage honestly: a part the site needs is unreachable (nothing
listens on its port, or PostgreSQL refuses the database). The web server killed and
Redis killed under a running race are in test_drills.py; the long drills under load are
scripts in bench/drills, with results in docs/PERFORMANCE.md.
In Chromium: tests/browser/test_faults_browser.py."""

import psycopg
import pytest
from django.db import connection

from bench.client_board import a_legal_pair
from rooms.core.boards import position_of
from rooms.models import Entry, Move
from rooms.race import actions as races
from tests.conftest import free_port
from tests.rooms.rooms_helpers import Socket, db, room_with

pytestmark = pytest.mark.django_db(transaction=True)


def test_with_redis_unreachable_a_pair_is_stored_and_acknowledged_not_refused(
    race_of_two_past_go, settings
):
    """Found by the Redis restart drill: the event failed after commit and a stored pair
    was answered `server_error`. The event is lost instead; versions make clients resync."""
    room, (ana, bo) = race_of_two_past_go
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{free_port()}/0"]},  # nothing listens
        }
    }
    entry = Entry.objects.get(seat__player=bo)
    pair = a_legal_pair(position_of(entry))
    stored = races.play_pair(bo, room.code, list(pair), 0)
    assert stored.pairs_removed == 1
    assert Move.objects.filter(entry=entry).count() == 1


def _pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _database_down(down: bool, spare: list[int]) -> None:
    """PostgreSQL itself refuses the test database to every new connection, and ends the
    open ones except the test's own (`spare`): the site sees an outage, not a mock. (A
    database cannot bar connections to itself: this talks to it from `postgres`.)"""
    name = connection.ops.quote_name(connection.settings_dict["NAME"])
    params = {**connection.get_connection_params(), "dbname": "postgres", "autocommit": True}
    params.pop("context", None)  # Django's adapters, not a psycopg option
    with psycopg.connect(**params) as admin:
        allow = "false" if down else "true"
        admin.execute(f"ALTER DATABASE {name} WITH ALLOW_CONNECTIONS {allow}")
        if down:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND NOT pid = ANY(%s)",
                [connection.settings_dict["NAME"], spare],
            )


async def test_with_the_database_down_a_move_is_answered_unavailable_and_nothing_is_stored(
    settings,
):
    if connection.vendor != "postgresql":
        pytest.skip("stages the outage in PostgreSQL itself")
    settings.RACE_COUNTDOWN_SECONDS = 0
    room, (ana,) = await db(room_with)("Ana")
    await db(races.start_race)(ana, room.code, seed=7)
    socket = Socket(room.code, ana)
    await socket.open()  # after "go": the snapshot holds the board
    entry = await db(Entry.objects.get)(seat__player=ana)
    pair = list(a_legal_pair(position_of(entry)))
    spare = [_pid(), await db(_pid)()]  # the test's own connections
    _database_down(True, spare)
    try:
        answer = await socket.ask(type="move", tiles=pair, n=0)
        assert answer["code"] == "unavailable" and "nothing was stored" in answer["message"]
    finally:
        _database_down(False, spare)
    assert Move.objects.filter(entry=entry).count() == 0
    answer = await socket.ask(type="move", tiles=pair, n=0)  # the same pair, once it is back
    assert answer["type"] == "ack" and answer["pairs_removed"] == 1
    assert Move.objects.filter(entry=entry).count() == 1
    await socket.close()
