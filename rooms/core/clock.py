"""A race's clock before "go": one source for the server that sets "go" and the pages
that count down to it (docs/RULES.md §Races)."""

from datetime import datetime, timedelta

from django.conf import settings

from rooms.models import Room


def countdown_seconds(room: Room) -> float:
    """From a race's start to "go": the 3-2-1, after a ranked room's gathering (its
    players are still on their way from the waiting page; docs/ACCOUNTS.md §Ranked)."""
    gather = settings.RANKED_GATHER_SECONDS if room.ranked or room.hosted else 0
    return gather + settings.RACE_COUNTDOWN_SECONDS


def countdown_at(go_at: datetime) -> datetime:
    """When the 3-2-1 begins: what the pages count down from (before it, "Get ready")."""
    return go_at - timedelta(seconds=settings.RACE_COUNTDOWN_SECONDS)
