"""Deal pools: graded deals ready per level, taken in one query, refilled by the worker."""

import logging
import random
import threading
import time

import pytest
from django.db import connection

from mahjong import rules
from mahjong.engine.codes import parse_code
from mahjong.engine.deal import deal_from_code
from rooms.lobby import actions as lobby
from rooms.models import PooledDeal
from rooms.pools import actions as pools
from rooms.race import actions as races
from tests.rooms.rooms_helpers import room_with


@pytest.fixture(autouse=True)
def small_pools(settings):
    settings.DEAL_POOL_SIZE = 2


def test_a_race_takes_its_deal_from_the_pool(db):
    pools.refill("easy", False)
    pooled = list(PooledDeal.objects.order_by("id").values_list("code", flat=True))
    room, (ana,) = room_with("Ana")
    race = races.start_race(ana, room.code)
    assert race.entries.get().code == pooled[0]
    assert list(PooledDeal.objects.values_list("code", flat=True)) == pooled[1:]


def test_an_empty_pool_deals_inline_and_says_so(db, caplog):
    with caplog.at_level(logging.WARNING, logger="rooms.pools.actions"):
        code = pools.take("medium", True)
    assert parse_code(code)[0] == 13  # medium with flowers
    assert deal_from_code(code).plan
    assert "deal pool medium/True is empty" in caplog.text


def test_pooled_deals_fall_in_their_levels_band(db):
    rng = random.Random(7)
    for level in ("beginner", "easy"):
        low, high = rules.GRADE_BANDS[level]
        scores = [pools.graded_deal(level, False, rng).score for _ in range(4)]
        assert sum(low <= s <= high for s in scores) >= 3, scores


def test_refill_tops_up_to_the_pool_size_and_no_more(db):
    assert pools.refill("beginner", False) == 2
    assert pools.refill("beginner", False) == 0
    assert PooledDeal.objects.filter(level="beginner", flowers=False).count() == 2


def test_refills_running_at_once_never_overfill_a_pool(transactional_db):
    # Two workers (or a worker and the scheduler's sweep) may top up one pool together.
    start = threading.Barrier(3)
    added = []

    def refill():
        try:
            start.wait()
            added.append(pools.refill("beginner", False))
        finally:
            connection.close()

    threads = [threading.Thread(target=refill) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert PooledDeal.objects.filter(level="beginner", flowers=False).count() == 2
    assert sum(added) == 2


def test_the_worker_refills_a_pool_after_a_race_takes_from_it(celery_worker):
    pools.refill("beginner", False)
    room, (ana,) = room_with("Ana")
    lobby.update_rules(ana, room.code, {"level": "beginner"})
    races.start_race(ana, room.code)
    deadline = time.monotonic() + 30
    count = lambda: PooledDeal.objects.filter(level="beginner", flowers=False).count()  # noqa: E731
    while count() < 2:
        assert time.monotonic() < deadline, "the pool was not refilled"
        time.sleep(0.1)
    assert count() == 2
