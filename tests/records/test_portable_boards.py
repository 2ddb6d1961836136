"""The leaderboards by period on either database (docs/RULES.md §Leaderboards by
period): PostgreSQL reads them with hand-written statements (the fast path of
bench/leaderboards.py), SQLite, the default with no DATABASE_URL, through the ORM. Both
readers give the same boards for the same games, and the pages answer on SQLite."""

import datetime
from datetime import timedelta

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts import actions
from mahjong.rules import Level
from practice.models import SoloGame
from records import leaderboards
from rooms.lobby import actions as lobby
from rooms.models import Race
from rooms.race import actions as races
from tests.records.test_period_boards import (
    ANA,
    BO,
    CY,
    DECEMBER_FIRST,
    MONDAY_MIDNIGHT,
    NOVEMBER_LAST_SECOND,
    SUNDAY_LAST_SECOND,
    TODAY,
    at,
    daily_win,
    page,
    period,
    player,
    section,
    won_at,
)
from tests.records.test_race_records import finish
from tests.rooms.rooms_helpers import everyone_ready, room_with
from tests.sqlite_run import run_on_sqlite

ON_POSTGRESQL = connection.vendor == "postgresql"
EASY = dict(code="MJ1-L02-AAAAAAB", layout_number=2)
MONDAY, SUNDAY = datetime.date(2026, 12, 7), datetime.date(2026, 12, 6)


@pytest.fixture
def today(monkeypatch):
    monkeypatch.setattr(leaderboards, "today", lambda: TODAY)
    return TODAY


PERIODS = [
    ("day", "2026-11-30"),
    ("day", "2026-12-01"),
    ("day", "2026-12-06"),
    ("day", "2026-12-07"),
    ("week", "2026-W49"),
    ("week", "2026-W50"),
    ("month", "2026-11"),
    ("month", "2026-12"),
]


