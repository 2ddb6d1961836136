"""A practice game played while the connection was down (docs/PRACTICE.md §Offline): its
pairs waited on the page and arrive in a burst, each with how long it waited
(`queued_ms`). They are stored in order and timed when they were played; a wait longer
than PRACTICE_OFFLINE_AFTER_MS marks the game "played offline", and such a game is on
no table (leaderboards, records, today's table), since its pace was not refereed."""

import datetime

import pytest
from django.test import Client
from django.utils import timezone
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from mahjong import daily as daily_codes
from practice import actions, daily
from practice.models import SoloGame
from tests.practice.practice_helpers import BEGINNER_CODE, Device, plan_of
from tests.practice.test_practice_pace import on_the_tables

pytestmark = pytest.mark.django_db

OFFLINE_MS = 60_000  # a minute without a connection


def open_ten_minutes_ago(device, code):
    """The device's game of `code`, started (and running) ten minutes ago: the pairs that
    waited on the page were played after its start."""
    device.open(code)
    ten_minutes_ago = timezone.now() - datetime.timedelta(minutes=10)
    SoloGame.objects.filter(pk=device.state["id"]).update(
        started_at=ten_minutes_ago, running_since=ten_minutes_ago
    )


def send_queued(device, pairs, waits_ms):
    """The page's queue sending its kept pairs at once, each saying how long it waited."""
    answers = []
    for (i, j), wait in zip(pairs, waits_ms, strict=True):
        n = len(device.state["removed"])
        status, answer = device.post(
            "move", game=device.state["id"], tiles=[i, j], n=n, queued_ms=wait
        )
        assert status == 200, answer
        device.state = answer
        answers.append(answer)
    return answers


def test_pairs_that_waited_a_minute_offline_are_stored_in_order_and_mark_the_game(device):
    open_ten_minutes_ago(device, BEGINNER_CODE)
    plan = plan_of(BEGINNER_CODE)
    # Five pairs played a few seconds apart while offline, sent in one burst.
    waits = [OFFLINE_MS - 4000 * k for k in range(5)]
    send_queued(device, plan[:5], waits)
    game = SoloGame.objects.get(pk=device.state["id"])
    assert game.moves == [sorted(pair) for pair in plan[:5]]
    assert game.played_offline and device.state["played_offline"]
    # Timed when they were played: 4 s apart on the game clock, not the burst's ms.
    gaps = [b - a for a, b in zip(game.move_ms, game.move_ms[1:], strict=False)]
    assert all(3900 <= gap <= 4200 for gap in gaps), gaps


def test_a_short_wait_on_the_page_does_not_mark_the_game(device):
    open_ten_minutes_ago(device, BEGINNER_CODE)
    send_queued(device, plan_of(BEGINNER_CODE)[:3], [900, 400, 0])
    assert not SoloGame.objects.get(pk=device.state["id"]).played_offline
    assert device.state["played_offline"] is False


def test_a_burst_of_kept_pairs_is_not_refused_too_fast(device, settings):
    settings.PAIR_FLOOR_MS = 250
    open_ten_minutes_ago(device, BEGINNER_CODE)
    waits = [30_000, 29_000, 28_000, 27_000]  # a second apart when played
    answers = send_queued(device, plan_of(BEGINNER_CODE)[:4], waits)
    assert len(answers[-1]["removed"]) == 4


def test_a_win_played_offline_is_on_no_table_and_says_why(device):
    open_ten_minutes_ago(device, daily_codes.daily_code(daily_codes.today()))
    plan = plan_of(device.state["code"])
    waits = [OFFLINE_MS + 1000 * (len(plan) - k) for k in range(len(plan))]
    state = send_queued(device, plan, waits)[-1]
    assert state["status"] == "won" and state["played_offline"]
    game = SoloGame.objects.get(pk=state["id"])
    assert on_the_tables(game) == {"leaderboards": False, "records": False, "daily": False}
    result = state["result"]
    assert not result["clean"] and not result["record"] and result["rank"] is None
    assert "played offline" in result["rank_text"]


def test_the_same_win_played_online_is_on_every_table(device):
    open_ten_minutes_ago(device, daily_codes.daily_code(daily_codes.today()))
    plan = plan_of(device.state["code"])
    state = send_queued(device, plan, [0] * len(plan))[-1]
    game = SoloGame.objects.get(pk=state["id"])
    assert on_the_tables(game) == {"leaderboards": True, "records": True, "daily": True}


def test_an_offline_first_win_of_the_day_does_not_promote_a_later_one(device):
    open_ten_minutes_ago(device, daily_codes.daily_code(daily_codes.today()))
    plan = plan_of(device.state["code"])
    offline = SoloGame.objects.get(
        pk=send_queued(device, plan, [OFFLINE_MS] + [0] * (len(plan) - 1))[-1]["id"]
    )
    later = SoloGame.objects.create(
        player=offline.player,
        code=offline.code,
        layout_number=offline.layout_number,
        tile_count=offline.tile_count,
        status=SoloGame.Status.WON,
        time_ms=90_000,
        started_at=offline.started_at + datetime.timedelta(minutes=5),
    )
    assert later not in daily.daily_board(daily_codes.today())


@pytest.mark.parametrize("wait", [-1, "5", 1.5, True, actions.MAX_QUEUED_MS + 1])
def test_a_bad_wait_is_refused_with_its_reason_and_changes_nothing(device, wait):
    open_ten_minutes_ago(device, BEGINNER_CODE)
    i, j = plan_of(BEGINNER_CODE)[0]
    status, answer = device.post("move", game=device.state["id"], tiles=[i, j], n=0, queued_ms=wait)
    assert status == 400 and answer["code"] == "refused" and answer["error"]
    game = SoloGame.objects.get(pk=device.state["id"])
    assert game.moves == [] and not game.played_offline


def test_a_pair_sent_again_after_a_lost_answer_is_stored_once(device):
    open_ten_minutes_ago(device, BEGINNER_CODE)
    (i, j) = plan_of(BEGINNER_CODE)[0]
    send_queued(device, [(i, j)], [OFFLINE_MS])
    status, answer = device.post("move", game=device.state["id"], tiles=[i, j], n=0, queued_ms=0)
    assert status == 200 and answer["removed"] == [sorted([i, j])]


@hypothesis_settings(max_examples=25, deadline=None)
@given(waits=st.lists(st.integers(0, 120_000), min_size=6, max_size=6))
def test_whatever_the_waits_the_pairs_are_stored_in_order_on_a_clock_that_never_goes_back(waits):
    device = Device(Client())  # a new device for each example
    open_ten_minutes_ago(device, BEGINNER_CODE)
    plan = plan_of(BEGINNER_CODE)[:6]
    send_queued(device, plan, waits)
    game = SoloGame.objects.get(pk=device.state["id"])
    assert game.moves == [sorted(pair) for pair in plan]
    assert game.move_ms == sorted(game.move_ms)
    assert game.played_offline == any(wait > 10_000 for wait in waits)
