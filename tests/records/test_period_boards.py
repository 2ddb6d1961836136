"""Every leaderboard by period (docs/RULES.md §Leaderboards by period): hand-made games at
the edges of weeks (Sunday 23:59:59 UTC against Monday 00:00) and months, old periods
browsable by their address, bad addresses a clear 404, the words in Spanish, and a
board of another app joining the periods through records/boards.py."""

import datetime
from datetime import UTC, timedelta

import pytest

from accounts import actions
from accounts.models import Player, RatingChange
from mahjong.race_rules.ratings import PROVISIONAL_DEVIATION
from practice.models import SoloGame
from records import boards, leaderboards, periods
from records.boards import Column, PeriodBoard
from rooms.lobby import actions as lobby
from rooms.models import Race
from rooms.race import actions as races
from tests.accounts.accounts_helpers import won_game
from tests.records.test_race_records import finish
from tests.rooms.rooms_helpers import everyone_ready, room_with

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 12, 10)  # a Thursday of ISO week 50
SUNDAY_LAST_SECOND = datetime.datetime(2026, 12, 6, 23, 59, 59, tzinfo=UTC)  # week 49 ends
MONDAY_MIDNIGHT = datetime.datetime(2026, 12, 7, tzinfo=UTC)  # week 50 starts
NOVEMBER_LAST_SECOND = datetime.datetime(2026, 11, 30, 23, 59, 59, tzinfo=UTC)
DECEMBER_FIRST = datetime.datetime(2026, 12, 1, tzinfo=UTC)
# Nicknames with a hyphen: no CSRF token in the page can spell them.
ANA, BO, CY = "Ana-Ly", "Bo-Ly", "Cy-Mo"


@pytest.fixture
def today(monkeypatch):
    monkeypatch.setattr(leaderboards, "today", lambda: TODAY)
    return TODAY


def player(nickname):
    return Player.objects.create(nickname=nickname)


def won_at(who, time_ms, finished_at, **extra):
    """A clean Beginner win that ended at `finished_at`."""
    return won_game(who, time_ms, started_at=finished_at - timedelta(milliseconds=time_ms), **extra)


def period(kind, text):
    return periods.parse(kind, text)


def practice_rows(kind, text):
    return {
        board.title: [(g.player.nickname, g.time_ms) for g in board.rows]
        for board in leaderboards.practice_boards(period(kind, text))
    }


def page(client, url, **headers):
    response = client.get(url, **headers)
    assert response.status_code == 200, url
    return response.content.decode()


def section(html, name):
    start = html.index(f'<section id="{name}">')
    return html[start : html.index("</section>", start)]


# --- practice ---------------------------------------------------------------------------


def test_a_win_at_sunday_235959_is_last_weeks_and_one_at_monday_midnight_this_weeks():
    ana, bo = player(ANA), player(BO)
    won_at(ana, 50_000, SUNDAY_LAST_SECOND)
    won_at(bo, 40_000, MONDAY_MIDNIGHT)
    assert practice_rows("week", "2026-W49") == {"Beginner": [(ANA, 50_000)]}
    assert practice_rows("week", "2026-W50") == {"Beginner": [(BO, 40_000)]}
    assert practice_rows("day", "2026-12-06") == {"Beginner": [(ANA, 50_000)]}
    assert practice_rows("day", "2026-12-07") == {"Beginner": [(BO, 40_000)]}
    assert practice_rows("month", "2026-12") == {"Beginner": [(BO, 40_000), (ANA, 50_000)]}


def test_month_boards_split_at_midnight_on_the_first():
    ana, bo = player(ANA), player(BO)
    won_at(ana, 30_000, NOVEMBER_LAST_SECOND)
    won_at(bo, 45_000, DECEMBER_FIRST)
    assert practice_rows("month", "2026-11") == {"Beginner": [(ANA, 30_000)]}
    assert practice_rows("month", "2026-12") == {"Beginner": [(BO, 45_000)]}
    # The week of 30 November holds both; all time too.
    assert practice_rows("week", "2026-W49") == {"Beginner": [(ANA, 30_000), (BO, 45_000)]}
    all_time = {b.title: [g.time_ms for g in b.rows] for b in leaderboards.practice_boards()}
    assert all_time == {"Beginner": [30_000, 45_000]}


