"""Race work off the request path: CPU steps and the deadline sweeper (Celery)."""

import logging

from celery import shared_task

from rooms import actions, pools

logger = logging.getLogger(__name__)
REFILL_BATCH = 3


@shared_task(ignore_result=True)
def cpu_step(code: str, seat_id: int, step: int) -> None:
    """One CPU step; safe to deliver twice (see actions.cpu_act)."""
    try:
        actions.cpu_act(None, code, seat_id, step)
    except actions.RoomError as refused:  # the race ended, the board changed: stop here
        logger.info("cpu step %s/%s/%s stopped: %s", code, seat_id, step, refused.message)


@shared_task(ignore_result=True)
def sweep() -> None:
    done = actions.sweep()
    if any(done.values()):
        logger.info("sweep: %s", done)


@shared_task(ignore_result=True, soft_time_limit=120, time_limit=150)
def refill_pool(level: str, flowers: bool) -> None:
    """Top up one pool, a few deals per task so no task runs long (grading a hard deal
    takes about a second)."""
    added = pools.refill(level, flowers, limit=REFILL_BATCH)
    if added == REFILL_BATCH:  # more to do: continue in a fresh task
        refill_pool.delay(level, flowers)


@shared_task(ignore_result=True)
def refill_pools() -> None:
    for level, flowers in pools.all_pools():
        refill_pool.delay(level, flowers)
