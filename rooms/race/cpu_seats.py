"""A CPU seat's step, and a stand-in CPU's for an absent human: look at the board, think
(mahjong/race_rules/cpu.py), act through the same write paths as humans
(rooms/race/actions.py), and queue the next step (rooms/cpus/cpu_steps.py). Steps are short
idempotent tasks: a step runs only as the board's step cpu_step + 1, so a duplicate or stale
delivery does nothing (docs/ARCHITECTURE.md §CPU chains)."""

import random

from django.conf import settings
from django.utils.translation import gettext as _

from mahjong.race_rules import cpu
from rooms.core import hot_sql
from rooms.core.boards import position_of
from rooms.core.errors import RaceOver
from rooms.cpus import cpu_steps
from rooms.models import Entry, Room, room_code
from rooms.race.actions import board_state, give_up_entry, race_action, remove_pair, shuffle_entry


def _cpu_profile(entry: Entry) -> cpu.Profile:
    # A CPU standing in for an absent human plays at the middle level.
    return cpu.PROFILES.get(entry.seat.cpu_level, cpu.PROFILES["steady"])


def cpu_act(player, code, seat_id, step, now=None) -> Entry | None:
    """One step of the seat's CPU.

    It thinks with no lock held: its solver may take PLAN_TIME_LIMIT_SECONDS, and the
    room's lock orders every pair of the room (inside it, a room of CPUs held its humans'
    pairs up). The board is read in one short transaction and the move made in another,
    if the step is still due and the board still the one thought on."""
    entry = _cpu_board(player, code, seat_id, step, now=now)
    if entry is None:
        return None
    rng = random.Random(f"{entry.pk}:{step}")
    shuffles_left = entry.race.rules["shuffles"] - entry.shuffles_used
    decision = cpu.choose(position_of(entry), _cpu_profile(entry), shuffles_left, rng)
    return _cpu_play(player, code, seat_id, step, board_state(entry), decision, rng, now=now)


@race_action
def _cpu_board(player, code, seat_id, step, now=None) -> Entry | None:
    """The board of a CPU step that is due and may play now, else None (a step too early
    for the board is moved to when it takes taps)."""
    found = _cpu_entry(code, seat_id, step, now)
    if found is None:
        return None
    room, entry = found
    wait = max(entry.race.go_at, entry.penalty_until or entry.race.go_at) - now
    if wait.total_seconds() <= 0:
        return entry
    entry.cpu_step = step
    entry.save(update_fields=["cpu_step"])
    cpu_steps.schedule(code, seat_id, step + 1, wait.total_seconds() / settings.CPU_DELAY_SCALE)
    return None


@race_action
def _cpu_play(player, code, seat_id, step, thought_on, decision, rng, now=None):
    found = _cpu_entry(code, seat_id, step, now)
    if found is None:
        return None
    room, entry = found
    if board_state(entry) != thought_on:
        return None  # the human came back and played: the chain ends (as with cpu_control)
    entry.cpu_step = step
    profile = _cpu_profile(entry)
    entry = _cpu_move(room, entry, decision, now)
    if entry.status == Entry.Status.PLAYING:
        open_pairs = len(position_of(entry).playable_pairs())
        cpu_steps.schedule(code, seat_id, step + 1, cpu.think_seconds(profile, open_pairs, rng))
    return entry


def _cpu_entry(code: str, seat_id: int, step: int, now) -> tuple[Room, Entry] | None:
    """The room and the CPU's board, both locked (by the same statement as a player's
    board), when this step is the board's next one and a CPU plays it; None otherwise."""
    found = hot_sql.lock_room_and_entry(room_code(code), seat_id=seat_id)
    if found is None:
        return None  # no such room, no running race, or no board of this seat
    room, entry = found
    if now >= entry.race.cut_off_at:
        raise RaceOver(_("the race is over"), "race_over")
    if entry.status != Entry.Status.PLAYING or step != entry.cpu_step + 1:
        return None
    if not entry.cpu_plays:
        return None  # the human is back
    return room, entry


def _cpu_move(room: Room, entry: Entry, decision: cpu.Decision, now) -> Entry:
    if decision.kind == "pair":
        i, j = decision.pair
        return remove_pair(room, entry, i, j, entry.pairs_removed, now, by_cpu=True)
    if decision.kind == "shuffle":
        return shuffle_entry(room, entry, now, by_cpu=True)
    return give_up_entry(room, entry, now, by_cpu=True)
