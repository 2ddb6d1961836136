"""Arena work off the request path (Celery): the clock and pairing tick, the scheduled
arenas. Each only calls the owning module; quiet unless it did something."""

import logging

from celery import shared_task
from django.core.cache import cache

from arenas import pairing, schedule
from arenas.models import Arena
from rooms.core import outbox

logger = logging.getLogger(__name__)


@shared_task(ignore_result=True)
@outbox.sent_after()  # the new races' events, after commit
def tick() -> None:
    done = pairing.tick()
    if any(done.values()):
        logger.info("arenas: %s", done)


# A player who says ready is paired this soon, not at the next tick; the ready players of
# that moment are paired in one pass (a race's end readies up to 20 at once).
PAIR_SOON_SECONDS = 0.5


def pair_soon(code: str) -> None:
    """Ask the worker for a pairing pass of the arena in PAIR_SOON_SECONDS, unless one is
    asked already: a pass seats players in new races (rooms dealt, boards made), work
    that kept a web process's pairs waiting when it ran there (docs/PERFORMANCE.md)."""
    if cache.add(f"arena-pair-soon:{code}", 1, timeout=PAIR_SOON_SECONDS):
        pair_now.apply_async((code,), countdown=PAIR_SOON_SECONDS)


@shared_task(ignore_result=True)
@outbox.sent_after()  # the new races' events, after commit
def pair_now(code: str) -> None:
    arena = Arena.objects.filter(code=code).first()
    if arena is not None:
        pairing.pair_arena(arena)


@shared_task(ignore_result=True)
def create_scheduled() -> None:
    made = schedule.create_due()
    if made:
        logger.info("scheduled arenas created: %s", [a.code for a in made])