def games_at_the_edges():
    """Practice wins, daily challenges, rated races and race wins on both sides of a
    week's and a month's edge (Sunday 23:59:59 against Monday 00:00, 30 November against
    1 December), with ties on time, a second try, a flagged first win, a win with a hint."""
    ana, bo, cy = player(ANA), player(BO), player(CY)
    won_at(ana, 50_000, SUNDAY_LAST_SECOND)
    won_at(bo, 40_000, MONDAY_MIDNIGHT)
    won_at(ana, 45_000, MONDAY_MIDNIGHT + timedelta(hours=1))
    won_at(cy, 45_000, MONDAY_MIDNIGHT + timedelta(hours=2))  # Ana's time, finished later
    won_at(ana, 30_000, NOVEMBER_LAST_SECOND)
    won_at(bo, 20_000, DECEMBER_FIRST, **EASY)
    won_at(cy, 21_000, DECEMBER_FIRST + timedelta(minutes=5), **EASY)
    won_at(cy, 9_000, MONDAY_MIDNIGHT + timedelta(hours=3), hints=1)  # not clean
    daily_win(ana, MONDAY, 100_000)
    daily_win(bo, MONDAY, 60_000)
    daily_win(bo, MONDAY, 10_000, started=datetime.time(13))  # a second try: practice
    daily_win(bo, TODAY, 50_000)
    daily_win(cy, MONDAY, 20_000, flagged=True)  # nothing, and no later win replaces it
    daily_win(cy, MONDAY, 25_000, started=datetime.time(14))
    daily_win(cy, SUNDAY, 31_000, started=datetime.time(23, 59, 59))
    for race in range(24):  # Ana and Bo settle in week 49, Ana one win ahead
        day = datetime.date(2026, 11, 30) + timedelta(days=race % 7)
        places = [(ana, 1 + race % 2), (bo, 2 - race % 2)]
        actions.record_rated_result(places, race_ref=race, at=at(day, 8 + race // 7))
    actions.record_rated_result([(bo, 1), (ana, 2)], race_ref=100, at=at(TODAY, 9))
    room, (dee, eve) = room_with("Dee-Ly", "Eve-Ly")
    lobby.update_rules(dee, room.code, {"level": "beginner"})
    t0 = SUNDAY_LAST_SECOND - timedelta(minutes=30)
    first = races.start_race(dee, room.code, now=t0)
    finish(first, dee, 60)
    finish(first, eve, 70)
    everyone_ready(dee, room.code, now=t0 + timedelta(minutes=19))
    second = races.start_race(dee, room.code, now=t0 + timedelta(minutes=20))
    finish(second, eve, 40)
    finish(second, dee, 90)
    Race.objects.filter(pk=first.pk).update(finished_at=SUNDAY_LAST_SECOND)
    Race.objects.filter(pk=second.pk).update(finished_at=MONDAY_MIDNIGHT)


def test_the_raw_and_the_orm_readers_give_the_same_boards_for_every_period(db, today, monkeypatch):
    games_at_the_edges()
    levels = [level for level, _label in Level.choices]
    every = [*[period(kind, text) for kind, text in PERIODS], leaderboards.ALL_TIME]
    days = [datetime.date(2026, 11, 28) + timedelta(days=n) for n in range(13)]
    firsts = leaderboards._firsts_orm(days)
    by_name = {p.pk: p.nickname for p in leaderboards.Player.objects.all()}
    assert sorted((by_name[pk], ms) for pk, ms in firsts[MONDAY]) == [
        (ANA, 100_000),
        (BO, 60_000),
    ]
    assert [(by_name[pk], ms) for pk, ms in firsts[SUNDAY]] == [(CY, 31_000)]
    # What a player sees, read by the ORM, the same on either database (the daily wins
    # are on the Easy board too).
    week50 = leaderboards._practice_ids_orm(period("week", "2026-W50"), 10)
    names = dict(leaderboards.SoloGame.objects.values_list("pk", "player__nickname"))
    assert [names[pk] for pk in week50[1]] == [BO, ANA, CY]
    walked = leaderboards._race_win_ids_orm(levels, period("week", "2026-W49"), 10)
    assert list(walked) == ["beginner"] and len(walked["beginner"]) == 2
    if not ON_POSTGRESQL:  # the raw statements are PostgreSQL's: nothing to compare here
        return
    for read_per_place in (leaderboards.ROWS_READ_PER_PLACE, 1):  # 1: the walk on
        monkeypatch.setattr(leaderboards, "ROWS_READ_PER_PLACE", read_per_place)
        for shown in every:
            for limit in (1, 2, 10):
                label = (shown, limit, read_per_place)
                raw = leaderboards._practice_ids(shown, limit)
                assert leaderboards._practice_ids_orm(shown, limit) == raw, label
                raw = leaderboards._race_win_ids(levels, shown, limit)
                assert leaderboards._race_win_ids_orm(levels, shown, limit) == raw, label
    raw = leaderboards._firsts_sql(days)
    assert {day: sorted(rows) for day, rows in firsts.items()} == {
        day: sorted(rows) for day, rows in raw.items()
    }


def test_every_leaderboard_page_answers_with_its_rows_on_sqlite(
    transactional_db, client, today, tmp_path, request
):
    if ON_POSTGRESQL:  # SQLite is the default with no DATABASE_URL: run this test on it
        return run_on_sqlite(request.node.nodeid, tmp_path)
    games_at_the_edges()
    every = page(client, "/leaderboards/")
    practice = section(every, "practice")
    assert practice.index(ANA) < practice.index(BO) < practice.index(CY)  # 0:30, 0:40, 0:45
    assert "0:30" in practice and "0:21" in practice  # Beginner, Easy (Bo 0:10 there)
    daily = section(every, "daily")
    assert daily.index(BO) < daily.index(CY)  # Bo two days (Monday and today)
    ratings = section(every, "ratings")
    assert ANA in ratings and BO in ratings
    assert "0:40" in section(every, "races") and "Eve-Ly" in section(every, "races")

    monday = page(client, "/leaderboards/day/2026-12-07/")
    practice = section(monday, "practice")
    assert practice.index(BO) < practice.index(ANA) < practice.index(CY)
    assert "0:50" not in practice and "0:09" not in practice  # Sunday's, and the hint
    assert "Eve-Ly" in section(monday, "races") and "1:30" in section(monday, "races")

    week49 = page(client, "/leaderboards/week/2026-W49/")
    practice = section(week49, "practice")
    assert practice.index(ANA) < practice.index(BO) < practice.index(CY)  # 0:30, 0:20 Easy
    assert "0:50" not in practice  # Ana's 0:30 is her best of the week
    races_html = section(week49, "races")
    assert races_html.index("Dee-Ly") < races_html.index("Eve-Ly") and "1:00" in races_html
    assert CY in section(week49, "daily") and "Best rating" in section(week49, "ratings")
    assert ANA in section(week49, "ratings")

    week50 = page(client, "/leaderboards/week/2026-W50/")
    daily = section(week50, "daily")
    assert daily.index(BO) < daily.index(ANA) and CY not in daily  # Cy's first was flagged
    assert BO in section(week50, "ratings")

    december = page(client, "/leaderboards/month/2026-12/")
    practice = section(december, "practice")
    assert BO in practice and "0:30" not in practice  # Ana's 0:30 was November's
    assert "0:40" in section(december, "races")
    november = page(client, "/leaderboards/month/2026-11/")
    assert "0:30" in section(november, "practice") and "0:40" not in section(november, "practice")


# A practice win: who, which layout, its time, when it ended (minutes from Sunday 23:00,
# so around the edge of a day, a week and, with 1 December, no month), and whether clean.
WINS = st.lists(
    st.tuples(
        st.integers(0, 3),
        st.sampled_from([1, 2]),
        st.sampled_from([30_000, 31_000, 45_000]),  # few times: many ties
        st.integers(0, 120),
        st.sampled_from(["clean", "clean", "hint", "seen", "flagged"]),
    ),
    max_size=14,
)
EDGE_HOUR = SUNDAY_LAST_SECOND - timedelta(minutes=59, seconds=59)


def by_hand(games, shown, limit):
    """The boards as docs/RULES.md §Leaderboards by period says them: per layout, the clean
    wins finished in the period, fastest first (then the earlier, then the first stored),
    each player once, at most `limit`."""
    start, end = leaderboards.periods.bounds(shown)
    boards = {}
    for game in sorted(games, key=lambda g: (g.layout_number, g.time_ms, g.finished_at, g.pk)):
        clean = not (game.hints_used or game.seen_before or game.pace_flagged)
        if not clean or (start is not None and not start <= game.finished_at < end):
            continue
        board = boards.setdefault(game.layout_number, [])
        if len(board) < limit and game.player_id not in {g.player_id for g in board}:
            board.append(game)
    return {layout: [g.pk for g in board] for layout, board in boards.items()}


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(wins=WINS, limit=st.integers(1, 3))
def test_any_practice_wins_give_the_boards_the_rules_say_by_either_reader(db, wins, limit):
    shown_periods = [
        period("day", "2026-12-06"),
        period("day", "2026-12-07"),
        period("week", "2026-W49"),
        period("week", "2026-W50"),
        leaderboards.ALL_TIME,
    ]
    with transaction.atomic():
        people = [player(f"p-{n}") for n in range(4)]
        games = []
        for who, layout, time_ms, minute, kind in wins:
            code = "MJ1-L02-AAAAAAB" if layout == 2 else "MJ1-L01-AAAAAAB"
            ended = EDGE_HOUR + timedelta(minutes=minute)
            game = won_at(people[who], time_ms, ended, code=code, layout_number=layout)
            if kind != "clean":
                field = {"hint": "hints_used", "seen": "seen_before", "flagged": "pace_flagged"}
                SoloGame.objects.filter(pk=game.pk).update(
                    **{field[kind]: 1 if kind == "hint" else True}
                )
            games.append(SoloGame.objects.get(pk=game.pk))
        for shown in shown_periods:
            expected = by_hand(games, shown, limit)
            assert leaderboards._practice_ids_orm(shown, limit) == expected, shown
            if ON_POSTGRESQL:  # the raw statements are PostgreSQL's
                assert leaderboards._practice_ids(shown, limit) == expected, shown
        transaction.set_rollback(True)
