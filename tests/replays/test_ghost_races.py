"""Ghost races (docs/RULES.md §Ghost races): a finished board of a replay raced again on
its deal, the ghost's pairs played back in the browser (practice/static/practice/ghost.js)
from the times the replay has; never a record."""

import json
import shutil
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from accounts.identity import COOKIE_NAME, signed_token
from accounts.models import Player
from mahjong import daily
from practice.daily import daily_board
from practice.models import SoloGame
from records import leaderboards
from rooms.models import Entry
from rooms.race import actions as races
from tests.practice.practice_helpers import Device, win
from tests.replays.test_replays import a_finished_race
from tests.rooms.rooms_helpers import room_with

pytestmark = pytest.mark.django_db
NODE = shutil.which("node")
CLI = Path(__file__).resolve().parent.parent / "js" / "ghost_cli.mjs"


def ghost_in(response) -> dict:
    assert response.status_code == 200, response.content.decode()[:500]
    return response.context["ghost"]


def js_ghost(ghost: dict, at: list[int]) -> list[dict]:
    payload = json.dumps({"ghost": ghost, "at": at})
    done = subprocess.run(
        [NODE, str(CLI)], input=payload, capture_output=True, text=True, check=True, timeout=60
    )
    return json.loads(done.stdout)


def replay_progress(board: dict, tiles: int, ms: int) -> int:
    """The replay's own count at `ms`: its pair events up to then (replays/replay.js)."""
    pairs = sum(1 for event in board["events"] if event[1] == "pair" and event[0] <= ms)
    return pairs * 200 // tiles


# --- a race's seat -------------------------------------------------------------------------
def test_the_ghosts_progress_equals_the_replays_at_every_checkpoint(client):
    race = a_finished_race()
    bo = race.entries.get(seat__nickname="Bo")
    replay = client.get(f"/replays/race/{race.pk}.json").json()
    board = next(p for p in replay["players"] if p["seat"] == bo.seat_id)
    tiles = len(replay["deals"][board["code"]]["faces"])
    ghost = ghost_in(client.get(f"/replays/race/{race.pk}/ghost/{bo.seat_id}/"))
    assert ghost["nickname"] == "Bo" and ghost["finished_ms"] == bo.finished_ms
    # Each pair's moment, a millisecond before it, and moments between and after.
    at = sorted({0, *(t + d for t in ghost["pair_ms"] for d in (-1, 0, 1)), bo.finished_ms + 5000})
    seen = js_ghost(ghost, at)
    assert [s["progress"] for s in seen] == [replay_progress(board, tiles, ms) for ms in at]
    assert [s["done"] for s in seen] == [ms >= bo.finished_ms for ms in at]
    assert seen[-1]["progress"] == 100


def test_racing_a_seat_gives_the_same_deal_as_a_practice_game_marked_ghost(client):
    race = a_finished_race()
    bo = race.entries.get(seat__nickname="Bo")
    response = client.get(f"/replays/race/{race.pk}/ghost/{bo.seat_id}/")
    ghost_in(response)
    game = SoloGame.objects.get()
    assert game.code == bo.code and game.ghost and game.seen_before
    page = response.content.decode()
    assert 'id="ghost-race"' in page and 'id="ghost-data"' in page


def test_the_replay_offers_every_finished_board_as_a_ghost_and_no_other(client):
    race = a_finished_race()  # Bo cleared the board, Ana gave up, the CPU still played
    page = client.get(f"/replays/race/{race.pk}/").content.decode()
    bo = race.entries.get(seat__nickname="Bo")
    ana = race.entries.get(seat__nickname="Ana")
    assert f"/replays/race/{race.pk}/ghost/{bo.seat_id}/" in page
    assert "Race Bo&#x27;s ghost" in page
    assert f"/ghost/{ana.seat_id}/" not in page


# --- a practice game, the win dialog -----------------------------------------------------
def test_a_won_practice_game_is_raced_as_a_ghost_and_the_win_is_no_record(client):
    ana = Device(client)
    ana.open("MJ1-L01-AAAASGV")
    won = win(ana)
    assert won["result"]["record"]  # her own first win: a record
    first = SoloGame.objects.get(pk=won["id"])
    ghost = ghost_in(client.get(f"/replays/game/{first.pk}/ghost/"))
    assert ghost["pair_ms"] == first.move_ms and ghost["finished_ms"] == first.time_ms
    ana.state = client.get("/play/").context["state"]
    assert ana.state["ghost"] and ana.state["code"] == first.code
    again = win(ana)
    result = again["result"]
    assert not result["record"] and not result["clean"]
    assert "ghost race" in result["rank_text"]
    boards = leaderboards.practice_boards()
    on_boards = [row.pk for board in boards for row in board.rows]
    assert first.pk in on_boards and again["id"] not in on_boards


def test_your_own_ghost_is_yours_and_anothers_is_named(client):
    from django.test import Client

    ana = Device(client)
    ana.open("MJ1-L01-AAAASGV")
    first = SoloGame.objects.get(pk=win(ana)["id"])
    mine = ghost_in(client.get(f"/replays/game/{first.pk}/ghost/"))
    assert mine["own"] is True and "owner_id" not in mine
    someone_else = ghost_in(Client().get(f"/replays/game/{first.pk}/ghost/"))
    assert someone_else["own"] is False and "owner_id" not in someone_else
    spanish = client.get(f"/replays/game/{first.pk}/ghost/", HTTP_ACCEPT_LANGUAGE="es")
    strings = spanish.context["page_strings"]
    assert strings["ghost_row_own"] == "Tu fantasma, mejor {time}"
    assert strings["ghost_beaten_own"] == "Le ganaste a tu fantasma por {s} s"
    assert strings["ghost_faster_own"] == "Tu fantasma fue {s} s más rápido"