def test_a_period_keeps_each_players_best_of_that_period_only():
    ana, bo = player(ANA), player(BO)
    won_at(ana, 20_000, datetime.datetime(2026, 11, 3, 12, tzinfo=UTC))  # her best, November
    won_at(ana, 70_000, datetime.datetime(2026, 12, 2, 12, tzinfo=UTC))
    won_at(ana, 60_000, datetime.datetime(2026, 12, 3, 12, tzinfo=UTC))
    won_at(bo, 65_000, datetime.datetime(2026, 12, 3, 13, tzinfo=UTC))
    won_at(bo, 10_000, datetime.datetime(2026, 12, 3, 14, tzinfo=UTC), hints=1)  # not clean
    assert practice_rows("month", "2026-12") == {"Beginner": [(ANA, 60_000), (BO, 65_000)]}
    assert practice_rows("month", "2026-11") == {"Beginner": [(ANA, 20_000)]}
    easy = dict(code="MJ1-L02-AAAAAAB", layout_number=2)
    won_at(bo, 99_000, datetime.datetime(2026, 12, 4, 9, tzinfo=UTC), **easy)
    assert practice_rows("day", "2026-12-04") == {"Easy": [(BO, 99_000)]}


def test_the_all_time_board_still_shows_ten_players_when_one_player_has_many_fast_wins():
    ana = player(ANA)
    for n in range(60):  # Ana's 60 wins are all faster than anyone else's
        won_at(ana, 10_000 + n, datetime.datetime(2026, 12, 1, 12, tzinfo=UTC))
    for n in range(11):
        won_at(player(f"p-{n}"), 50_000 + n, datetime.datetime(2026, 12, 2, 12, tzinfo=UTC))
    (board,) = leaderboards.practice_boards()
    assert [g.player.nickname for g in board.rows] == [ANA] + [f"p-{n}" for n in range(9)]
    assert board.rows[0].time_ms == 10_000


def test_a_flagged_or_seen_win_is_on_no_periods_board():
    ana = player(ANA)
    flagged = won_at(ana, 30_000, datetime.datetime(2026, 12, 3, 12, tzinfo=UTC))
    SoloGame.objects.filter(pk=flagged.pk).update(pace_flagged=True)
    seen = won_at(player(BO), 31_000, datetime.datetime(2026, 12, 3, 12, tzinfo=UTC))
    SoloGame.objects.filter(pk=seen.pk).update(seen_before=True)
    assert practice_rows("day", "2026-12-03") == {}
    assert practice_rows("week", "2026-W49") == {}


# --- the daily challenge ----------------------------------------------------------------


def daily_win(who, day, time_ms, started=datetime.time(12), flagged=False):
    started_at = datetime.datetime.combine(day, started, tzinfo=UTC)
    game = won_game(
        who, time_ms, code=leaderboards.daily_code(day), layout_number=2, started_at=started_at
    )
    if flagged:
        SoloGame.objects.filter(pk=game.pk).update(pace_flagged=True)
    return game


def test_the_weeks_daily_board_ranks_days_cleared_then_total_time(client, today):
    ana, bo, cy = player(ANA), player(BO), player(CY)
    monday, tuesday, sunday = (datetime.date(2026, 12, d) for d in (7, 8, 6))
    daily_win(ana, monday, 100_000)
    daily_win(ana, tuesday, 120_000)
    daily_win(bo, monday, 60_000)
    daily_win(bo, tuesday, 50_000)
    daily_win(bo, tuesday, 10_000, started=datetime.time(13))  # a second try: practice
    daily_win(cy, monday, 20_000, flagged=True)  # off the board, and no later win replaces it
    daily_win(cy, monday, 25_000, started=datetime.time(14))
    # Started in the last second of Sunday: Sunday's challenge, last week's.
    daily_win(cy, sunday, 30_000, started=datetime.time(23, 59, 59))
    rows = leaderboards.days_cleared(period("week", "2026-W50"), TODAY)
    assert [(r.player.nickname, r.days, r.total_ms, r.best_ms) for r in rows] == [
        (BO, 2, 110_000, 50_000),
        (ANA, 2, 220_000, 100_000),
    ]
    last_week = leaderboards.days_cleared(period("week", "2026-W49"), TODAY)
    assert [(r.player.nickname, r.days) for r in last_week] == [(CY, 1)]
    month = leaderboards.days_cleared(period("month", "2026-12"), TODAY)
    assert [r.player.nickname for r in month] == [BO, ANA, CY]
    html = section(page(client, "/leaderboards/week/2026-W50/"), "daily")
    assert "Days cleared" in html and BO in html and "1:50" in html and CY not in html


