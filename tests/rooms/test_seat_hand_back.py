"""A player back on a board a stand-in CPU was playing takes it back at once and for
good: their first action (even one refused as stale) or a socket opened hands the seat
back under the room's lock, and no CPU step already queued, thinking or done may act
after it (docs/RULES.md §Leaving). Each CPU step is held at a point where it can
interleave with the return, with an injected clock."""

import random
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async

from mahjong.race_rules import cpu
from rooms import sweeper
from rooms.core import errors
from rooms.core.boards import position_of
from rooms.cpus import stand_in
from rooms.lobby import actions as lobby
from rooms.models import Entry, Move
from rooms.race import actions as races
from rooms.race import cpu_seats
from tests.rooms.rooms_helpers import Socket, room_with

pytestmark = pytest.mark.django_db(transaction=True)


def stood_in_race():
    """Ana and Bo race; Bo's page closed, so after the grace a CPU plays Bo's board."""
    room, (ana, bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code, seed=11)
    lobby.seat_seen(room.seats.get(player=ana).pk, now=race.go_at + timedelta(seconds=25))
    taken_at = race.go_at + timedelta(seconds=31)
    (entry_pk,) = sweeper.sweep(now=taken_at)["taken_over"]
    return room, bo, Entry.objects.get(pk=entry_pk), taken_at


def the_cpu_steps(room, entry, step, now):
    """A CPU step as the worker runs it, cut at its two transactions: it reads the board,
    thinks with no lock held, then plays (or finds the board no longer its own)."""
    seat = entry.seat_id
    board = cpu_seats._cpu_board(None, room.code, seat, step, now=now)
    yield "thinking"
    rng = random.Random(step)
    decision = cpu.choose(position_of(board), cpu.PROFILES["steady"], 3, rng)
    thought_on = races.board_state(board)
    played = cpu_seats._cpu_play(None, room.code, seat, step, thought_on, decision, rng, now=now)
    yield played


def a_pair_for(entry: Entry) -> list[int]:
    return sorted(position_of(Entry.objects.get(pk=entry.pk)).playable_pairs()[0])


def return_by_a_pair(room, bo, entry, seen, now):
    """Bo taps a pair on the board as Bo's page last showed it (`seen` pairs removed)."""
    try:
        races.play_pair(bo, room.code, a_pair_for(entry), seen, now=now)
    except errors.RoomError as refused:
        assert refused.code == "stale"  # the CPU moved after Bo's page last looked


def return_by_a_socket(room, bo, entry, seen, now):
    races.take_seat_back(bo, entry.seat_id, room.code, now=now)


RETURNS = [return_by_a_pair, return_by_a_socket]


def assert_the_seat_is_bos_for_good(room, bo, entry, now):
    entry.refresh_from_db()
    assert not entry.cpu_control
    cpu_moves = Move.objects.filter(entry=entry, by_cpu=True).count()
    # Whatever step the chain would take next finds the board no longer its own.
    assert cpu_seats.cpu_act(None, room.code, entry.seat_id, entry.cpu_step + 1, now=now) is None
    assert Move.objects.filter(entry=entry, by_cpu=True).count() == cpu_moves
    n = Entry.objects.get(pk=entry.pk).pairs_removed
    races.play_pair(bo, room.code, a_pair_for(entry), n, now=now)  # acknowledged, not stale
    assert Entry.objects.get(pk=entry.pk).pairs_removed == n + 1


@pytest.mark.parametrize("return_", RETURNS)
def test_a_step_queued_before_the_return_does_nothing_after_it(return_):
    room, bo, entry, now = stood_in_race()
    return_(room, bo, entry, entry.pairs_removed, now + timedelta(seconds=1))
    assert (
        cpu_seats.cpu_act(None, room.code, entry.seat_id, 1, now=now + timedelta(seconds=2)) is None
    )
    assert_the_seat_is_bos_for_good(room, bo, entry, now + timedelta(seconds=3))


@pytest.mark.parametrize("return_", RETURNS)
def test_a_step_thinking_when_the_player_returns_makes_no_move(return_):
    room, bo, entry, now = stood_in_race()
    step = the_cpu_steps(room, entry, 1, now + timedelta(seconds=1))
    assert next(step) == "thinking"
    return_(room, bo, entry, entry.pairs_removed, now + timedelta(seconds=2))
    assert next(step) is None  # the board is Bo's: the CPU's plan is dropped
    assert not Move.objects.filter(entry=entry, by_cpu=True).exists()
    assert_the_seat_is_bos_for_good(room, bo, entry, now + timedelta(seconds=3))


