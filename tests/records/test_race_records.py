"""Races in the records: the fastest race wins per level, the profile's recent races, and
a device's seats following it into an account."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import actions as accounts_actions
from accounts.models import Player
from records import leaderboards
from records import statistics as records
from rooms.core.boards import deal_for
from rooms.lobby import actions as lobby
from rooms.models import QueueEntry, Seat
from rooms.race import actions as races
from rooms.ranked import actions as ranked
from tests.accounts.accounts_helpers import make_account
from tests.rooms.rooms_helpers import everyone_ready, room_with

pytestmark = pytest.mark.django_db
T0 = timezone.now()


def finish(race, player, seconds):
    """Play the whole plan at an even human pace; the last pair lands `seconds` after go."""
    entry = race.entries.get(seat__player=player)
    plan = deal_for(entry.code).plan
    for n, pair in enumerate(plan):
        at = race.go_at + timedelta(seconds=seconds * (n + 1) / len(plan))
        races.play_pair(player, race.room.code, list(pair), n, now=at)


def give_up(race, player):
    races.give_up(player, race.room.code, now=race.go_at + timedelta(seconds=1))


@pytest.fixture
def two_races():
    """Race 1: Ana 1:00, Bo 1:10, Cy 11:00 (after the 10-minute limit). Race 2: Ana 0:50,
    Bo and Cy give up."""
    room, (ana, bo, cy) = room_with("Ana", "Bo", "Cy")
    lobby.update_rules(ana, room.code, {"level": "beginner"})
    first = races.start_race(ana, room.code, now=T0)
    finish(first, ana, 60)
    finish(first, bo, 70)
    finish(first, cy, 660)
    everyone_ready(ana, room.code, now=T0 + timedelta(minutes=19))
    second = races.start_race(ana, room.code, now=T0 + timedelta(minutes=20))
    finish(second, ana, 50)
    give_up(second, bo)
    give_up(second, cy)
    return ana, bo, cy


def test_the_race_board_keeps_each_players_fastest_win_within_the_time_limit(two_races):
    rows = leaderboards.fastest_race_wins("beginner")
    assert [(e.seat.nickname, e.finished_ms) for e in rows] == [("Ana", 50_000), ("Bo", 70_000)]
    assert leaderboards.fastest_race_wins("easy") == []


def test_the_leaderboards_page_shows_race_wins_per_level(client, two_races):
    page = client.get("/leaderboards/").content.decode()
    races = page[page.index('id="races"') : page.index('id="practice"')]
    assert "Beginner" in races and "0:50" in races and "1:10" in races
    assert "Cy" not in races and "Easy" not in races


def test_an_empty_site_has_no_race_wins(client):
    assert "No race won in time yet." in client.get("/leaderboards/").content.decode()


def test_the_profile_lists_recent_races_with_place_and_points(client, two_races):
    ana, bo, cy = two_races
    assert [(e.race.number, e.place, float(e.points)) for e in records.recent_races(bo)] == [
        (2, 2, 0.0),  # gave up, tied with Cy
        (1, 2, 1.0),
    ]
    page = client.get(f"/players/{ana.pk}/").content.decode()
    table = page[page.index('id="recent-races-table"') :]
    assert table.count("1/3") == 2 and "0:50" in table


def test_a_merge_moves_the_devices_seats_except_where_the_account_sits_already():
    account = Player.objects.create(user=make_account(), nickname="Mei")
    device = Player.objects.create(nickname="Mei phone")
    own_room, _ = room_with("Dee")
    lobby.join_room(device, own_room.code, "Mei phone")
    shared_room, _ = room_with("Eve")
    lobby.join_room(device, shared_room.code, "Mei phone")
    lobby.join_room(account, shared_room.code, "Mei")
    device_room = lobby.create_room(device, "Mei phone")

    assert accounts_actions.sign_in_device(account.user, device) == account
    assert Seat.objects.get(room=own_room, nickname="Mei phone").player == account
    assert Seat.objects.get(room=shared_room, nickname="Mei phone").player == device
    assert Seat.objects.get(room=shared_room, nickname="Mei").player == account
    device_room.refresh_from_db()
    assert device_room.owner == account
    assert device_room.seats.get().player == account


def test_a_merge_moves_the_devices_place_in_the_ranked_queue():
    account = Player.objects.create(user=make_account())
    device = Player.objects.create()
    ranked.join_queue(device, "hard", "Mei", now=T0)
    accounts_actions.sign_in_device(account.user, device)
    assert QueueEntry.objects.get().player == account
