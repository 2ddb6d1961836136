"""Solo practice on the server: the referee, the clock, undo, hints, records (docs/RULES.md
§Playing a board, §Solo play, §Records and boards)."""

import pytest

from accounts.identity import COOKIE_NAME
from practice.models import SoloGame
from tests.practice.practice_helpers import (
    BEGINNER_CODE,
    TURTLE_CODE,
    Device,
    blocked_pair,
    plan_of,
    unmatched_free_pair,
    win,
)

pytestmark = pytest.mark.django_db


def test_a_new_visitor_gets_a_device_cookie_and_an_easy_game(device):
    response = device.open()
    assert response.status_code == 200
    cookie = response.cookies[COOKIE_NAME]
    assert cookie["httponly"] and cookie["max-age"] > 365 * 24 * 3600
    assert device.state["layout"]["label"] == "Easy"
    assert len(device.state["tiles"]) == 68


def test_the_page_never_carries_the_winning_plan(device):
    response = device.open(BEGINNER_CODE)
    assert "plan" not in device.state
    assert b'"plan"' not in response.content


def test_a_legal_pair_is_stored_before_it_is_acknowledged(device):
    device.open(BEGINNER_CODE)
    i, j = plan_of(BEGINNER_CODE)[0]
    status, state = device.move(i, j)
    assert status == 200
    assert state["removed"] == [sorted([i, j])]
    assert SoloGame.objects.get(pk=state["id"]).moves == [sorted([i, j])]


def test_it_refuses_a_blocked_tile_with_the_reason_and_changes_nothing(device):
    device.open(BEGINNER_CODE)
    free, blocked = blocked_pair(BEGINNER_CODE)
    status, answer = device.move(free, blocked)
    assert status == 400
    assert f"tile {blocked} is not free" in answer["error"]
    assert answer["state"]["removed"] == []
    assert SoloGame.objects.get(pk=device.state["id"]).moves == []


def test_it_refuses_tiles_that_do_not_match(device):
    device.open(BEGINNER_CODE)
    i, k = unmatched_free_pair(BEGINNER_CODE)
    status, answer = device.move(i, k)
    assert status == 400 and "does not match" in answer["error"]


def test_a_repeated_move_is_acknowledged_once(device):
    device.open(BEGINNER_CODE)
    i, j = plan_of(BEGINNER_CODE)[0]
    device.move(i, j, n=0)
    status, state = device.move(i, j, n=0)
    assert status == 200 and state["removed"] == [sorted([i, j])]


def test_a_move_with_a_stale_number_is_refused(device):
    device.open(BEGINNER_CODE)
    (a, b), (c, d) = plan_of(BEGINNER_CODE)[:2]
    device.move(a, b, n=0)
    status, answer = device.move(c, d, n=0)
    assert status == 400 and "out of date" in answer["error"]
    assert len(answer["state"]["removed"]) == 1


@pytest.mark.parametrize(
    "body, error",
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"game": 1, "tiles": [1], "n": 0}', "the two tiles"),
        ('{"game": 1, "tiles": ["a", "b"], "n": 0}', "whole number"),
        ('{"game": "x", "tiles": [1, 2], "n": 0}', "whole number"),
        ('{"game": 999999, "tiles": [1, 2], "n": 0}', "no such game"),
    ],
)
def test_malformed_requests_get_a_clear_error(device, body, error):
    device.open(BEGINNER_CODE)
    response = device.client.post("/play/api/move", body, content_type="application/json")
    assert response.status_code == 400
    assert error in response.json()["error"]
    assert SoloGame.objects.get(pk=device.state["id"]).moves == []


def test_a_tile_index_outside_the_deal_is_refused(device):
    device.open(BEGINNER_CODE)
    status, answer = device.move(0, 500)
    assert status == 400 and "no tile 500" in answer["error"]


def test_another_device_cannot_play_my_game(device, client, django_user_model):
    from django.test import Client

    device.open(BEGINNER_CODE)
    stranger = Device(Client())
    stranger.open()
    i, j = plan_of(BEGINNER_CODE)[0]
    status, answer = stranger.move(i, j, n=0, game=device.state["id"])
    assert status == 400 and "no such game" in answer["error"]


def test_a_forged_device_cookie_is_ignored(client):
    client.cookies[COOKIE_NAME] = "forged:token"
    response = client.get("/play/")
    assert response.cookies[COOKIE_NAME].value != "forged:token"


def test_undo_puts_back_the_last_pair(device):
    device.open(BEGINNER_CODE)
    (a, b), (c, d) = plan_of(BEGINNER_CODE)[:2]
    device.move(a, b)
    device.move(c, d)
    status, state = device.post("undo", game=device.state["id"], n=2)
    assert status == 200 and state["removed"] == [sorted([a, b])]
    status, answer = device.post("undo", game=device.state["id"], n=2)
    assert status == 400 and "out of date" in answer["error"]


