"""A player who chose no name sits as "Player 12": the seat keeps the number and is named
where it is shown, in the reader's language ("Jugador 12" on a Spanish page), whoever
seated it and whatever language the event that carried it was built in, as CPU seats are
(tests/i18n/test_cpu_names.py; docs/PROTOCOL.md, "A seat's name").
In Chromium: tests/browser/test_screen_details.py."""

import importlib
import json
import re
from datetime import timedelta

import pytest
from django.apps import apps
from django.utils import timezone, translation

from accounts.models import Player
from arenas import queries
from rooms.core import serializers
from rooms.lobby import actions as lobby
from rooms.models import Room, Seat
from rooms.quick import actions as quick
from rooms.race import actions as races
from tests.arenas.arena_helpers import joined, new_arena, paired, race_of

pytestmark = pytest.mark.django_db


def strings_of(response) -> dict:
    found = re.search(r'<script id="strings" type="application/json">(.*?)</script>', response.text)
    return json.loads(found.group(1))


def a_nameless_player_races_now():
    """A guest with no name clicks Race now on a Spanish page, Ana joins, it starts."""
    guest, ana = Player.objects.create(), Player.objects.create(nickname="Ana")
    now = timezone.now()
    with translation.override("es"):
        room = quick.race_now(guest, "beginner", now=now)
    quick.race_now(ana, "beginner", now=now)
    race = quick.start_if_due(room.code, now=now + timedelta(minutes=1))
    return room, race, guest, ana


def test_a_nameless_players_seat_is_stored_in_english_with_its_number_and_named_per_reader():
    room, _race, guest, ana = a_nameless_player_races_now()
    seat = room.seats.get(player=guest)
    assert (seat.nickname, seat.guest_number) == (f"Player {guest.pk}", guest.pk)
    for language, name in (("es", f"Jugador {guest.pk}"), ("en", f"Player {guest.pk}")):
        with translation.override(language):
            assert seat.name == name
    named = room.seats.get(player=ana)
    assert (named.nickname, named.guest_number, named.name) == ("Ana", None, "Ana")


def test_the_room_page_gives_its_script_the_nameless_players_name_in_spanish(client):
    room, *_rest = a_nameless_player_races_now()
    strings = strings_of(client.get(f"/rooms/{room.code}/", HTTP_ACCEPT_LANGUAGE="es"))
    assert strings["guest_name"] == "Jugador {n}"


def test_every_row_naming_a_nameless_players_seat_carries_their_number_for_the_page():
    room, race, guest, ana = a_nameless_player_races_now()
    for player in (guest, ana):
        races.give_up(player, room.code, now=race.go_at + timedelta(seconds=5))
    race.refresh_from_db()
    rows = [
        *serializers.room_json(room)["seats"],
        *serializers.standings_json(race),
        *serializers.results_json(race),
        *serializers.table_json(room),
    ]
    guests = [row for row in rows if row["guest_number"]]
    assert len(guests) == 4 and all(row["guest_number"] == guest.pk for row in guests)
    assert all(row["nickname"] == f"Player {guest.pk}" for row in guests)  # English, stored


def test_a_replay_names_a_nameless_player_in_the_readers_language(client):
    room, race, guest, ana = a_nameless_player_races_now()
    for player in (guest, ana):
        races.give_up(player, room.code, now=race.go_at + timedelta(seconds=5))
    spanish = client.get(f"/replays/race/{race.pk}.json", HTTP_ACCEPT_LANGUAGE="es")
    assert {p["nickname"] for p in spanish.json()["players"]} == {"Ana", f"Jugador {guest.pk}"}
    english = client.get(f"/replays/race/{race.pk}.json", HTTP_ACCEPT_LANGUAGE="en")
    assert {p["nickname"] for p in english.json()["players"]} == {"Ana", f"Player {guest.pk}"}


def test_an_arenas_running_race_names_a_nameless_player_in_the_readers_language():
    arena = new_arena()
    (ana,) = joined(arena, "Ana")
    paired(arena, [ana], timezone.now())
    race, _board = race_of(arena, ana)
    guest = Player.objects.create()
    Seat.for_player(race.room, guest)  # as a room seats them: no name chosen
    with translation.override("es"):
        (running,) = queries.running_races(arena)
    assert running["players"][0] == "Ana" and running["players"][-1] == f"Jugador {guest.pk}"


def test_hosted_and_ranked_rooms_seat_a_nameless_player_by_number_too():
    guest, ana = Player.objects.create(), Player.objects.create(nickname="Ana")
    for room in (
        lobby.create_ranked_room([ana, guest], "easy"),
        lobby.create_hosted_room([ana, guest], Room(level="easy").rules()),
    ):
        assert list(room.seats.values_list("nickname", "guest_number")) == [
            ("Ana", None),
            (f"Player {guest.pk}", guest.pk),
        ]


def test_seats_stored_before_their_number_get_it_from_their_stored_name():
    room, _race, guest, ana = a_nameless_player_races_now()
    seat = room.seats.get(player=guest)
    Seat.objects.filter(pk=seat.pk).update(guest_number=None, nickname=f"Jugador {guest.pk}")
    chose = Player.objects.create(nickname="Player 1")  # a name that is not their number
    other = Seat.objects.create(room=room, player=chose, nickname="Player 1")
    migration = importlib.import_module("rooms.migrations.0017_seat_guest_number")
    migration.number_guest_seats(apps, None)
    seat.refresh_from_db()
    assert (seat.nickname, seat.guest_number) == (f"Player {guest.pk}", guest.pk)
    assert Seat.objects.get(pk=other.pk).guest_number is None
    assert room.seats.get(player=ana).guest_number is None
