"""A stand-in CPU's pairs are never a human's achievement (docs/RULES.md §Leaving): a
board it helped is shown as such, kept off the race boards, and in a ranked race a
board it mostly played is rated as given up where its human left it."""

from datetime import timedelta

import pytest

from accounts.models import Rating
from records import leaderboards
from rooms.core.boards import deal_for
from rooms.core.serializers import results_json
from rooms.cpus import stand_in
from rooms.models import Entry
from rooms.race import actions as races
from rooms.race import cpu_seats
from rooms.ranked import rated_places
from tests.ranked.test_ranked_queue import play_pairs, ranked_race
from tests.rooms.rooms_helpers import room_with

pytestmark = pytest.mark.django_db


def entry_level(race) -> str:
    return race.entries.first().level


def stand_in_plays_on(entry: Entry, now) -> Entry:
    """The CPU takes the away human's board and plays it to its end."""
    assert stand_in.take(entry, now)
    step = 0
    while entry.status == Entry.Status.PLAYING and step < 400:
        step += 1
        now += timedelta(seconds=5)
        cpu_seats.cpu_act(None, entry.race.room.code, entry.seat_id, step, now=now)
        entry.refresh_from_db()
    return entry


def test_a_race_a_stand_in_finished_is_no_record_and_says_so(client):
    room, (ana, bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code, seed=3)
    now = race.go_at + timedelta(seconds=1)
    for n, pair in enumerate(deal_for(race.entries.get(seat__player=ana).code).plan[:3]):
        races.play_pair(ana, room.code, sorted(pair), n, now=now)
    ana_entry = stand_in_plays_on(race.entries.get(seat__player=ana), now)
    assert ana_entry.status == Entry.Status.FINISHED
    assert ana_entry.cpu_pairs == ana_entry.pairs_removed - 3
    races.give_up(bo, room.code, now=now + timedelta(minutes=9))
    race.refresh_from_db()
    assert race.status == "finished"
    assert ana_entry.pk not in [e.pk for e in leaderboards.fastest_race_wins(entry_level(race))]
    profile = client.get(f"/players/{ana.pk}/").content.decode()
    assert f"with CPU help ({ana_entry.cpu_pairs} of {ana_entry.pairs_removed} pairs)" in profile


def test_a_race_the_human_played_alone_is_on_the_race_board():
    room, (ana, bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code, seed=3)
    now = race.go_at + timedelta(seconds=1)
    entry = race.entries.get(seat__player=ana)
    for n, pair in enumerate(deal_for(entry.code).plan):
        races.play_pair(ana, room.code, sorted(pair), n, now=now + timedelta(seconds=n))
    races.give_up(bo, room.code, now=now + timedelta(minutes=2))
    entry.refresh_from_db()
    assert entry.cpu_pairs == 0
    assert entry.pk in [e.pk for e in leaderboards.fastest_race_wins(entry_level(race))]


def test_the_results_say_how_many_pairs_a_stand_in_made():
    room, (ana, bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code, seed=3)
    now = race.go_at + timedelta(seconds=1)
    stand_in_plays_on(race.entries.get(seat__player=ana), now)
    races.give_up(bo, room.code, now=now + timedelta(minutes=9))
    race.refresh_from_db()
    rows = {row["nickname"]: row for row in results_json(race)}
    assert rows["Ana"]["cpu_pairs"] == rows["Ana"]["pairs"] > 0
    assert rows["Bo"]["cpu_pairs"] == 0


def test_a_ranked_board_a_stand_in_mostly_played_is_rated_as_given_up():
    race, (ana, bo, cy), now = ranked_race("Ana", "Bo", "Cy")
    play_pairs(race, ana, 2, now)  # Ana plays 2 pairs herself, then is away
    play_pairs(race, cy, 5, now)  # Cy plays 5 and gives up
    races.give_up(cy, race.room.code, now=now)
    ana_entry = stand_in_plays_on(race.entries.get(seat__player=ana), now)
    assert ana_entry.status == Entry.Status.FINISHED  # her stand-in cleared the board
    races.give_up(bo, race.room.code, now=now + timedelta(minutes=5))  # Bo: 0 pairs
    race.refresh_from_db()
    assert race.status == "finished"
    assert race.entries.get(seat__player=ana).place == 1  # the race's own result stands
    # Rated: Cy gave up at 5 pairs, Ana "gave up" at her own 2, Bo at 0.
    assert rated_places.rated_standing(ana_entry).status == Entry.Status.GAVE_UP
    ratings = {r.player_id: r.value for r in Rating.objects.all()}
    assert ratings[cy.pk] > ratings[ana.pk] > ratings[bo.pk]
