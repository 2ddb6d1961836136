"""Scheduled arenas (docs/RULES.md §Arenas): each active ArenaSchedule's next arenas are
created `ahead_minutes` before they start, by the beat task (arenas/tasks.py). Idempotent:
the (schedule, starts_at) pair is unique, so two beats, or one run twice, never make two
arenas of one start."""

from datetime import UTC, datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from arenas.models import Arena, ArenaSchedule, new_arena_code


def starts_between(schedule: ArenaSchedule, after: datetime, until: datetime) -> list[datetime]:
    """The schedule's starts in (after, until], in UTC."""
    after = after.astimezone(UTC)
    if schedule.every == ArenaSchedule.Every.HOUR:
        first = after.replace(minute=schedule.at_minute, second=0, microsecond=0)
        step = timedelta(hours=1)
    else:
        first = after.replace(
            hour=schedule.at_hour, minute=schedule.at_minute, second=0, microsecond=0
        )
        step = timedelta(days=1)
    while first > after:
        first -= step
    starts = []
    start = first + step
    while start <= until:
        starts.append(start)
        start += step
    return starts


def create_due(now: datetime | None = None) -> list[Arena]:
    """Every scheduled arena due to exist by `now` (starting from `now` to its schedule's
    `ahead_minutes` ahead) that does not exist yet: the new ones."""
    now = now or timezone.now()
    made = []
    for schedule in ArenaSchedule.objects.filter(active=True):
        until = now + timedelta(minutes=schedule.ahead_minutes)
        for start in starts_between(schedule, now - timedelta(minutes=schedule.minutes), until):
            if start + timedelta(minutes=schedule.minutes) <= now:
                continue  # already over
            arena = _create(schedule, start, now)
            if arena is not None:
                made.append(arena)
    return made


def _create(schedule: ArenaSchedule, start: datetime, now: datetime) -> Arena | None:
    if Arena.objects.filter(schedule=schedule, starts_at=start).exists():
        return None
    status = Arena.Status.RUNNING if start <= now else Arena.Status.UPCOMING
    try:
        with transaction.atomic():  # a second beat making the same one loses here
            return Arena.objects.create(
                code=new_arena_code(),
                name=schedule.name,
                starts_at=start,
                minutes=schedule.minutes,
                public=True,
                schedule=schedule,
                status=status,
                **schedule.rules(),
            )
    except IntegrityError:
        return None
