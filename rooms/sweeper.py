"""The deadline sweeper: every SWEEP_SECONDS the scheduler runs it (rooms/tasks.py) to
close what is due, since deadlines live in the database, not in timers
(docs/ARCHITECTURE.md §Lazy deadlines): races past their cut-off, away or idle humans (a
CPU takes the seat), stalled CPU chains (a worker died), due ranked groups, and quick
races past their start.

Each row is claimed with a conditional update, so two sweepers never act twice.
"""

from django.db import transaction
from django.utils import timezone

from rooms.cpus import cpu_steps, stand_in
from rooms.models import Entry, Race
from rooms.quick import actions as quick
from rooms.race.end import close_if_due
from rooms.ranked import actions as ranked


def sweep(now=None) -> dict:
    """Close what is due; returns what it did, for logs and tests."""
    now = now or timezone.now()
    due = Race.objects.filter(status=Race.Status.RUNNING, cut_off_at__lte=now)
    closed = [code for code in due.values_list("room__code", flat=True) if close_if_due(code, now)]
    playing = Entry.objects.filter(
        race__status=Race.Status.RUNNING, race__go_at__lte=now, status=Entry.Status.PLAYING
    ).select_related("race__room", "seat")
    playing = list(playing)
    present = stand_in.humans_present(playing)
    taken_over, kicked = [], []
    for entry in playing:
        last_one = present[entry.race_id] == {entry.pk}
        if entry.away_or_idle(now, last_one_playing=last_one) and stand_in.take(entry, now):
            taken_over.append(entry.pk)
        elif entry.cpu_plays and entry.stalled(now) and _claim_kick(entry, now):
            kicked.append(entry.pk)
    return {
        "closed": closed,
        "taken_over": taken_over,
        "kicked": kicked,
        "grouped": ranked.form_groups(now=now),
        # Quick races past their start whose task was lost (rooms/quick/actions.py).
        "quick_started": [c for c in quick.due_codes(now) if quick.start_if_due(c, now)],
    }


def _claim_kick(entry: Entry, now) -> bool:
    claimed = Entry.objects.filter(pk=entry.pk, cpu_kicked_at=entry.cpu_kicked_at).update(
        cpu_kicked_at=now
    )
    if claimed:
        with transaction.atomic():
            cpu_steps.schedule(entry.race.room.code, entry.seat_id, entry.cpu_step + 1, 0)
    return bool(claimed)
