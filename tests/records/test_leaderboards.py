"""/leaderboards/: fastest practice wins per layout (one row per player), the daily
challenge (one code per UTC day for everyone) with its own board, and ratings."""

import datetime

import pytest

from accounts import actions
from accounts.models import Player, Rating
from mahjong.engine.codes import parse_code
from mahjong.engine.deal import deal_from_code
from records import leaderboards
from tests.accounts.accounts_helpers import at_noon, playing_game, won_game

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 29)


@pytest.fixture
def today(monkeypatch):
    monkeypatch.setattr(leaderboards, "today", lambda: DAY)
    return DAY


def test_each_player_appears_once_with_their_best_time():
    mei, bo = Player.objects.create(nickname="Mei"), Player.objects.create(nickname="Bo")
    for time_ms in (80_000, 50_000, 90_000):
        won_game(mei, time_ms)
    won_game(bo, 60_000)
    (board,) = leaderboards.practice_boards()
    assert board.title == "Beginner"
    assert [(g.player.nickname, g.time_ms) for g in board.rows] == [("Mei", 50_000), ("Bo", 60_000)]


def test_boards_are_per_layout_and_unfinished_games_do_not_count():
    mei = Player.objects.create(nickname="Mei")
    won_game(mei, 50_000)
    won_game(mei, 200_000, code="MJ1-L02-AAAAAAB", layout_number=2)
    playing_game(Player.objects.create(nickname="Slow"))
    titles = {board.title: board.rows for board in leaderboards.practice_boards()}
    assert set(titles) == {"Beginner", "Easy"}
    assert [g.time_ms for g in titles["Easy"]] == [200_000]
    assert [g.player.nickname for g in titles["Beginner"]] == ["Mei"]


def test_a_board_shows_the_ten_fastest_players():
    for n in range(12):
        won_game(Player.objects.create(nickname=f"p{n}"), 30_000 + n * 1000)
    (board,) = leaderboards.practice_boards()
    assert [g.player.nickname for g in board.rows] == [f"p{n}" for n in range(10)]


def test_the_daily_code_is_an_easy_deal_fixed_by_the_date():
    code = leaderboards.daily_code(DAY)
    assert code == leaderboards.daily_code(datetime.date(2026, 11, 29))
    assert code != leaderboards.daily_code(DAY + datetime.timedelta(days=1))
    layout, _ = parse_code(code)
    assert layout == 2 and len(deal_from_code(code).faces) == 68


def test_daily_codes_are_pinned():
    # Published codes never change meaning: these are what players saw on those days.
    assert leaderboards.daily_code(datetime.date(2026, 11, 29)) == "MJ1-L02-YJTQUHQ"
    assert leaderboards.daily_code(datetime.date(2027, 1, 1)) == "MJ1-L02-HQLSIBJ"


def test_the_daily_board_counts_each_players_first_win_of_the_code_started_that_day(today):
    code = leaderboards.daily_code(today)
    mei, bo, cy = (Player.objects.create(nickname=n) for n in ("Mei", "Bo", "Cy"))
    won_game(mei, 120_000, code=code, layout_number=2, started_at=at_noon(today))
    later = at_noon(today) + datetime.timedelta(hours=1)
    won_game(mei, 100_000, code=code, layout_number=2, started_at=later)  # practice
    won_game(
        bo,
        90_000,
        code=code,
        layout_number=2,
        started_at=at_noon(today - datetime.timedelta(days=1)),
    )
    won_game(cy, 10_000, code="MJ1-L02-AAAAAAB", layout_number=2, started_at=at_noon(today))
    rows = leaderboards.daily_board(today)
    assert [(g.player.nickname, g.time_ms) for g in rows] == [("Mei", 120_000)]


def test_the_page_links_to_todays_challenge_and_shows_its_board(client, today):
    code = leaderboards.daily_code(today)
    won_game(
        Player.objects.create(nickname="Mei"),
        95_000,
        code=code,
        layout_number=2,
        started_at=at_noon(today),
    )
    page = client.get("/leaderboards/").content.decode()
    assert f'href="/play/{code}/"' in page and "Play today's challenge" in page
    assert "2026-11-29" in page and "Mei" in page and "1:35" in page


def test_the_daily_challenge_link_starts_that_deal(client, today):
    code = leaderboards.daily_code(today)
    response = client.get(f"/play/{code}/")
    assert response.context["state"]["code"] == code


def test_the_ratings_table_lists_established_players_best_first(client):
    mei, bo, ana = (Player.objects.create(nickname=n) for n in ("Mei", "Bo", "Ana"))
    for race in range(20):  # Bo and Mei trade wins, Bo one more: both settle
        actions.record_rated_result([(bo, 1 + race % 2), (mei, 2 - race % 2)], race_ref=race)
    actions.record_rated_result([(bo, 1), (mei, 2)], race_ref=20)
    actions.record_rated_result([(ana, 1), (mei, 2)], race_ref=21)  # Ana: one lucky race
    assert [r.player.nickname for r in leaderboards.rating_board()] == ["Bo", "Mei"]
    page = client.get("/leaderboards/").content.decode()
    assert 'id="rating-board"' in page and "Ana" not in page
    assert f'<td class="num">{Rating.objects.get(player=bo).shown}</td>' in page
    assert "once it is established" in page


def test_an_empty_site_says_so(client, today):
    page = client.get("/leaderboards/").content.decode()
    assert "No established ratings yet." in page and "No practice wins yet." in page
    assert "No one has cleared a daily challenge yet." in page
    today_page = client.get("/leaderboards/day/2026-11-29/").content.decode()
    assert "No one has cleared today" in today_page


def test_a_past_days_table_is_kept_and_browsable_from_the_leaderboards(client, today):
    yesterday = today - datetime.timedelta(days=1)
    code = leaderboards.daily_code(yesterday)
    # Nicknames no random token on the page can spell (a CSRF token once held "Bo").
    mei, bo = Player.objects.create(nickname="Mei"), Player.objects.create(nickname="Bo-Ly")
    won_game(mei, 80_000, code=code, layout_number=2, started_at=at_noon(yesterday))
    won_game(mei, 40_000, code=code, layout_number=2, started_at=at_noon(yesterday))  # practice
    won_game(bo, 95_000, code=code, layout_number=2, started_at=at_noon(today))  # a day late
    board = client.get("/leaderboards/").content.decode()
    assert 'href="/leaderboards/daily/2026-11-28/"' in board
    page = client.get("/leaderboards/daily/2026-11-28/").content.decode()
    assert code in page and "Mei" in page and "1:20" in page
    assert "0:40" not in page and "Bo-Ly" not in page
    assert "as practice: the day's table is closed" in page
    assert 'href="/leaderboards/daily/2026-11-27/"' in page
    assert 'href="/leaderboards/daily/2026-11-29/"' in page  # on to today


def test_a_future_or_malformed_day_is_not_found(client, today):
    assert client.get("/leaderboards/daily/2026-11-30/").status_code == 404
    assert client.get("/leaderboards/daily/yesterday/").status_code == 404
    today_page = client.get("/leaderboards/daily/2026-11-29/").content.decode()
    assert "Play today's challenge" in today_page and 'id="next-day"' not in today_page
