"""Practice boards count clean wins (docs/RULES.md §Records and boards): a win with a
hint, or of a deal the player had opened before, is practice — in their history, marked,
never on a board or a record. Statistics still count every game."""

import pytest
from django.test import Client

from accounts.identity import COOKIE_NAME, signed_token
from practice.models import SoloGame
from records import leaderboards, statistics
from tests.practice.practice_helpers import BEGINNER_CODE, Device, win

pytestmark = pytest.mark.django_db


def board_codes(layout_number=1):
    boards = {board.title: board.rows for board in leaderboards.practice_boards()}
    return [(g.code, g.hints_used) for rows in boards.values() for g in rows]


def test_a_replayed_deal_is_practice_and_says_why(device):
    device.open(BEGINNER_CODE)
    first = win(device)
    assert first["result"]["clean"] and first["result"]["rank_text"] == "your best!"
    device.state = device.post("new", code=BEGINNER_CODE)[1]  # the same deal again
    again = win(device)
    result = again["result"]
    assert not result["clean"] and not result["record"] and result["rank"] is None
    assert "seen this deal before" in result["rank_text"]
    game = SoloGame.objects.get(pk=again["id"])
    assert game.seen_before
    player = game.player
    assert [g.pk for g in statistics.leaderboard(player)] == [first["id"]]
    assert statistics.statistics(player)[0].wins == 2  # every game still counts


def test_a_hinted_win_is_off_the_boards_and_in_the_history_marked(device, client):
    device.open(BEGINNER_CODE)
    hinted = win(device, hints=1)
    result = hinted["result"]
    assert result["hints_used"] == 1 and not result["clean"] and not result["record"]
    assert "hints used" in result["rank_text"]
    assert board_codes() == []
    game = SoloGame.objects.get(pk=hinted["id"])
    assert statistics.leaderboard(game.player) == []
    assert statistics.statistics(game.player)[0].best_ms is None  # no record
    client.cookies[COOKIE_NAME] = signed_token(game.player.device_token)
    history = client.get("/records/").content.decode()
    assert f"/replays/game/{game.pk}/" in history and "practice: hints used" in history


def test_a_clean_first_win_is_on_the_board(device):
    device.open(BEGINNER_CODE)
    clean = win(device)
    assert clean["result"]["record"]
    assert board_codes() == [(BEGINNER_CODE, 0)]


def test_a_deal_raced_before_is_practice_when_played_alone(client):
    from rooms.race import actions as races
    from tests.rooms.rooms_helpers import room_with

    room, (ana, _bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code)
    raced = race.entries.get(seat__player=ana).code
    client.cookies[COOKIE_NAME] = signed_token(ana.device_token)
    device = Device(client)
    device.open(raced)
    result = win(device)["result"]
    assert not result["clean"] and "seen this deal before" in result["rank_text"]
    assert SoloGame.objects.get(player=ana, code=raced).seen_before
    stranger = Device(Client())  # someone who never raced it: a first sight
    stranger.open(raced)
    assert win(stranger)["result"]["clean"]