def test_your_own_race_board_is_your_ghost_too(client):
    race = a_finished_race()
    bo = race.entries.get(seat__nickname="Bo")
    client.cookies[COOKIE_NAME] = signed_token(bo.seat.player.device_token)
    assert ghost_in(client.get(f"/replays/race/{race.pk}/ghost/{bo.seat_id}/"))["own"] is True


def test_the_replay_offers_you_your_own_ghost_in_the_second_person(client):
    race = a_finished_race()
    bo = race.entries.get(seat__nickname="Bo")
    client.cookies[COOKIE_NAME] = signed_token(bo.seat.player.device_token)
    page = client.get(f"/replays/race/{race.pk}/").content.decode()
    assert "Race your ghost" in page and "Race Bo&#x27;s ghost" not in page
    spanish = client.get(f"/replays/race/{race.pk}/", HTTP_ACCEPT_LANGUAGE="es")
    assert "Correr contra tu fantasma" in spanish.content.decode()
    ana = Device(client)
    ana.open("MJ1-L01-AAAASGV")
    game = SoloGame.objects.get(pk=win(ana)["id"])
    assert "Race your ghost" in client.get(f"/replays/game/{game.pk}/").content.decode()


def test_the_win_dialog_links_to_racing_its_ghost(client):
    page = client.get("/play/").content.decode()
    assert 'id="won-ghost"' in page and 'id="won-ghost-end"' in page


# --- the daily challenge ------------------------------------------------------------------
def test_the_daily_challenge_offers_todays_best_after_the_players_own_attempt(client):
    code = daily.daily_code(daily.today())
    best = Device(client.__class__())
    best.open(code)
    best_win = win(best)
    me = Device(client)
    assert client.get("/replays/daily/ghost/").status_code == 403  # no attempt yet
    page = me.open(code).content.decode()
    assert 'id="daily-ghost"' not in page
    status, _state = me.move(*_first_pair(code))
    assert status == 200
    page = client.get("/play/").content.decode()
    assert 'id="daily-ghost"' in page
    ghost = ghost_in(client.get("/replays/daily/ghost/"))
    assert ghost["finished_ms"] == best_win["result"]["time_ms"]
    # Racing it and winning puts nobody new on today's table: a ghost race is no attempt.
    me.state = client.get("/play/").context["state"]
    assert me.state["ghost"]
    win(me)
    assert [g.pk for g in daily_board(daily.today())] == [best_win["id"]]


def _first_pair(code):
    from tests.practice.practice_helpers import plan_of

    return plan_of(code)[0]


def test_without_a_best_time_today_there_is_no_daily_ghost(client):
    me = Device(client)
    code = daily.daily_code(daily.today())
    me.open(code)
    me.move(*_first_pair(code))
    response = client.get("/replays/daily/ghost/")
    assert response.status_code == 404
    assert "Nobody has cleared today" in response.content.decode()


# --- bad ghosts ------------------------------------------------------------------------------
def test_bad_ghost_links_say_why_and_start_no_game(client):
    race = a_finished_race()
    ana = race.entries.get(seat__nickname="Ana")  # gave up
    room, (cy, _di) = room_with("Cy", "Di")
    running = races.start_race(cy, room.code, now=timezone.now(), seed=3)
    left = SoloGame.objects.create(
        player=Player.objects.create(), code="MJ1-L01-AAAASGV", tile_count=34, status="abandoned"
    )
    before = SoloGame.objects.count()
    cases = {
        "/replays/race/999999/ghost/1/": (404, "No such race"),
        f"/replays/race/{race.pk}/ghost/999999/": (404, "Nobody raced in that seat"),
        f"/replays/race/{race.pk}/ghost/{ana.seat_id}/": (404, "did not finish"),
        f"/replays/race/{running.pk}/ghost/{running.entries.first().seat_id}/": (
            404,
            "not finished yet",
        ),
        "/replays/game/999999/ghost/": (404, "No such game"),
        f"/replays/game/{left.pk}/ghost/": (404, "was not won"),
        f"/replays/race/{'9' * 25}/ghost/1/": (400, "not one"),
    }
    for url, (status, words) in cases.items():
        response = client.get(url)
        assert response.status_code == status, url
        assert words in response.content.decode(), url
    assert SoloGame.objects.count() == before
    assert Entry.objects.filter(race=running).count() == 2


def test_a_ghost_link_from_another_device_still_plays_on_the_visitors_own_game(client):
    race = a_finished_race()
    bo = race.entries.get(seat__nickname="Bo")
    stranger = Player.objects.create()
    client.cookies[COOKIE_NAME] = signed_token(stranger.device_token)
    ghost_in(client.get(f"/replays/race/{race.pk}/ghost/{bo.seat_id}/"))
    assert SoloGame.objects.get().player == stranger
    assert timedelta(0) <= timezone.now() - SoloGame.objects.get().started_at
