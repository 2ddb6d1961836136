"""The deadline sweeper: every SWEEP_SECONDS the scheduler runs it (rooms/tasks.py) to
close what is due, since deadlines live in the database, not in timers
(docs/ARCHITECTURE.md §Lazy deadlines): races past their cut-off, away or idle humans (a
CPU takes the seat), stalled CPU chains (a worker died), and due ranked groups.

Each row is claimed with a conditional update, so two sweepers never act twice.
"""

from collections import defaultdict

from django.db import transaction
from django.utils import timezone

from rooms import cpu_steps, events, ranked, standings_feed
from rooms.lobby import advance_version, locked_room
from rooms.models import Entry, Race
from rooms.race_end import close_if_due


def sweep(now=None) -> dict:
    """Close what is due; returns what it did, for logs and tests."""
    now = now or timezone.now()
    due = Race.objects.filter(status=Race.Status.RUNNING, cut_off_at__lte=now)
    closed = [code for code in due.values_list("room__code", flat=True) if close_if_due(code, now)]
    playing = Entry.objects.filter(
        race__status=Race.Status.RUNNING, race__go_at__lte=now, status=Entry.Status.PLAYING
    ).select_related("race__room", "seat")
    playing = list(playing)
    present = _humans_present(playing)
    taken_over, kicked = [], []
    for entry in playing:
        last_one = present[entry.race_id] == {entry.pk}
        if entry.away_or_idle(now, last_one_playing=last_one) and _claim_takeover(entry, now):
            taken_over.append(entry.pk)
        elif entry.cpu_plays and entry.stalled(now) and _claim_kick(entry, now):
            kicked.append(entry.pk)
    return {
        "closed": closed,
        "taken_over": taken_over,
        "kicked": kicked,
        "grouped": ranked.form_groups(now=now),
    }


def _humans_present(playing: list[Entry]) -> dict[int, set[int]]:
    """Per race, the boards humans are still playing themselves (no CPU standing in)."""
    present = defaultdict(set)
    for entry in playing:
        if entry.seat.player_id is not None and not entry.cpu_control:
            present[entry.race_id].add(entry.pk)
    return present


@transaction.atomic
def _claim_takeover(entry: Entry, now) -> bool:
    """A CPU stands in for an away or idle human, announced to the room. Under the room's
    lock, so the claim and a return of the player are ordered, and only the board as the
    sweep read it: a player who acted since keeps the seat."""
    room = locked_room(entry.race.room.code)
    unchanged = {"cpu_control": False, "last_action_at": entry.last_action_at}
    claimed = Entry.objects.filter(pk=entry.pk, **unchanged).update(
        cpu_control=True, cpu_kicked_at=now
    )
    if claimed:
        cpu_steps.schedule(room.code, entry.seat_id, entry.cpu_step + 1, 0.5)
        events.publish_stand_in(room, entry.seat, True, advance_version(room))
        standings_feed.changed(room.code)
    return bool(claimed)


def _claim_kick(entry: Entry, now) -> bool:
    claimed = Entry.objects.filter(pk=entry.pk, cpu_kicked_at=entry.cpu_kicked_at).update(
        cpu_kicked_at=now
    )
    if claimed:
        with transaction.atomic():
            cpu_steps.schedule(entry.race.room.code, entry.seat_id, entry.cpu_step + 1, 0)
    return bool(claimed)
