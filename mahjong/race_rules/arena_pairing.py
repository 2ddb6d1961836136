"""Who races whom in an arena (docs/RULES.md §Arenas), as a pure function.

arenas/pairing.py runs a pass every few seconds (and right after a player says they are
ready) with the players waiting and asks `pair`. A pass groups everyone waiting once two
or more are there and the longest of them has waited GATHER (so a few arrivals a second
apart race together), or at once when MAX_HUMANS wait. The waiting are sorted by arena
score and cut into consecutive groups of 2 to MAX_HUMANS, as even as they come: nearest
scores race together, and nobody is left over while another human waits. A player waiting
alone for ALONE_WAIT races the arena's CPUs. So with passes PASS_SECONDS apart, nobody
waits past GATHER + PASS_SECONDS (far under MAX_WAIT) while another human waits.
No race starts in the arena's last minute (LAST_START)."""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

MIN_HUMANS, MAX_HUMANS = 2, 20
GATHER = timedelta(seconds=3)
ALONE_WAIT = timedelta(seconds=8)
MAX_WAIT = timedelta(seconds=20)  # the promise: nobody waits longer while another waits
LAST_START = timedelta(minutes=1)


@dataclass(frozen=True)
class Waiting:
    key: object
    score: float  # arena points so far
    since: datetime  # waiting since (after a race: once its 5 s offer ran out)


def may_start(now: datetime, ends_at: datetime) -> bool:
    """No new race in the arena's last minute."""
    return now < ends_at - LAST_START


def pair(waiting: Sequence[Waiting], now: datetime, ends_at: datetime) -> list[list[Waiting]]:
    """The groups to start now. A group of one races the CPUs. Nobody in two groups."""
    ready = [w for w in waiting if w.since <= now]
    if not ready or not may_start(now, ends_at):
        return []
    oldest = min(w.since for w in ready)
    if len(ready) == 1:
        return [list(ready)] if now - oldest >= ALONE_WAIT else []
    if len(ready) < MAX_HUMANS and now - oldest < GATHER:
        return []
    ordered = sorted(ready, key=lambda w: (-w.score, w.since, str(w.key)))
    return split(ordered)


def split(ordered: list[Waiting]) -> list[list[Waiting]]:
    """Consecutive groups, each of 2..MAX_HUMANS, sizes differing by one at most."""
    count = math.ceil(len(ordered) / MAX_HUMANS)
    size, extra = divmod(len(ordered), count)
    groups, start = [], 0
    for index in range(count):
        end = start + size + (1 if index < extra else 0)
        groups.append(ordered[start:end])
        start = end
    return groups
