"""The pace rules in solo practice, as in races (docs/RULES.md §Fair play): a pair sooner
than PAIR_FLOOR_MS after the board's previous one is refused `too_fast` and changes
nothing; a win at a pace no honest human plays is flagged and kept off every table until
an admin clears it."""

import datetime

import pytest
from django.db.models import F
from django.utils import timezone

from accounts.models import Player
from mahjong import daily as daily_codes
from practice import daily
from practice.models import SoloGame
from records import leaderboards, statistics
from tests.practice.practice_helpers import BEGINNER_CODE, plan_of

pytestmark = pytest.mark.django_db

SCRIPT_MS = 300  # a pair every 0.3 s, on the dot: above the floor, and no hand's pace


@pytest.fixture
def pair_floor(settings):
    settings.PAIR_FLOOR_MS = 250
    return settings


@pytest.fixture
def pace_flags(settings):
    settings.PRACTICE_PACE_FLAGS = True


def back_date_last_pair(game_id, ms):
    SoloGame.objects.filter(pk=game_id).update(
        last_pair_at=F("last_pair_at") - datetime.timedelta(milliseconds=ms)
    )


def test_a_pair_50ms_after_the_last_is_refused_too_fast_and_changes_nothing(device, pair_floor):
    device.open(BEGINNER_CODE)
    (a, b), (c, d) = plan_of(BEGINNER_CODE)[:2]
    assert device.move(a, b)[0] == 200
    fifty_ms_ago = timezone.now() - datetime.timedelta(milliseconds=50)
    SoloGame.objects.filter(pk=device.state["id"]).update(last_pair_at=fifty_ms_ago)
    before = SoloGame.objects.get(pk=device.state["id"])
    status, answer = device.move(c, d)
    assert status == 400 and answer["code"] == "too_fast"
    assert answer["state"]["removed"] == [sorted([a, b])]
    after = SoloGame.objects.get(pk=device.state["id"])
    assert (after.moves, after.move_ms, after.last_pair_at) == (
        before.moves,
        before.move_ms,
        before.last_pair_at,
    )


def test_a_pair_at_the_floor_after_the_last_is_accepted(device, pair_floor):
    device.open(BEGINNER_CODE)
    for n, (i, j) in enumerate(plan_of(BEGINNER_CODE)[:4]):
        if n:
            back_date_last_pair(device.state["id"], 250)
        status, answer = device.move(i, j)
        assert status == 200, answer


def win_at_pace(device, gaps_ms) -> SoloGame:
    """The device's game won by its plan, its pairs' clock times spaced by `gaps_ms` (the
    game clock the flag reads, as a script or a person would have made them)."""
    plan = plan_of(device.state["code"])
    for i, j in plan[:-1]:
        assert device.move(i, j)[0] == 200
    game = SoloGame.objects.get(pk=device.state["id"])
    times = [1000]
    for gap in gaps_ms[: len(plan) - 2]:
        times.append(times[-1] + gap)
    SoloGame.objects.filter(pk=game.pk).update(move_ms=times)
    status, state = device.move(*plan[-1])
    assert status == 200 and state["status"] == "won"
    return SoloGame.objects.get(pk=game.pk)


def on_the_tables(game: SoloGame) -> dict:
    boards = leaderboards.practice_boards()
    today = game.started_at.astimezone(datetime.UTC).date()
    return {
        "leaderboards": any(game in board.rows for board in boards),
        "records": game in statistics.leaderboard(game.player),
        "daily": game in daily.daily_board(today),
    }


def test_a_win_at_a_scripts_pace_is_flagged_and_on_no_table(device, pace_flags):
    device.open(daily_codes.daily_code(daily_codes.today()))
    game = win_at_pace(device, [SCRIPT_MS] * 40)
    assert game.pace_flagged and game.pace_median_ms == SCRIPT_MS
    assert on_the_tables(game) == {"leaderboards": False, "records": False, "daily": False}
    result = device.state["result"]
    assert not result["record"] and result["rank"] is None


def test_a_win_at_a_human_pace_is_not_flagged(device, pace_flags):
    device.open(BEGINNER_CODE)
    game = win_at_pace(device, [900, 2400, 1300, 4100, 700, 1800, 3000, 1100] * 5)
    assert not game.pace_flagged
    assert on_the_tables(game)["leaderboards"] and on_the_tables(game)["records"]


def test_a_flag_cleared_in_the_admin_puts_the_win_on_every_table(device, pace_flags, admin_client):
    device.open(daily_codes.daily_code(daily_codes.today()))
    game = win_at_pace(device, [SCRIPT_MS] * 40)
    response = admin_client.post(
        "/admin/practice/sologame/",
        {"action": "clear_pace_flag", "_selected_action": [game.pk]},
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert not game.pace_flagged
    assert on_the_tables(game) == {"leaderboards": True, "records": True, "daily": True}


def test_a_flagged_first_win_of_the_day_does_not_promote_a_later_one(pace_flags, device):
    device.open(daily_codes.daily_code(daily_codes.today()))
    flagged = win_at_pace(device, [SCRIPT_MS] * 40)
    later = SoloGame.objects.create(
        player=Player.objects.get(pk=flagged.player_id),
        code=flagged.code,
        layout_number=flagged.layout_number,
        tile_count=flagged.tile_count,
        status=SoloGame.Status.WON,
        time_ms=90_000,
        started_at=flagged.started_at + datetime.timedelta(minutes=5),
    )
    assert later not in daily.daily_board(daily_codes.today())