def test_a_game_of_a_days_deal_started_the_next_day_is_not_that_days_challenge(today):
    monday = datetime.date(2026, 12, 7)
    game = daily_win(player(ANA), monday, 40_000)
    SoloGame.objects.filter(pk=game.pk).update(started_at=MONDAY_MIDNIGHT + timedelta(days=1))
    assert leaderboards.days_cleared(period("week", "2026-W50"), TODAY) == []


def test_the_day_tab_shows_that_days_table_and_the_all_time_board_counts_every_day(client, today):
    ana, bo = player(ANA), player(BO)
    daily_win(ana, datetime.date(2026, 12, 3), 80_000)
    daily_win(ana, TODAY, 90_000)
    daily_win(bo, TODAY, 70_000)
    html = section(page(client, "/leaderboards/day/2026-12-10/"), "daily")
    assert "Play today&#x27;s challenge" in html or "Play today's challenge" in html
    assert html.index(BO) < html.index(ANA) and "1:10" in html
    old = section(page(client, "/leaderboards/day/2026-12-03/"), "daily")
    assert "1:20" in old and BO not in old and "the day's table is closed" in old
    every_day = section(page(client, "/leaderboards/"), "daily")
    assert every_day.index(ANA) < every_day.index(BO)  # two days beat one


# --- ratings ----------------------------------------------------------------------------


def at(day, hour):
    return datetime.datetime.combine(day, datetime.time(hour), tzinfo=UTC)


