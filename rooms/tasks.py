"""Race work off the request path (Celery): CPU steps, the deadline sweeper, deal pools.
Each task only calls the owning module's function; periodic ones log at DEBUG unless they
did something, so an operator's terminal shows what matters."""

import logging

from celery import shared_task
from django.utils import timezone

from rooms import sweeper
from rooms.core import outbox
from rooms.core.errors import RoomError
from rooms.live import standings_feed
from rooms.pools import actions as pools
from rooms.quick import actions as quick
from rooms.race import cpu_seats

logger = logging.getLogger(__name__)


@shared_task(ignore_result=True)
@outbox.sent_after()  # its events and standings, after commit
def cpu_step(code: str, seat_id: int, step: int) -> None:
    """One CPU step; safe to deliver twice (see cpu_seats.cpu_act)."""
    try:
        cpu_seats.cpu_act(None, code, seat_id, step)
    except RoomError as refused:  # the race ended, the board changed: stop here
        logger.info("cpu step %s/%s/%s stopped: %s", code, seat_id, step, refused.message)


@shared_task(ignore_result=True)
def send_standings(code: str) -> None:
    """A room's standings changed in a task or a view while another process held the
    room's window: sent now that it ended, or counted down again (rooms/live/standings_feed.py)."""
    standings_feed.send_due(code)


@shared_task(ignore_result=True)
@outbox.sent_after()
def sweep() -> None:
    done = sweeper.sweep()
    if any(done.values()):
        logger.info("sweep: %s", done)


@shared_task(ignore_result=True)
@outbox.sent_after()
def start_quick_race(code: str) -> None:
    """A quick race's wait is over (queued when its room opened; the sweeper also starts
    it if this task was lost). Safe to deliver twice: only a waiting room starts."""
    # One clock reading for both: read twice, a task a millisecond early found the room
    # not due, then no time left, and left the start to the sweeper (seconds later).
    now = timezone.now()
    if quick.start_if_due(code, now=now) is None and (left := quick.seconds_left(code, now)) > 0:
        start_quick_race.apply_async((code,), countdown=left)  # delivered early: wait on


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
