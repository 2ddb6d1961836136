"""The /ranked/ pages: join and leave the queue, the status poll, and two Chromium
players whose waiting pages move to their race by themselves.
In Chromium: tests/browser/test_ranked_pages_browser.py."""

from datetime import timedelta

import pytest

from accounts.models import Player, Rating
from rooms.core import serializers
from rooms.models import QueueEntry, Room
from rooms.race import actions as races
from rooms.ranked import actions as ranked
from tests.accounts.accounts_helpers import device_player
from tests.ranked.test_ranked_queue import play_pairs, ranked_race
from tests.rooms.rooms_helpers import room_with


def join(client, level="easy", nickname="Ana"):
    return client.post("/ranked/join", {"level": level, "nickname": nickname})


@pytest.mark.django_db
def test_joining_from_the_page_puts_the_player_in_the_queue(client):
    assert join(client).url == "/ranked/"
    waiting = QueueEntry.objects.get(player=device_player(client))
    assert waiting.level == "easy" and waiting.player.nickname == "Ana"
    page = client.get("/ranked/").content.decode()
    assert "Easy: 1 waiting" in page and "Leave the queue" in page
    assert client.get("/ranked/status").json()["waiting"] is True


@pytest.mark.django_db
@pytest.mark.parametrize("level, nickname", [("expert", "Ana"), ("", "Ana"), ("easy", " ")])
def test_a_bad_join_is_refused_with_a_message_and_queues_nobody(client, level, nickname):
    response = join(client, level, nickname)
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert not QueueEntry.objects.exists()


@pytest.mark.django_db
def test_leaving_from_the_page_empties_the_queue(client):
    join(client)
    assert client.post("/ranked/leave").url == "/ranked/"
    assert not QueueEntry.objects.exists()
    assert client.get("/ranked/status").json() == {"waiting": False, "room": None}


@pytest.mark.django_db
def test_the_status_poll_forms_a_due_group_and_points_to_the_room(client, settings):
    settings.RANKED_WAIT_SECONDS = 0
    other = Player.objects.create()
    from rooms.ranked import actions as ranked

    ranked.join_queue(other, "easy", "Bo")
    join(client)  # the join itself groups the two at once: the wait is over
    state = client.get("/ranked/status").json()
    room = Room.objects.get(ranked=True)
    assert state == {"waiting": False, "room": room.code, "url": f"/rooms/{room.code}/"}
    assert "Back to your ranked race" in client.get("/ranked/").content.decode()


@pytest.mark.django_db
def test_a_join_that_completes_a_due_group_goes_straight_to_the_race(client, settings):
    settings.RANKED_WAIT_SECONDS = 0
    from rooms.ranked import actions as ranked

    ranked.join_queue(Player.objects.create(), "easy", "Bo")
    response = join(client)
    room = Room.objects.get(ranked=True)
    assert response.url == f"/rooms/{room.code}/"
    assert room.seats.filter(player=device_player(client)).exists()


@pytest.mark.django_db
def test_a_ranked_room_page_offers_no_join_and_refuses_one(client, settings):
    settings.RANKED_WAIT_SECONDS = 0
    from rooms.ranked import actions as ranked

    ranked.join_queue(Player.objects.create(), "easy", "Bo")
    ranked.join_queue(Player.objects.create(), "easy", "Cy")
    (code,) = ranked.form_groups("easy")
    page = client.get(f"/rooms/{code}/").content.decode()
    assert 'id="ranked-note"' in page and 'id="join-nickname"' not in page
    response = client.post(f"/rooms/{code}/join", {"nickname": "Late"})
    assert response.status_code == 400
    assert "queue" in response.content.decode()
    assert Room.objects.get(code=code).seats.count() == 2


# --- ratings where players look, the countdown, what a ranked room leaves out ---------
@pytest.mark.django_db
def test_the_queue_shows_the_players_rating_with_a_question_mark_while_provisional(client):
    page = client.get("/ranked/").content.decode()
    assert "Your rating: 1500?" in page  # unrated: 1500, provisional
    join(client)
    Rating.objects.create(player=device_player(client), value=1623.4, deviation=80)
    assert "Your rating: 1623<" in client.get("/ranked/").content.decode()  # established


@pytest.mark.django_db
def test_a_ranked_rooms_seats_carry_each_rating_and_a_friends_room_none(settings):
    settings.RANKED_WAIT_SECONDS = 0
    ana, bo = Player.objects.create(), Player.objects.create()
    Rating.objects.create(player=bo, value=1712.2, deviation=300)
    ranked.join_queue(ana, "easy", "Ana")
    ranked.join_queue(bo, "easy", "Bo")
    (code,) = ranked.form_groups("easy")
    seats = serializers.room_json(Room.objects.get(code=code))["seats"]
    assert {s["nickname"]: s["rating"] for s in seats} == {"Ana": "1500?", "Bo": "1712?"}
    room, _players = room_with("Cy", "Di")
    assert {s["rating"] for s in serializers.room_json(room)["seats"]} == {None}


@pytest.mark.django_db
def test_the_results_read_each_rating_before_and_after_the_race():
    race, (ana, bo), now = ranked_race("Ana", "Bo")
    play_pairs(race, ana, 2, now)
    races.give_up(ana, race.room.code, now=now)
    races.give_up(bo, race.room.code, now=now)
    race.refresh_from_db()
    rows = {r["nickname"]: r for r in serializers.results_json(race)}
    after = {p: f"{Rating.objects.get(player=p).shown}?" for p in (ana, bo)}
    assert (rows["Ana"]["rating_from"], rows["Ana"]["rating_to"]) == ("1500?", after[ana])
    assert (rows["Bo"]["rating_from"], rows["Bo"]["rating_to"]) == ("1500?", after[bo])
    assert rows["Ana"]["rating_change"] > 0 > rows["Bo"]["rating_change"]


@pytest.mark.django_db
def test_a_ranked_race_gathers_its_players_before_its_whole_countdown(settings):
    settings.RANKED_GATHER_SECONDS, settings.RACE_COUNTDOWN_SECONDS = 4, 3
    race, _players, _now = ranked_race("Ana", "Bo")
    assert race.go_at - race.started_at == timedelta(seconds=7)
    shown = serializers.race_json(race)
    assert shown["countdown_at"] == (race.go_at - timedelta(seconds=3)).isoformat()
    room, (cy, _di) = room_with("Cy", "Di")
    friends = races.start_race(cy, room.code)
    assert friends.go_at - friends.started_at == timedelta(seconds=3)  # no gathering


@pytest.mark.django_db
def test_a_ranked_race_page_has_no_way_back_to_the_queue_mid_race_and_no_room_table(client):
    race, _players, _now = ranked_race("Ana", "Bo")
    page = client.get(f"/rooms/{race.room.code}/").content.decode()
    assert "Back to the ranked queue" not in page
    assert '<ol id="room-table" hidden>' in page
    assert 'id="queue-again"' not in page  # a visitor: nothing to queue again for
