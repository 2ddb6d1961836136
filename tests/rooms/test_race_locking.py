"""Actions that wait for a room's lock see what the action holding it committed
(PostgreSQL, READ COMMITTED): two real connections, one waiting for the other."""

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, transaction

from rooms.core import room as room_core
from rooms.models import Entry, Move
from rooms.race import actions as races
from rooms.race import end as race_end
from tests.rooms.rooms_helpers import first_plan_pair, refusal, room_with

pytestmark = pytest.mark.django_db(transaction=True)


def _holding_the_room_lock(code, work, locked: threading.Event):
    """In another thread and connection: lock the room, do `work`, hold the lock a
    while (long enough for the test's action to queue behind it), then commit."""

    def run():
        try:
            with transaction.atomic():
                room = room_core.locked_room(code)
                work(room)
                locked.set()
                time.sleep(1.0)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks of PostgreSQL")
def test_a_pair_that_waited_while_the_race_ended_is_refused_and_not_stored():
    room, (ana, bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code, seed=5)
    now = race.go_at + timedelta(seconds=1)
    entry = race.entries.get(seat__player=ana)
    pair = first_plan_pair(entry)
    locked = threading.Event()
    ending = _holding_the_room_lock(
        room.code, lambda locked_room: race_end.end_race(locked_room.current_race(), now), locked
    )
    assert locked.wait(10)
    try:  # waits for the lock; the other connection ends the race meanwhile
        refusal("no_race", races.play_pair, ana, room.code, pair, 0, now=now)
    finally:
        ending.join()
    assert not Move.objects.filter(entry=entry).exists()
    board = Entry.objects.get(pk=entry.pk)
    assert (board.pairs_removed, board.alive) == (0, entry.alive)
