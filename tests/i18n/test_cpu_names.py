"""A CPU seat's name is made where it is shown, in the reader's language, from its number
and level: "CPU 1 (Constante)" on a Spanish page, "CPU 1 (Steady)" on an English one,
whoever added it and whatever language the event that carried it was built in
(docs/PROTOCOL.md, "A CPU seat's name").
In Chromium: tests/browser/test_spanish_wording_browser.py."""

import importlib
import json
import re
from datetime import timedelta

import pytest
from django.apps import apps
from django.utils import timezone, translation

from arenas import queries
from rooms.core import serializers
from rooms.lobby import actions as lobby
from rooms.models import Seat
from rooms.race import actions as races
from tests.arenas.arena_helpers import joined, new_arena, paired, race_of
from tests.rooms.rooms_helpers import room_with

pytestmark = pytest.mark.django_db
SPANISH = {"relaxed": "Tranquila", "steady": "Constante", "sharp": "Ágil"}


def strings_of(response) -> dict:
    found = re.search(r'<script id="strings" type="application/json">(.*?)</script>', response.text)
    return json.loads(found.group(1))


def a_finished_race_with_a_cpu():
    room, (ana,) = room_with("Ana", cpus=["steady"])
    race = races.start_race(ana, room.code, now=timezone.now())
    races.give_up(ana, room.code, now=race.go_at + timedelta(seconds=65))
    race.refresh_from_db()
    return room, race


def test_a_cpu_seat_added_from_a_spanish_page_is_stored_in_english_and_shown_in_each_language():
    room, (ana,) = room_with("Ana")
    with translation.override("es"):
        lobby.add_cpu(ana, room.code, "steady")
    seat = room.seats.get(player=None)
    assert (seat.nickname, seat.cpu_number) == ("CPU 1 (Steady)", 1)
    for language, name in (("es", "CPU 1 (Constante)"), ("en", "CPU 1 (Steady)")):
        with translation.override(language):
            assert seat.name == name


@pytest.mark.parametrize("level", list(SPANISH))
def test_the_room_page_gives_its_script_each_cpu_levels_name_in_spanish(client, level):
    room, _players = room_with("Ana")
    strings = strings_of(client.get(f"/rooms/{room.code}/", HTTP_ACCEPT_LANGUAGE="es"))
    assert strings["cpu_names"][level] == f"CPU {{n}} ({SPANISH[level]})"


def test_every_row_naming_a_cpu_seat_carries_its_level_and_number_for_the_page():
    room, race = a_finished_race_with_a_cpu()
    seats = serializers.room_json(room)["seats"]
    rows = [
        *seats,
        *serializers.standings_json(race),
        *serializers.results_json(race),
        *serializers.table_json(room),
    ]
    cpus = [row for row in rows if row["cpu"]]
    assert len(cpus) == 4 and all(row["cpu_number"] == 1 for row in cpus)
    assert all(row["cpu"] == "steady" for row in cpus)
    humans = [row for row in rows if not row["cpu"]]
    assert humans and all(row["cpu_number"] is None for row in humans)


def test_a_replay_names_its_cpu_seat_in_the_readers_language(client):
    _room, race = a_finished_race_with_a_cpu()
    spanish = client.get(f"/replays/race/{race.pk}/", HTTP_ACCEPT_LANGUAGE="es")
    assert "CPU 1 (Constante)" in spanish.text and "(Steady)" not in spanish.text
    as_json = client.get(f"/replays/race/{race.pk}.json", HTTP_ACCEPT_LANGUAGE="es")
    assert {p["nickname"] for p in as_json.json()["players"]} == {"Ana", "CPU 1 (Constante)"}
    assert "Cookie" in as_json["Vary"] and "Accept-Language" in as_json["Vary"]
    english = client.get(f"/replays/race/{race.pk}.json", HTTP_ACCEPT_LANGUAGE="en")
    assert {p["nickname"] for p in english.json()["players"]} == {"Ana", "CPU 1 (Steady)"}


def test_an_arenas_running_race_names_its_cpus_in_the_readers_language():
    arena = new_arena()
    (ana,) = joined(arena, "Ana")
    paired(arena, [ana], timezone.now())
    race_of(arena, ana)
    with translation.override("es"):
        (running,) = queries.running_races(arena)
    assert running["players"] == [
        "Ana",
        "CPU 1 (Constante)",
        "CPU 2 (Constante)",
        "CPU 3 (Constante)",
    ]


def test_cpu_seats_stored_before_their_number_get_it_from_their_stored_name():
    room, _players = room_with("Ana")
    made = [
        Seat.objects.create(room=room, nickname=name, cpu_level=level)
        for name, level in (
            ("CPU 1 (Steady)", "steady"),
            ("CPU 2 (Ágil)", "sharp"),
            ("Bot", "relaxed"),
        )
    ]
    migration = importlib.import_module("rooms.migrations.0016_seat_cpu_number")
    migration.number_cpu_seats(apps, None)
    numbers = [Seat.objects.get(pk=seat.pk).cpu_number for seat in made]
    assert numbers == [1, 2, 3]  # a name of no known shape: its place among the CPUs
    assert room.seats.get(player__isnull=False).cpu_number is None
    with translation.override("es"):
        assert [Seat.objects.get(pk=seat.pk).name for seat in made] == [
            "CPU 1 (Constante)",
            "CPU 2 (Ágil)",
            "CPU 3 (Tranquila)",
        ]
