"""The human pace floor (docs/RULES.md §Fair play): a pair sooner than PAIR_FLOOR_MS after
the same player's previous pair is refused `too_fast` and changes nothing."""

from datetime import timedelta

import pytest

from rooms import races, stand_in
from rooms.boards import deal_for
from rooms.models import Entry, Move
from tests.rooms_helpers import close_all, db, refused, room_with, seated

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair_floor(settings):
    settings.PAIR_FLOOR_MS = 250
    return settings


def a_race():
    room, (ana, bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code, seed=3)
    entry = race.entries.get(seat__player=ana)
    return room, ana, entry, deal_for(entry.code).plan, race.go_at + timedelta(seconds=1)


def test_a_pair_sooner_than_a_hand_can_is_refused_and_changes_nothing(pair_floor):
    room, ana, entry, plan, now = a_race()
    races.play_pair(ana, room.code, sorted(plan[0]), 0, now=now)
    soon = now + timedelta(milliseconds=100)
    before = Entry.objects.get(pk=entry.pk)
    refused("too_fast", races.play_pair, ana, room.code, sorted(plan[1]), 1, now=soon)
    after = Entry.objects.get(pk=entry.pk)
    assert (after.alive, after.pairs_removed) == (before.alive, before.pairs_removed)
    assert Move.objects.filter(entry=entry).count() == 1
    later = now + timedelta(milliseconds=300)
    assert races.play_pair(ana, room.code, sorted(plan[1]), 1, now=later).pairs_removed == 2


def test_a_stand_ins_pair_does_not_count_against_the_human_coming_back(pair_floor):
    room, ana, entry, plan, now = a_race()
    races.play_pair(ana, room.code, sorted(plan[0]), 0, now=now)
    entry.refresh_from_db()
    assert stand_in.take(entry, now + timedelta(seconds=40))
    cpu_move = now + timedelta(seconds=41)
    room.refresh_from_db()
    entry.refresh_from_db()
    races.remove_pair(room, entry, *sorted(plan[1]), 1, cpu_move, by_cpu=True)
    back = cpu_move + timedelta(milliseconds=50)  # right after the CPU's pair
    assert races.play_pair(ana, room.code, sorted(plan[2]), 2, now=back).pairs_removed == 3


@pytest.mark.django_db(transaction=True)
async def test_a_socket_client_at_a_tenth_of_a_second_a_pair_gets_too_fast(pair_floor):
    room, players, sockets = await seated("Ana", "Bo")
    ana, bo = sockets
    await ana.ask(type="start")
    for socket in sockets:
        await socket.next("go")
    code = await db(lambda: Entry.objects.get(seat__player=players[0]).code)()
    plan = deal_for(code).plan
    assert (await ana.ask(type="move", tiles=sorted(plan[0]), n=0))["type"] == "ack"
    answer = await ana.ask(type="move", tiles=sorted(plan[1]), n=1)
    assert (answer["type"], answer["code"]) == ("error", "too_fast")
    stored = await db(lambda: Entry.objects.get(seat__player=players[0]).pairs_removed)()
    assert stored == 1
    await close_all(sockets)