@pytest.mark.parametrize("return_", RETURNS)
def test_a_step_done_just_before_the_return_is_the_last_even_if_the_first_pair_is_stale(
    return_,
):
    room, bo, entry, now = stood_in_race()
    seen = entry.pairs_removed  # Bo's page shows the board before the CPU's pair
    step = the_cpu_steps(room, entry, 1, now + timedelta(seconds=1))
    next(step)
    assert next(step).pairs_removed == seen + 1  # the CPU held the lock first and played
    return_(room, bo, entry, seen, now + timedelta(seconds=2))
    assert_the_seat_is_bos_for_good(room, bo, entry, now + timedelta(seconds=3))


async def test_opening_the_room_again_hands_the_seat_back_before_the_board_is_shown(settings):
    settings.RACE_COUNTDOWN_SECONDS = 0  # the socket acts on the real clock: past "go"
    room, bo, entry, now = await sync_to_async(stood_in_race)()
    socket = Socket(room.code, bo)
    snapshot = await socket.open()
    await socket.close()
    entry = await sync_to_async(Entry.objects.get)(pk=entry.pk)
    assert not entry.cpu_control
    assert snapshot["type"] == "snapshot"
    step_after = await sync_to_async(cpu_seats.cpu_act)(None, room.code, entry.seat_id, 1)
    assert step_after is None


def test_a_board_nobody_stands_in_for_is_not_touched_by_a_socket():
    room, (ana,) = room_with("Ana")
    race = races.start_race(ana, room.code, seed=2)
    entry = Entry.objects.get(race=race)
    assert races.take_seat_back(ana, entry.seat_id, room.code) is False
    assert Entry.objects.get(pk=entry.pk).last_action_at is None


def test_a_player_who_acts_between_the_sweep_reading_and_claiming_keeps_the_seat():
    room, (ana, bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code, seed=11)
    lobby.seat_seen(room.seats.get(player=ana).pk, now=race.go_at + timedelta(seconds=25))
    later = race.go_at + timedelta(seconds=31)
    read = Entry.objects.select_related("race", "seat").get(seat__player=bo)
    assert read.away_or_idle(later)  # the sweep has read Bo's board as away...
    races.play_pair(bo, room.code, a_pair_for(read), 0, now=later)  # ...then Bo plays
    assert stand_in.take(read, later) is False
    assert not Entry.objects.get(pk=read.pk).cpu_control


async def test_everyone_is_told_when_a_cpu_stands_in_and_when_the_player_is_back(settings):
    settings.RACE_COUNTDOWN_SECONDS = 0
    settings.STANDINGS_FEED_MS = 50

    def start():
        room, (ana, bo) = room_with("Ana", "Bo")
        race = races.start_race(ana, room.code, seed=11)
        return room, ana, bo, race, room.seats.get(player=ana).pk

    room, ana, bo, race, ana_seat = await sync_to_async(start)()
    watcher = Socket(room.code, ana)
    await watcher.open()
    await watcher.ask(type="ping", t=0)  # the socket's own "seen" on connect is written
    later = race.go_at + timedelta(seconds=31)
    await sync_to_async(lobby.seat_seen)(ana_seat, now=later)
    done = await sync_to_async(sweeper.sweep)(now=later)
    assert len(done["taken_over"]) == 1
    stood_in, shown = None, None
    while stood_in is None or shown is None:  # the event and the paced standings, any order
        message = await watcher.next("stand_in", "standings")
        if message["type"] == "stand_in":
            stood_in = message
        else:
            shown = {row["nickname"]: row["stand_in"] for row in message["standings"]}
            shown = shown if shown["Bo"] else None
    assert (stood_in["nickname"], stood_in["on"]) == ("Bo", True)
    assert shown == {"Ana": False, "Bo": True}
    back = Socket(room.code, bo)
    await back.open()
    returned = await watcher.next("stand_in")
    assert (returned["nickname"], returned["on"]) == ("Bo", False)
    assert returned["v"] == stood_in["v"] + 1  # versioned events, in order
    await back.close()
    await watcher.close()


async def test_the_player_back_is_told_how_many_pairs_the_stand_in_made_meanwhile(settings):
    settings.RACE_COUNTDOWN_SECONDS = 0  # the socket acts on the real clock: past "go"
    room, bo, entry, now = await sync_to_async(stood_in_race)()
    for step in (1, 2):  # the stand-in plays two pairs on Bo's board
        await sync_to_async(cpu_seats.cpu_act)(
            None, room.code, entry.seat_id, step, now=now + timedelta(seconds=step)
        )
    made = await sync_to_async(Move.objects.filter(entry=entry, by_cpu=True).count)()
    assert made == 2
    socket = Socket(room.code, bo)
    await socket.open()
    back = await socket.next("stand_in")
    assert (back["on"], back["pairs"]) == (False, 2)
    await socket.close()
