"""Solo practice around the board, through the Django client: a win's place among the
player's own wins, the daily challenge's frame (date, today's best, streak), a link
that holds no game, the New game dialog's choices and layout previews."""

import datetime

import pytest
from django.utils import translation

from accounts.models import Player
from mahjong import daily
from mahjong.engine.catalog import CATALOG
from practice import daily as practice_daily
from practice.models import SoloGame
from practice.wording import ordinal, rank_text
from tests.accounts.accounts_helpers import at_noon, device_player, won_game
from tests.practice.practice_helpers import BEGINNER_CODE, plan_of, win

pytestmark = pytest.mark.django_db

# The real UTC day: games started in these tests are stamped with the real time, and the
# daily challenge is the deal of the day they were started.
DAY = datetime.datetime.now(datetime.UTC).date()
MONTHS_ES = [
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
]
DAY_EN = f"{DAY.day} {DAY:%B}"
DAY_ES = f"{DAY.day} de {MONTHS_ES[DAY.month - 1]}"


@pytest.fixture
def today(monkeypatch):
    monkeypatch.setattr(daily, "today", lambda: DAY)
    return DAY


def test_ordinals_and_ranks_in_english():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th",
    ]  # fmt: skip
    assert rank_text(1) == "your best!" and rank_text(3) == "your 3rd best"


def test_ranks_in_spanish():
    with translation.override("es"):
        assert ordinal(2) == "2.º" and ordinal(11) == "11.º"
        assert rank_text(1) == "¡tu mejor tiempo!"
        assert rank_text(2) == "tu 2.º mejor tiempo"


def test_a_win_tells_its_place_among_the_players_own_wins(device):
    device.open(BEGINNER_CODE)
    first = win(device)
    assert first["result"]["rank"] == 1 and first["result"]["rank_text"] == "your best!"
    device.state = device.post("new", level="beginner")[1]  # another deal: a first sight
    assert device.state["code"] != BEGINNER_CODE
    SoloGame.objects.filter(pk=device.state["id"]).update(elapsed_ms=3_600_000)
    second = win(device)
    assert second["result"]["rank"] == 2 and second["result"]["rank_text"] == "your 2nd best"
    # Other players' wins and other layouts do not count.
    won_game(Player.objects.create(nickname="Fast"), 1_000)


def test_the_state_names_the_layout_for_play_again(device):
    device.open(BEGINNER_CODE)
    assert device.state["layout"] == {
        "number": 1, "name": "beginner", "level": "beginner", "label": "Beginner",
        "flowers": False,
    }  # fmt: skip


def test_a_link_that_holds_no_game_says_so_and_offers_a_new_game(device):
    device.open(BEGINNER_CODE)
    response = device.open("garbage")
    page = response.content.decode()
    assert response.status_code == 400
    assert response.context["not_a_game"] == (
        "This link doesn't open a game: the code 'GARBAGE' is not one of ours."
    )
    assert 'id="no-game-new"' in page and "Back to your game" in page
    assert "is not a game code" not in page
    # The player's game is untouched: /play/ still opens it.
    assert device.open().status_code == 200 and device.state["code"] == BEGINNER_CODE


def test_a_very_long_bad_code_is_shortened(client):
    response = client.get("/play/" + "X" * 300 + "/")
    assert response.status_code == 400
    message = response.context["not_a_game"]
    assert "'" + "X" * 23 + "…'" in message and "X" * 24 not in message


def test_play_daily_opens_todays_deal_and_names_its_date(device, today):
    response = device.open("daily")
    assert response.status_code == 200
    assert device.state["code"] == daily.daily_code(DAY)
    page = response.content.decode()
    assert f"Daily challenge — {DAY_EN}" in page
    assert "day in a row" not in page  # no streak before a first attempt


def test_todays_code_by_its_link_is_framed_too_and_another_code_is_not(device, today):
    page = device.open(daily.daily_code(DAY)).content.decode()
    assert 'id="daily"' in page
    page = device.open(BEGINNER_CODE).content.decode()
    assert 'id="daily"' not in page
    # Yesterday's challenge is a game like any other.
    page = device.open(daily.daily_code(DAY - datetime.timedelta(days=1))).content.decode()
    assert 'id="daily"' not in page


