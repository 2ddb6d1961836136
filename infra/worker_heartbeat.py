"""Each worker of the `celery` queue (the queue of CPU steps) says it is alive.

A bootstep of the worker (registered in config/celery.py) writes a key every
`HEARTBEAT_SECONDS` from the worker's own timer, which lives 3 heartbeats: the key exists
while at least one such worker runs, with no scheduler needed. The room's snapshot reads
it (`cpus_paused`, docs/PROTOCOL.md); a pool-only worker (`-Q pools`) does not write it,
as it runs no CPU step. Imports nothing of Django at import time: the Celery app loads it.
"""

import logging
import time

import redis
from celery import bootsteps

KEY = "mahjong:worker-heartbeat"
QUEUE = "celery"
LIVES = 3  # heartbeats

logger = logging.getLogger(__name__)


def client() -> redis.Redis:
    from django.conf import settings

    from infra import redis_links

    return redis_links.client(settings.REDIS_URL)


def beat() -> None:
    from django.conf import settings

    try:
        client().set(KEY, f"{time.time():.3f}", ex=LIVES * settings.HEARTBEAT_SECONDS)
    except redis.RedisError as error:  # the worker goes on; the key just ages out
        logger.warning("worker heartbeat not written: %s", error)


def alive() -> bool:
    """A worker of the `celery` queue beat lately; False when Redis does not answer
    (no step can be queued then either)."""
    try:
        return bool(client().exists(KEY))
    except redis.RedisError:
        return False


class WorkerHeartbeat(bootsteps.StartStopStep):
    requires = {"celery.worker.components:Timer"}

    def __init__(self, worker, **kwargs):
        super().__init__(worker, **kwargs)
        self.tref = None

    def start(self, worker):
        from django.conf import settings

        consumed = worker.app.amqp.queues.consume_from  # None: every queue (-Q unset)
        if consumed is not None and QUEUE not in consumed:
            return
        beat()
        self.tref = worker.timer.call_repeatedly(settings.HEARTBEAT_SECONDS, beat)

    def stop(self, worker):
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None
