"""Another game in the same room goes through a ready check (docs/RULES.md §Races): the
owner offers it, each human says Ready, and those who have not within
REMATCH_READY_SECONDS sit the race out (no CPU plays for them). Injected clock."""

from datetime import timedelta

import pytest

from accounts.models import Player
from rooms.lobby import actions as lobby
from rooms.lobby import rematch
from rooms.models import Entry
from rooms.race import actions as races
from rooms.race import end as race_end
from tests.rooms.rooms_helpers import refused, room_with

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick(settings):
    settings.RACE_COUNTDOWN_SECONDS = 0
    settings.REMATCH_READY_SECONDS = 30


def after_a_race(*nicknames, cpus=()):
    """A room whose first race is over: (room, players, the race's end)."""
    room, players = room_with(*nicknames, cpus=cpus)
    race = races.start_race(players[0], room.code, seed=4)
    race_end.end_race_by_staff(room.code, now=race.go_at + timedelta(seconds=60))
    return room, players, race.go_at + timedelta(seconds=61)


def racing(race) -> set[str]:
    return set(Entry.objects.filter(race=race).values_list("seat__nickname", flat=True))


def test_the_first_race_needs_no_ready_check():
    room, (ana, bo) = room_with("Ana", "Bo")
    assert racing(races.start_race(ana, room.code, seed=1)) == {"Ana", "Bo"}


def test_everyone_ready_starts_the_next_race_at_once_with_every_seat():
    room, (ana, bo), now = after_a_race("Ana", "Bo", cpus=["steady"])
    rematch.offer_rematch(ana, room.code, now=now)
    rematch.say_ready(bo, room.code)
    race = races.start_race(ana, room.code, now=now + timedelta(seconds=2), seed=5)
    assert race.number == 2 and racing(race) == {"Ana", "Bo", "CPU 1 (Steady)"}
    room.refresh_from_db()
    assert room.offer_at is None  # the offer ends with the race it started


def test_the_last_human_to_say_ready_starts_the_race_by_itself_with_every_seat():
    room, (ana, bo, cy), now = after_a_race("Ana", "Bo", "Cy", cpus=["steady"])
    assert races.offer_another_game(ana, room.code, now=now) is None  # Bo and Cy asked
    assert races.say_ready(bo, room.code, now=now) is None  # Cy still to say it
    race = races.say_ready(cy, room.code, now=now + timedelta(seconds=3))
    assert race.number == 2 and racing(race) == {"Ana", "Bo", "Cy", "CPU 1 (Steady)"}
    assert race.go_at == now + timedelta(seconds=3)  # the countdown (0 s here) from then
    room.refresh_from_db()
    assert room.offer_at is None


def test_an_offer_with_no_other_human_to_wait_for_starts_the_race_at_once():
    room, (ana,), now = after_a_race("Ana", cpus=["steady"])
    race = races.offer_another_game(ana, room.code, now=now)
    assert race.number == 2 and racing(race) == {"Ana", "CPU 1 (Steady)"}


def test_before_the_wait_is_over_the_start_waits_for_those_not_ready_and_changes_nothing():
    room, (ana, bo), now = after_a_race("Ana", "Bo")
    rematch.offer_rematch(ana, room.code, now=now)
    message = refused(
        "not_ready", races.start_race, ana, room.code, now=now + timedelta(seconds=10)
    )
    assert "1 player" in message and "20 s" in message


def test_after_the_wait_those_not_ready_sit_the_race_out_and_no_cpu_plays_for_them():
    room, (ana, bo, cy), now = after_a_race("Ana", "Bo", "Cy")
    rematch.offer_rematch(ana, room.code, now=now)
    rematch.say_ready(cy, room.code)
    race = races.start_race(ana, room.code, now=now + timedelta(seconds=31), seed=6)
    assert racing(race) == {"Ana", "Cy"}  # Bo watches: no board, no stand-in
    assert not Entry.objects.filter(race=race, seat__player=bo).exists()


def test_a_player_who_joins_between_races_is_ready_for_the_next_one():
    room, (ana,), now = after_a_race("Ana")
    newcomer = Player.objects.create()
    lobby.join_room(newcomer, room.code, "Dee")
    rematch.offer_rematch(ana, room.code, now=now)
    race = races.start_race(ana, room.code, now=now + timedelta(seconds=1), seed=7)
    assert racing(race) == {"Ana", "Dee"}


def test_a_rematch_is_offered_before_it_starts():
    room, (ana, bo), now = after_a_race("Ana", "Bo")
    refused("no_offer", races.start_race, ana, room.code, now=now)


def test_bad_ready_checks_are_refused_and_change_nothing():
    room, (ana, bo), now = after_a_race("Ana", "Bo")
    stranger = Player.objects.create()
    refused("no_offer", rematch.say_ready, bo, room.code)  # nothing offered yet
    refused("not_owner", rematch.offer_rematch, bo, room.code, now=now)
    refused("no_seat", rematch.say_ready, stranger, room.code)
    fresh, (owner,) = room_with("Eve")
    refused("no_race", rematch.offer_rematch, owner, fresh.code)  # no race played yet
    rematch.offer_rematch(ana, room.code, now=now)
    races.start_race(ana, room.code, now=now + timedelta(seconds=31), seed=8)
    refused("race_running", rematch.say_ready, bo, room.code)
    refused("race_running", rematch.offer_rematch, ana, room.code)
