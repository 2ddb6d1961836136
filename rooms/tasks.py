"""Race work off the request path (Celery): CPU steps, the deadline sweeper, deal pools.
Each task only calls the owning module's function; periodic ones log at DEBUG unless they
did something, so an operator's terminal shows what matters."""

import logging

from celery import shared_task

from rooms import cpu_seats, pools, sweeper
from rooms.errors import RoomError

logger = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def cpu_step(code: str, seat_id: int, step: int) -> None:
    """One CPU step; safe to deliver twice (see cpu_seats.cpu_act)."""
    try:
        cpu_seats.cpu_act(None, code, seat_id, step)
    except RoomError as refused:  # the race ended, the board changed: stop here
        logger.info("cpu step %s/%s/%s stopped: %s", code, seat_id, step, refused.message)


@shared_task(ignore_result=True)
def sweep() -> None:
    done = sweeper.sweep()
    if any(done.values()):
        logger.info("sweep: %s", done)


@shared_task(ignore_result=True, soft_time_limit=120, time_limit=150)
def refill_pool(level: str, flowers: bool) -> None:
    """Top up one pool, a few deals per task so no task runs long (grading a hard deal
    takes about a second); a full batch means more to do, in a fresh task."""
    if pools.refill(level, flowers, limit=pools.REFILL_BATCH) == pools.REFILL_BATCH:
        refill_pool.delay(level, flowers)


@shared_task(ignore_result=True)
def refill_pools() -> None:
    for level, flowers in pools.all_pools():
        pools.request_refill(level, flowers)