def test_the_daily_frame_in_spanish(client, today):
    client.cookies["django_language"] = "es"
    page = client.get("/play/daily/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f"Reto diario — {DAY_ES}" in page


def test_the_daily_frame_shows_todays_five_best_times(device, today):
    code = daily.daily_code(DAY)
    for n in range(7):
        player = Player.objects.create(nickname=f"Daily player {n}")
        won_game(player, 60_000 + n * 1000, code=code, layout_number=2, started_at=at_noon(DAY))
    won_game(
        Player.objects.create(nickname="Yesterday"),
        1_000,
        code=code,
        layout_number=2,
        started_at=at_noon(DAY - datetime.timedelta(days=1)),
    )
    page = device.open("daily").content.decode()
    # Names no random token on the page can contain by chance (a CSRF token once held "P5").
    assert all(f"Daily player {n}" in page for n in range(5))
    assert "Daily player 5" not in page and "Yesterday" not in page
    assert "1:00" in page and "1:04" in page


def test_the_streak_is_not_shown_before_the_players_first_attempt(device, today):
    assert 'id="daily-streak"' not in device.open("daily").content.decode()
    i, j = plan_of(device.state["code"])[0]
    assert device.move(i, j)[0] == 200
    page = device.open("daily").content.decode()
    assert 'id="daily-streak"' in page and "1 day in a row" in page


def test_the_streak_counts_days_the_challenge_was_started_finished_or_not(client, today):
    client.get("/play/")
    player = device_player(client)

    def played(days_ago, won=False, code=None):
        day = DAY - datetime.timedelta(days=days_ago)
        game = SoloGame.objects.create(
            player=player,
            code=code or daily.daily_code(day),
            layout_number=2,
            tile_count=68,
            started_at=at_noon(day),
            status=SoloGame.Status.WON if won else SoloGame.Status.ABANDONED,
            time_ms=90_000 if won else None,
        )
        return game

    played(1, won=True)
    played(2)
    played(4)  # day 3 was missed: the run stops there
    played(3, code=daily.daily_code(DAY - datetime.timedelta(days=9)))  # not that day's deal
    # Today not played yet: yesterday's run is still alive.
    assert practice_daily.streak(player, DAY) == 2
    page = client.get("/play/daily/").content.decode()
    assert "3 days in a row" in page
    assert practice_daily.streak(player, DAY) == 3


def test_a_long_streak_crosses_the_query_windows(client, today):
    client.get("/play/")
    player = device_player(client)
    days = practice_daily.STREAK_WINDOW_DAYS * 2 + 5
    for n in range(days):
        day = DAY - datetime.timedelta(days=n)
        SoloGame.objects.create(
            player=player, code=daily.daily_code(day), layout_number=2, tile_count=68,
            started_at=at_noon(day), status=SoloGame.Status.ABANDONED,
        )  # fmt: skip
    assert practice_daily.streak(player, DAY) == days


def test_the_new_game_dialog_lists_levels_with_tile_counts_and_layouts_with_previews(client):
    response = client.get("/play/")
    levels = response.context["choices"]["levels"]
    assert [(lv["name"], lv["tiles"], lv["tiles_flowers"]) for lv in levels] == [
        ("beginner", "34 tiles", "42 tiles"),
        ("easy", "68 tiles", "76 tiles"),
        ("medium", "94 tiles", "102 tiles"),
        ("hard", "136 tiles", "144 tiles"),
    ]
    layouts = response.context["choices"]["layouts"]
    # Every built-in layout, the library's too (docs/LAYOUTS.md), by its own name.
    assert len(layouts) == len(CATALOG) and layouts[0].title == "Turtle (Hard + flowers)"
    assert (layouts[8].title, layouts[8].tiles, layouts[8].group) == ("Pyramid", 82, "library")
    page = response.content.decode()
    assert 'src="/play/layouts/turtle.svg"' in page


def test_a_layout_preview_is_a_cacheable_svg_of_its_tiles(client):
    response = client.get("/play/layouts/turtle.svg")
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert "max-age" in response["Cache-Control"]
    svg = response.content.decode()
    assert svg.startswith("<svg") and svg.count("M") == 2 * 144  # a face and a side a tile
    assert client.get("/play/layouts/nope.svg").status_code == 404
