"""Who races whom when more players wait at a ranked level than fit one race
(docs/RULES.md §Ranked play and ratings, docs/ACCOUNTS.md §Ranked quick-match).

Pure: rooms/ranked/actions.py loads the waiting line with its ratings and asks `pick_group`.
As lichess's pools do, nearest ratings race together and the accepted rating gap widens
with waiting time: START_REACH points at first, doubled at half the wait, and without
limit once RANKED_WAIT_SECONDS have passed, so nobody waits past it once two are in.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

START_REACH = 100.0  # rating points either side accepted by a player who just joined


@dataclass(frozen=True)
class Waiting:
    key: object
    rating: float
    joined_at: datetime


def reach(waiting: Waiting, now: datetime, wait: timedelta) -> float:
    """The rating gap a waiting player accepts: START_REACH / (1 - share of the wait)."""
    waited = now - waiting.joined_at
    if not wait or waited >= wait:  # a wait of 0 holds nobody back by rating
        return math.inf
    return START_REACH / (1 - max(0.0, waited / wait))


def pick_group(
    line: Sequence[Waiting], now: datetime, wait: timedelta, size: int
) -> list[Waiting] | None:
    """The group to seat now, or None; `line` is oldest first.

    The line is tried oldest first: each player with the nearest ratings within the
    wider reach of the two (a long wait accepts a wide gap). The first full group goes;
    or, once a player has waited `wait`, that player's group, whatever its size from two.
    """
    for anchor in line:
        group = [anchor, *_nearest(anchor, line, now, wait)[: size - 1]]
        if len(group) == size or (len(group) >= 2 and now - anchor.joined_at >= wait):
            return group
    return None


def _nearest(anchor: Waiting, line: Sequence[Waiting], now: datetime, wait: timedelta):
    mine = reach(anchor, now, wait)
    accepted = [
        other
        for other in line
        if other is not anchor
        and abs(other.rating - anchor.rating) <= max(mine, reach(other, now, wait))
    ]
    return sorted(accepted, key=lambda other: (abs(other.rating - anchor.rating), other.joined_at))