def test_a_periods_ratings_are_each_players_best_established_rating_in_it(client, today):
    ana, bo, cy = player(ANA), player(BO), player(CY)
    week49 = datetime.date(2026, 11, 30)
    for race in range(24):  # Ana and Bo settle in week 49, Ana one win ahead
        day = week49 + timedelta(days=race % 7)
        places = [(ana, 1 + race % 2), (bo, 2 - race % 2)]
        actions.record_rated_result(places, race_ref=race, at=at(day, 8 + race // 7))
    actions.record_rated_result([(ana, 2), (bo, 1)], race_ref=100, at=SUNDAY_LAST_SECOND)
    for race in range(101, 104):  # week 50: Bo wins three, Cy has one lucky race
        actions.record_rated_result([(bo, 1), (ana, 2)], race_ref=race, at=at(TODAY, race - 90))
    actions.record_rated_result([(cy, 1), (ana, 2)], race_ref=200, at=at(TODAY, 20))

    def best(who, start, end):
        afters = RatingChange.objects.filter(
            player=who,
            created_at__gte=start,
            created_at__lt=end,
            deviation__lte=PROVISIONAL_DEVIATION,
        ).values_list("after", flat=True)
        return round(max(afters))

    start49, end49 = periods.bounds(period("week", "2026-W49"))
    start50, end50 = periods.bounds(period("week", "2026-W50"))
    week50 = leaderboards.rating_board(period=period("week", "2026-W50"))
    shown = [(r.player.nickname, r.shown, r.games) for r in week50]
    ana_races = 3 + 1  # three against Bo, one against Cy
    assert shown[0] == (BO, best(bo, start50, end50), 3)
    assert (ANA, best(ana, start50, end50), ana_races) in shown and len(shown) == 2  # no Cy
    week49_rows = leaderboards.rating_board(period=period("week", "2026-W49"))
    assert [(r.player.nickname, r.shown) for r in week49_rows] == sorted(
        [(ANA, best(ana, start49, end49)), (BO, best(bo, start49, end49))],
        key=lambda row: -row[1],
    )
    # Bo's best of week 49 came before his win at Sunday 23:59:59, and his best of week
    # 50 after it: the Sunday race is week 49's.
    sunday_change = RatingChange.objects.get(player=bo, race_ref=100)
    assert best(bo, start49, end49) >= round(sunday_change.after)
    html = section(page(client, "/leaderboards/week/2026-W50/"), "ratings")
    assert "Best rating" in html and CY not in html
    assert f'<td class="num">{best(bo, start50, end50)}</td>' in html


def test_an_empty_periods_ratings_say_so(client, today):
    html = section(page(client, "/leaderboards/month/2026-11/"), "ratings")
    assert "No established rating was reached in this period." in html


# --- races ------------------------------------------------------------------------------


def test_race_wins_count_in_the_period_their_race_ended(client, today, monkeypatch):
    room, (ana, bo) = room_with(ANA, BO)
    lobby.update_rules(ana, room.code, {"level": "beginner"})
    t0 = SUNDAY_LAST_SECOND - timedelta(minutes=30)
    first = races.start_race(ana, room.code, now=t0)
    finish(first, ana, 60)
    finish(first, bo, 70)
    everyone_ready(ana, room.code, now=t0 + timedelta(minutes=19))
    second = races.start_race(ana, room.code, now=t0 + timedelta(minutes=20))
    finish(second, bo, 40)
    finish(second, ana, 90)
    Race.objects.filter(pk=first.pk).update(finished_at=SUNDAY_LAST_SECOND)
    Race.objects.filter(pk=second.pk).update(finished_at=MONDAY_MIDNIGHT)

    def rows(text):
        found = leaderboards.fastest_race_wins("beginner", period=period("week", text))
        return [(e.seat.nickname, e.finished_ms) for e in found]

    assert rows("2026-W49") == [(ANA, 60_000), (BO, 70_000)]
    assert rows("2026-W50") == [(BO, 40_000), (ANA, 90_000)]
    html = section(page(client, "/leaderboards/week/2026-W49/"), "races")
    assert "1:00" in html and "0:40" not in html
    every = [(e.seat.nickname, e.finished_ms) for e in leaderboards.fastest_race_wins("beginner")]
    assert every == [(BO, 40_000), (ANA, 60_000)]
    # Reading one row a place, the first three rows hold two players: the board walks on
    # and finds the same.
    monkeypatch.setattr(leaderboards, "ROWS_READ_PER_PLACE", 1)
    walked = leaderboards.fastest_race_wins("beginner", limit=3)
    assert [(e.seat.nickname, e.finished_ms) for e in walked] == every


# --- pages: tabs, old periods, bad addresses, Spanish -----------------------------------


def test_the_tabs_lead_to_the_periods_running_today_and_mark_the_one_shown(client, today):
    html = page(client, "/leaderboards/week/2026-W50/")
    for url in (
        "/leaderboards/day/2026-12-10/",
        "/leaderboards/week/2026-W50/",
        "/leaderboards/month/2026-12/",
        "/leaderboards/",
    ):
        assert f'href="{url}"' in html
    assert 'id="tab-week" href="/leaderboards/week/2026-W50/" aria-current="page"' in html
    assert html.count('aria-current="page"') == 1
    assert "Week 50 of 2026 · 7 December – 13 December" in html
    assert 'id="previous-period" rel="prev" href="/leaderboards/week/2026-W49/"' in html
    assert 'id="next-period"' not in html  # next week has not begun


def test_an_old_period_is_browsable_with_its_neighbours(client, today):
    ana = player(ANA)
    won_at(ana, 42_000, datetime.datetime(2025, 3, 31, 12, tzinfo=UTC))
    html = page(client, "/leaderboards/month/2025-03/")
    assert "March 2025" in html and ANA in html and "0:42" in html
    assert 'href="/leaderboards/month/2025-02/"' in html
    assert 'href="/leaderboards/month/2025-04/"' in html
    assert 'aria-current="page"' not in html  # none of the tabs is shown
    day = page(client, "/leaderboards/day/2025-03-31/")
    assert "Monday 31 March 2025" in day and ANA in day
    assert 'href="/leaderboards/day/2025-04-01/"' in day
    week = page(client, "/leaderboards/week/2025-W14/")
    assert ANA in week and "31 March – 6 April" in week
    assert ANA not in page(client, "/leaderboards/week/2025-W13/")


@pytest.mark.parametrize(
    "url",
    [
        "/leaderboards/month/2026-13/",
        "/leaderboards/month/2026-1/",
        "/leaderboards/week/2026-W60/",
        "/leaderboards/week/2025-W53/",
        "/leaderboards/day/2026-02-30/",
        "/leaderboards/day/garbage/",
        "/leaderboards/day/1999-12-31/",
        "/leaderboards/year/2026/",
        "/leaderboards/week/2026-W49/extra/",
        "/leaderboards/daily/2026-11-31/",
        "/leaderboards/daily/yesterday/",
    ],
)
def test_a_bad_period_is_a_clear_404(client, today, url):
    response = client.get(url)
    assert response.status_code == 404
    html = response.content.decode()
    assert "No such leaderboard" in html and "A day reads 2026-12-03" in html
    assert 'href="/leaderboards/day/2026-12-10/"' in html  # the way back


@pytest.mark.parametrize(
    "url",
    [
        "/leaderboards/day/2026-12-11/",
        "/leaderboards/week/2026-W51/",
        "/leaderboards/month/2027-01/",
    ],
)
def test_a_period_that_has_not_begun_is_a_404_that_says_so(client, today, url):
    response = client.get(url)
    assert response.status_code == 404
    assert "That period has not begun yet." in response.content.decode()


def test_the_period_pages_speak_spanish(client, today):
    es = {"HTTP_ACCEPT_LANGUAGE": "es"}
    html = page(client, "/leaderboards/week/2026-W50/", **es)
    for word in ("Hoy", "Esta semana", "Este mes", "Histórico", "Semana anterior"):
        assert f"{word}" in html, word
    assert "Semana 50 de 2026 · 7 de diciembre – 13 de diciembre" in html
    assert "Nadie ha superado un reto diario en este periodo." in html
    assert "Jueves 10 de diciembre de 2026" in page(client, "/leaderboards/day/2026-12-10/", **es)
    assert "Diciembre de 2026" in page(client, "/leaderboards/month/2026-12/", **es)
    assert "Día anterior" in page(client, "/leaderboards/day/2026-12-10/", **es)
    missing = client.get("/leaderboards/month/2026-13/", **es).content.decode()
    assert "No existe esa clasificación" in missing and "las semanas empiezan el lunes" in missing


# --- another app's board joins the periods -------------------------------------------------


def test_a_board_of_another_app_joins_every_period_with_one_function(client, today, monkeypatch):
    seen = []

    def winners(start, end, limit):
        """What an arena app would give: rows of (text, link) cells for [start, end)."""
        seen.append((start, end, limit))
        label = "every arena" if start is None else f"arenas from {start:%Y-%m-%d}"
        return [[(ANA, "/players/1/"), ("3", None)], [(label, None), ("1", None)]]

    board = PeriodBoard(
        "arenas",
        "Arena winners",
        (Column("Player"), Column("Arenas won", numeric=True)),
        winners,
        "No arena finished in this period.",
    )
    monkeypatch.setattr(boards, "BOARDS", [board])
    week = section(page(client, "/leaderboards/week/2026-W50/"), "arenas")
    assert "Arena winners" in week and 'id="arenas-board"' in week
    assert '<a href="/players/1/">Ana-Ly</a>' in week and '<td class="num">3</td>' in week
    assert "arenas from 2026-12-07" in week
    assert seen[-1] == (*periods.bounds(period("week", "2026-W50")), boards.BOARD_SIZE)
    assert "every arena" in section(page(client, "/leaderboards/"), "arenas")
    empty = PeriodBoard("arenas", "Arena winners", board.columns, lambda *_: [], board.empty)
    monkeypatch.setattr(boards, "BOARDS", [empty])
    html = section(page(client, "/leaderboards/month/2026-11/"), "arenas")
    assert "No arena finished in this period." in html and "<table" not in html


def test_a_past_days_first_wins_are_kept_and_todays_read_afresh(today):
    ana, bo = player(ANA), player(BO)
    monday = datetime.date(2026, 12, 7)
    daily_win(ana, monday, 100_000)
    daily_win(ana, TODAY, 90_000)
    week = period("week", "2026-W50")
    assert [(r.player.nickname, r.days) for r in leaderboards.days_cleared(week, TODAY)] == [
        (ANA, 2)
    ]
    # Today's table moves at once; a day that is over is read from the cache.
    daily_win(bo, TODAY, 50_000)
    daily_win(bo, monday, 40_000)  # stored late by hand: the cached Monday does not see it
    rows = leaderboards.days_cleared(week, TODAY)
    assert [(r.player.nickname, r.days, r.total_ms) for r in rows] == [
        (ANA, 2, 190_000),
        (BO, 1, 50_000),
    ]


PAST = ["/leaderboards/day/2026-12-09/", "/leaderboards/week/2026-W49/"]
PAST.append("/leaderboards/month/2026-11/")


@pytest.mark.parametrize("url", PAST)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_past_period_offers_no_play_of_todays_challenge(client, today, url, lang):
    html = client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    html = html[html.index("<main") : html.index("</main>")]  # the page, not its description
    todays = leaderboards.daily_code(TODAY)
    assert todays not in html
    assert 'id="play-daily"' not in html
    assert "today's challenge" not in html.lower() and "reto de hoy" not in html.lower()
    assert 'href="/play/"' not in html and 'href="/ranked/"' not in html.split("</nav>")[-1]


def test_a_past_weeks_days_link_goes_to_its_own_days_and_this_weeks_page_still_offers_today(
    client, today
):
    past = page(client, "/leaderboards/week/2026-W49/")
    assert 'id="past-days" href="/leaderboards/daily/2026-12-06/"' in past
    current = page(client, "/leaderboards/week/2026-W50/")
    assert 'id="play-daily"' in current and leaderboards.daily_code(TODAY) in current
