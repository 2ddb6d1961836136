"""Pools of ready, graded deals per level, kept full by the pools worker: every write to
a pool is here (rooms/tasks.py only calls this module's functions; the SQL of a take and
of the pool lock is in rooms/core/hot_sql.py).

Starting a race takes one deal in a single query and asks for a refill after it commits;
only an empty pool makes the race generate one on the spot (logged, as it means the
worker is behind or down). Measured in docs/WORKERS.md.
"""

import functools
import logging
import random

from django.conf import settings
from django.db import transaction

from mahjong.engine.catalog import level_layout
from mahjong.engine.codes import make_code, random_seed
from mahjong.engine.deal import deal_from_code
from mahjong.race_rules.grading import grade
from mahjong.rules import GRADE_BANDS, LEVELS
from rooms.core import hot_sql, tasks_sent
from rooms.models import PooledDeal

logger = logging.getLogger(__name__)

TRIES_PER_DEAL = 12
REFILL_BATCH = 3  # deals graded per refill task (about a second each on the hard levels)


def take(level: str, flowers: bool) -> str:
    """A deal's code for a race at this level: from the pool, else made now. The pool is
    topped up once the caller's transaction commits."""
    request_refill(level, flowers)
    code = hot_sql.pop_pooled_deal(level, flowers)
    if code is None:
        logger.warning("deal pool %s/%s is empty: dealing inline", level, flowers)
        code = make_code(level_layout(level, flowers).number, random_seed())
    return code


def request_refill(level: str, flowers: bool) -> None:
    """Queue a refill of the pool after the current transaction commits (by task name,
    rooms/core/tasks_sent.py: rooms/tasks.py imports this module). robust: with the
    broker down the race starts all the same; the scheduler asks for refills every minute."""
    refill = functools.partial(tasks_sent.send, tasks_sent.REFILL_POOL, level, flowers)
    transaction.on_commit(refill, robust=True)


def graded_deal(level: str, flowers: bool, rng: random.Random) -> PooledDeal:
    """A deal whose score falls in the level's band (the closest of a few, failing that)."""
    number = level_layout(level, flowers).number
    low, high = GRADE_BANDS[level]
    best = None
    for _ in range(TRIES_PER_DEAL):
        code = make_code(number, random_seed())
        found = grade(deal_from_code(code), rng)
        miss = max(low - found.score, found.score - high, 0)
        if best is None or miss < best[0]:
            best = (miss, code, found)
        if miss == 0:
            break
    _, code, found = best
    return PooledDeal(
        level=level,
        flowers=flowers,
        code=code,
        score=found.score,
        first_pairs=found.first_pairs,
        winning_first_pairs=found.winning_first_pairs,
        dead_end_rate=found.dead_end_rate,
    )


def refill(level: str, flowers: bool, limit: int | None = None) -> int:
    """Add deals until the pool holds DEAL_POOL_SIZE (at most `limit` this call); how
    many were added. The deals are graded first, with no lock held (a second each on the
    hard levels); then, with the pool locked, only as many are kept as are still missing,
    so refills running at once never overfill it."""
    missing = _missing(level, flowers)
    missing = min(missing, limit) if limit is not None else missing
    rng = random.Random()
    graded = [graded_deal(level, flowers, rng) for _ in range(max(0, missing))]
    if not graded:
        return 0
    with transaction.atomic():
        hot_sql.lock_pool(all_pools().index((level, flowers)))
        kept = graded[: max(0, _missing(level, flowers))]
        PooledDeal.objects.bulk_create(kept)
    return len(kept)


def _missing(level: str, flowers: bool) -> int:
    return settings.DEAL_POOL_SIZE - PooledDeal.objects.filter(level=level, flowers=flowers).count()


def all_pools() -> list[tuple[str, bool]]:
    return [(level, flowers) for level in LEVELS for flowers in (False, True)]
