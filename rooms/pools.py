"""Pools of ready, graded deals per level, kept full by the worker (issue: deal pools).

Starting a race takes one deal in a single query; only an empty pool makes the race
generate one on the spot (logged, as it means the worker is behind or down).
"""

import logging
import random

from django.conf import settings
from django.db import connection, transaction

from mahjong.engine.catalog import level_layout
from mahjong.engine.codes import make_code, random_seed
from mahjong.engine.deal import deal_from_code
from rooms.grading import grade
from rooms.models import LEVELS, PooledDeal

logger = logging.getLogger(__name__)

# Score bands (rooms/grading.py) each level's pool keeps: they overlap little, so a
# harder level is reliably harder to play, not only bigger. Measured in docs/WORKERS.md.
BANDS = {
    "beginner": (0.0, 0.25),
    "easy": (0.05, 0.45),
    "medium": (0.25, 0.6),
    "hard": (0.4, 1.0),
}
TRIES_PER_DEAL = 12
POOL_LOCK = 0x504F4F4C  # "POOL": the PostgreSQL advisory lock namespace of the pools


def take(level: str, flowers: bool) -> str:
    """A deal's code for a race at this level: from the pool, else made now."""
    code = _pop(level, flowers)
    if code is None:
        logger.warning("deal pool %s/%s is empty: dealing inline", level, flowers)
        code = make_code(level_layout(level, flowers).number, random_seed())
    return code


def _pop(level: str, flowers: bool) -> str | None:
    """Delete and return the oldest pooled deal in one statement; concurrent takers
    skip each other's row on PostgreSQL (SKIP LOCKED) instead of waiting."""
    table = PooledDeal._meta.db_table
    lock = " FOR UPDATE SKIP LOCKED" if connection.vendor == "postgresql" else ""
    sql = (
        f"DELETE FROM {table} WHERE id = (SELECT id FROM {table} WHERE level = %s"
        f" AND flowers = %s ORDER BY id LIMIT 1{lock}) RETURNING code"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [level, flowers])
        row = cursor.fetchone()
    return row[0] if row else None


def graded_deal(level: str, flowers: bool, rng: random.Random) -> PooledDeal:
    """A deal whose score falls in the level's band (the closest of a few, failing that)."""
    number = level_layout(level, flowers).number
    low, high = BANDS[level]
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
        _lock_pool(level, flowers)
        kept = graded[: max(0, _missing(level, flowers))]
        PooledDeal.objects.bulk_create(kept)
    return len(kept)


def _missing(level: str, flowers: bool) -> int:
    return settings.DEAL_POOL_SIZE - PooledDeal.objects.filter(level=level, flowers=flowers).count()


def _lock_pool(level: str, flowers: bool) -> None:
    """Refills of one pool take turns until the transaction ends. (SQLite needs nothing:
    its transactions here are IMMEDIATE, one writer at a time.)"""
    if connection.vendor == "postgresql":
        key = all_pools().index((level, flowers))
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [POOL_LOCK, key])


def all_pools() -> list[tuple[str, bool]]:
    return [(level, flowers) for level in LEVELS for flowers in (False, True)]
