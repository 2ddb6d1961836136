"""Arena work off the request path (Celery): the clock and pairing tick, the scheduled
arenas. Each only calls the owning module; quiet unless it did something."""

import logging

from celery import shared_task

from arenas import pairing, schedule
from rooms.core import outbox

logger = logging.getLogger(__name__)


@shared_task(ignore_result=True)
@outbox.sent_after()  # the new races' events, after commit
def tick() -> None:
    done = pairing.tick()
    if any(done.values()):
        logger.info("arenas: %s", done)


@shared_task(ignore_result=True)
def create_scheduled() -> None:
    made = schedule.create_due()
    if made:
        logger.info("scheduled arenas created: %s", [a.code for a in made])
