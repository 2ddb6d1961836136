"""Race work off the request path: CPU steps and the deadline sweeper (Celery)."""

import logging

from celery import shared_task

from rooms import actions

logger = logging.getLogger(__name__)


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
