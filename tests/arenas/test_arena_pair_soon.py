"""A Ready said on the arena's socket is answered at once; the players ready then are
seated by the worker half a second later, in one pass (arenas/tasks.py `pair_soon`), so a
web process never deals races between the pairs it answers (docs/PERFORMANCE.md)."""

import time

import pytest

from arenas import consumers
from arenas.models import ArenaPlayer, ArenaRace
from rooms.models import Entry
from tests.arenas.arena_helpers import joined, new_arena

pytestmark = pytest.mark.django_db(transaction=True)


def test_twenty_readies_are_answered_at_once_and_seated_together_by_the_worker(celery_worker):
    arena = new_arena()
    players = joined(arena, *(f"P{k}" for k in range(20)))
    for player in players:
        consumers._act("ready", player, arena.code, {})
    assert not ArenaRace.objects.filter(arena=arena).exists()  # nothing dealt in the socket's call
    deadline = time.monotonic() + 10
    while ArenaPlayer.objects.filter(arena=arena, state=ArenaPlayer.State.RACING).count() < 20:
        assert time.monotonic() < deadline, "the worker did not seat the ready players"
        time.sleep(0.1)
    (race,) = ArenaRace.objects.filter(arena=arena)  # one race: all twenty in one pass
    seated = Entry.objects.filter(race=race.race).exclude(seat__player=None)
    assert seated.count() == 20