def test_undo_with_nothing_removed_is_refused(device):
    device.open(BEGINNER_CODE)
    status, answer = device.post("undo", game=device.state["id"], n=0)
    assert status == 400 and answer["error"] == "nothing to undo"


def test_a_hint_gives_a_pair_that_keeps_a_winning_line_and_is_counted(device):
    from mahjong.engine.deal import deal_from_code
    from mahjong.engine.solver import Solver

    device.open(TURTLE_CODE)
    status, answer = device.post("hint", game=device.state["id"])
    assert status == 200 and answer["winning"]
    assert answer["state"]["hints_used"] == 1
    i, j = answer["pair"]
    deal = deal_from_code(TURTLE_CODE)
    after = deal.start().remove(i, j)
    assert Solver(deal.layout, deal.faces).solve(after.alive).solvable


def test_pause_stops_the_clock_and_refuses_moves(device):
    device.open(BEGINNER_CODE)
    status, state = device.post("pause", game=device.state["id"])
    assert status == 200 and state["paused"]
    frozen = state["clock_ms"]
    i, j = plan_of(BEGINNER_CODE)[0]
    status, answer = device.move(i, j)
    assert status == 400 and answer["error"] == "the game is paused"
    game = SoloGame.objects.get(pk=state["id"])
    assert game.clock_ms() == frozen
    status, state = device.post("resume", game=state["id"])
    assert status == 200 and not state["paused"]


def test_a_late_pause_from_a_page_since_left_does_not_pause_the_newer_page(device):
    """docs/PRACTICE.md §The server is the referee: a reload's pause (sent by the page
    being left) may reach the server after the new page was served; it is ignored."""
    device.open(BEGINNER_CODE)
    old_page = device.state["page"]
    device.open(BEGINNER_CODE)  # the reload, served before the old page's pause arrives
    assert device.state["page"] != old_page
    status, state = device.post("pause", game=device.state["id"], page=old_page)
    assert status == 200 and not state["paused"]
    i, j = plan_of(BEGINNER_CODE)[0]
    status, state = device.move(i, j)
    assert status == 200 and state["removed"] == [sorted([i, j])]
    status, state = device.post("pause", game=state["id"], page=device.state["page"])
    assert status == 200 and state["paused"]  # the page on the screen still pauses


def test_a_refusal_carries_a_code_the_page_words_for_itself(device):
    device.open(BEGINNER_CODE)
    device.post("pause", game=device.state["id"])
    i, j = plan_of(BEGINNER_CODE)[0]
    status, answer = device.move(i, j)
    assert status == 400 and answer["code"] == "paused"
    status, answer = device.move(i, j, n=5)
    assert status == 400 and answer["code"] == "stale"


def test_reopening_the_page_restores_the_game(device):
    device.open(BEGINNER_CODE)
    i, j = plan_of(BEGINNER_CODE)[0]
    device.move(i, j)
    device.open()
    assert device.state["code"] == BEGINNER_CODE
    assert device.state["removed"] == [sorted([i, j])]


def test_a_malformed_code_gets_a_clear_message(device):
    response = device.open("MJ1-L00-AAAA")
    assert response.status_code == 400
    assert "This link doesn&#x27;t open a game" in response.content.decode()


def test_an_unknown_layout_number_is_refused_by_the_api(device):
    device.open()
    status, answer = device.post("new", code="MJ1-L99-AAAAAAA")
    assert status == 400 and "unknown layout" in answer["error"]


def test_new_game_by_level_with_flowers(device):
    device.open()
    status, state = device.post("new", level="beginner", flowers=True)
    assert status == 200 and len(state["tiles"]) == 42
    status, state = device.post("new", level="hard", flowers=True)
    assert status == 200 and state["code"].startswith("MJ1-L00-")


def test_a_win_records_the_time_and_a_personal_record(device):
    device.open(BEGINNER_CODE)
    for i, j in plan_of(BEGINNER_CODE):
        status, state = device.move(i, j)
        assert status == 200
    assert state["status"] == "won" and state["progress"] == 100
    assert state["result"]["record"] and state["result"]["previous_best_ms"] is None
    page = device.client.get("/records/").content.decode()
    assert BEGINNER_CODE in page and "Beginner" in page


def test_a_second_slower_win_is_not_a_record(device):
    device.open(BEGINNER_CODE)
    win(device)
    device.state = device.post("new", code=BEGINNER_CODE)[1]
    SoloGame.objects.filter(pk=device.state["id"]).update(elapsed_ms=3_600_000)
    state = win(device)
    assert state["result"]["record"] is False
    assert state["result"]["previous_best_ms"] < state["result"]["time_ms"]
