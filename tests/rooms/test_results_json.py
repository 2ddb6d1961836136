"""A race's results (rooms/core/serializers.py results_json): every board's timeline for
the results chart, read in one query whatever the number of boards."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rooms.core import serializers
from rooms.core.boards import deal_for
from rooms.race import actions as races
from rooms.race import end as race_end
from tests.rooms.rooms_helpers import room_with, started

pytestmark = pytest.mark.django_db


def race_played(nicknames: list[str], pairs_each: int):
    """A finished race of these players, each having made `pairs_each` plan pairs, one
    every 2 s after go."""
    room, players = room_with(*nicknames)
    race, _now = started(room, players[0], seed=7)
    for player in players:
        entry = race.entries.get(seat__player=player)
        for n, pair in enumerate(deal_for(entry.code).plan[:pairs_each]):
            at = race.go_at + timedelta(seconds=2 * (n + 1))
            races.play_pair(player, room.code, list(pair), n, now=at)
    race_end.end_race(race, race.go_at + timedelta(minutes=1))
    race.refresh_from_db()
    return race


def queries_of(race) -> tuple[int, list[dict]]:
    with CaptureQueriesContext(connection) as seen:
        rows = serializers.results_json(race)
    return len(seen.captured_queries), rows


def test_the_results_read_every_timeline_in_one_query_whatever_the_field():
    small, _ = queries_of(race_played(["Ana", "Bo"], pairs_each=3))
    large, rows = queries_of(race_played(["Cy", "Di", "Ed", "Fa", "Gu", "Hu"], pairs_each=3))
    assert large == small  # no query per board
    assert len(rows) == 6


def test_each_timeline_gives_the_time_and_progress_after_each_of_its_own_pairs():
    race = race_played(["Ana", "Bo"], pairs_each=4)
    for row in serializers.results_json(race):
        tiles = race.entries.get(seat_id=row["seat"]).tile_count
        assert [ms for ms, _ in row["timeline"]] == [2000, 4000, 6000, 8000]
        assert [pct for _, pct in row["timeline"]] == [k * 200 // tiles for k in (1, 2, 3, 4)]


def test_what_other_apps_settle_at_a_race_end_runs_by_stage_not_by_the_order_they_started(
    monkeypatch,
):
    # Arenas score a board flagged for pace as 0: the flags (ranked play) must be set
    # before arenas read them, whichever app registered first.
    from arenas import scoring
    from rooms.ranked import results as ranked_results

    ran = []
    monkeypatch.setattr(race_end, "_AT_RACE_END", [])
    race_end.at_race_end(lambda race, entries, now: ran.append("arenas score"), race_end.SCORES)
    race_end.at_race_end(lambda race, entries, now: ran.append("flags set"), race_end.FLAGS)
    race_played(["Ana", "Bo"], 1)
    assert ran == ["flags set", "arenas score"]
    monkeypatch.undo()
    assert [settle for _, settle in race_end._AT_RACE_END] == [
        ranked_results.settle,
        scoring.settle,
    ]
