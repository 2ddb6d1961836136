"""Open rooms (rooms/lobby/open_rooms.py; the `public` message in docs/PROTOCOL.md): an owner
lists a room on /rooms/ for anyone to join. It is listed while it waits in its lobby
with a seat free, never while its race runs, never when private (the default) and never
when ranked; the list is drawn by the server and
kept current by the page (rooms/static/rooms/open_rooms.js).
In Chromium: tests/browser/test_open_rooms_browser.py."""

import html
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Player
from mahjong.rules import MAX_SEATS
from rooms.lobby import actions as lobby
from rooms.lobby.open_rooms import open_rooms
from rooms.models import Room
from rooms.race import actions as races
from tests.rooms.rooms_helpers import Socket, close_all, db, refused, room_with, seated

EMPTY_LINE = "No open rooms right now: create one and tick 'Listed'"


def listed(client=None, **headers) -> list[dict]:
    response = (client or Client()).get("/rooms/open.json", **headers)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    return response.json()["rooms"]


def listed_codes() -> list[str]:
    return [row["code"] for row in listed()]


def rooms_page() -> str:
    """/rooms/ as the server draws it (no JavaScript), its character references read."""
    return html.unescape(Client().get("/rooms/").content.decode())


def public_room(*nicknames, cpus=()):
    room, players = room_with(*nicknames, cpus=cpus)
    lobby.set_public(players[0], room.code, True)
    return room, players


# --- the list: what it shows, and when a room is on it ----------------------------------
@pytest.mark.django_db
def test_a_public_room_is_listed_in_the_json_with_what_a_player_needs_to_choose():
    room, (ana, bo) = room_with("Ana", "Bo")
    changes = {"level": "medium", "flowers": True, "hints": 1, "shuffles": 0}
    lobby.update_rules(ana, room.code, {**changes, "time_limit_minutes": 5})
    assert listed() == []  # private by default
    lobby.set_public(ana, room.code, True)
    assert listed() == [
        {
            "code": room.code,
            "owner": "Ana",
            "level": "medium",
            "level_label": "Medium",
            "seats": 2,
            "humans": 2,
            "cpus": 0,
            "max_seats": MAX_SEATS,
            "seats_label": "2/20 players",
            "rules": {"flowers": True, "time_limit_minutes": 5, "hints": 1, "shuffles": 0},
            "summary": "Flowers on · 5 min · 1 hint · 0 shuffles",
            "url": f"/rooms/{room.code}/",
            "join_label": "Join Ana's room",
        }
    ]


@pytest.mark.django_db
def test_the_player_count_counts_humans_and_says_the_cpus_apart():
    public_room("Ana", "Bo", cpus=("steady", "steady"))
    (row,) = listed()
    assert (row["seats"], row["humans"], row["cpus"]) == (4, 2, 2)
    assert row["seats_label"] == "2/20 players · 2 CPUs"
    assert "2/20 players · 2 CPUs" in rooms_page()
    public_room("Cy", cpus=("steady",))
    assert listed()[0]["seats_label"] == "1/20 players · 1 CPU"


@pytest.mark.django_db
def test_the_list_speaks_the_players_language():
    room, _ = public_room("Ana")
    (row,) = listed(HTTP_ACCEPT_LANGUAGE="es")
    assert row["level_label"] == "Fácil"
    assert row["summary"] == "Sin flores · 10 min · 3 pistas · 3 mezclas"
    assert row["seats_label"] == "1/20 jugadores"
    assert row["join_label"] == "Unirse a la sala de Ana"


@pytest.mark.django_db
def test_the_rooms_page_draws_the_same_list_without_javascript():
    assert EMPTY_LINE in rooms_page()
    room, _ = public_room("Ana", "Bo")
    page = rooms_page()
    assert f'href="/rooms/{room.code}/"' in page
    assert '''aria-label="Join Ana's room"''' in page
    assert "2/20 players" in page and "Flowers off · 10 min · 3 hints · 3 shuffles" in page
    assert '<p id="open-empty" class="muted" hidden>' in page
    assert "/static/rooms/open_rooms" in page and "<script>" not in page  # no inline script


@pytest.mark.django_db
def test_the_newest_rooms_come_first_and_the_list_is_cut_at_its_limit():
    codes = [public_room(f"Host {n}")[0].code for n in range(3)]
    assert listed_codes() == codes[::-1]
    assert [row["code"] for row in open_rooms(limit=2)] == codes[:0:-1]


@pytest.mark.django_db
def test_a_room_leaves_the_list_when_it_fills_and_is_back_when_a_seat_frees():
    room, (ana,) = public_room("Ana", cpus=["steady"] * (MAX_SEATS - 2))
    assert listed_codes() == [room.code]
    lobby.add_cpu(ana, room.code, "sharp")  # the 20th seat
    assert listed_codes() == []
    assert room.code not in rooms_page()
    cpu_seat = room.seats.exclude(player=ana).last()
    lobby.remove_seat(ana, room.code, cpu_seat.pk)
    assert listed_codes() == [room.code]


@pytest.mark.django_db
def test_a_room_leaves_the_list_while_its_race_runs_and_is_back_in_its_lobby_after(settings):
    settings.RACE_COUNTDOWN_SECONDS = 0
    room, (ana, bo) = public_room("Ana", "Bo")
    race = races.start_race(ana, room.code, seed=4)
    assert listed_codes() == []
    assert room.code not in rooms_page()
    for player in (ana, bo):  # the last human done ends the race
        races.give_up(player, room.code, now=race.go_at + timedelta(seconds=5))
    assert listed_codes() == [room.code]


@pytest.mark.django_db
def test_a_room_made_private_again_leaves_the_list():
    room, (ana,) = public_room("Ana")
    lobby.set_public(ana, room.code, False)
    assert listed_codes() == []
    assert not Room.objects.get(pk=room.pk).public


@pytest.mark.django_db
def test_private_rooms_and_ranked_rooms_are_never_listed():
    room_with("Ana", "Bo")  # private: the default
    ranked_room = lobby.create_ranked_room([Player.objects.create() for _ in range(2)], "easy")
    owner = ranked_room.owner
    refused("ranked", lobby.set_public, owner, ranked_room.code, True)
    Room.objects.filter(pk=ranked_room.pk).update(public=True)  # even if it were marked
    assert listed_codes() == []
    assert EMPTY_LINE in rooms_page()


@pytest.mark.django_db
def test_only_the_owner_lists_a_room_and_only_with_true_or_false():
    room, (ana, bo) = room_with("Ana", "Bo")
    refused("not_owner", lobby.set_public, bo, room.code, True)
    refused("not_owner", lobby.set_public, None, room.code, True)
    for wrong in ("yes", 1, 0, None, [], {"public": True}):
        refused("bad_message", lobby.set_public, ana, room.code, wrong)
    refused("no_room", lobby.set_public, ana, "NOPE42", True)
    assert listed_codes() == []


# --- the socket message -------------------------------------------------------------------
def room_row(code):
    return db(lambda: Room.objects.values_list("public", "version").get(code=code))()


async def no_lobby_event(socket) -> bool:
    """No `lobby` event reaches the socket within 0.3 s (other kinds may: a count of
    watchers, say)."""
    while not await socket.ws.receive_nothing(timeout=0.3):
        if (await socket.next())["type"] == "lobby":
            return False
    return True


@pytest.mark.django_db(transaction=True)
async def test_the_owners_public_message_is_acknowledged_and_everyone_sees_it():
    room, players, (ana, bo) = await seated("Ana", "Bo")
    version = (await bo.ask(type="snapshot"))["v"]
    assert (await ana.ask(type="snapshot"))["room"]["public"] is False
    assert (await ana.ask(type="public", public=True))["type"] == "ack"
    event = await bo.next("lobby")
    assert (event["v"], event["room"]["public"]) == (version + 1, True)
    assert await room_row(room.code) == (True, version + 1)
    assert [row["code"] for row in await db(open_rooms)()] == [room.code]
    assert (await ana.ask(type="public", public=False))["type"] == "ack"
    assert (await bo.next("lobby"))["room"]["public"] is False
    assert await db(open_rooms)() == []
    await close_all([ana, bo])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "who, message, code",
    [
        ("bo", {"public": True}, "not_owner"),
        ("ana", {"public": "yes"}, "bad_message"),
        ("ana", {"public": 1}, "bad_message"),
        ("ana", {}, "bad_message"),
        ("stranger", {"public": True}, "no_seat"),
    ],
)
async def test_a_public_message_refused_says_why_and_changes_nothing(who, message, code):
    room, players, (ana, bo) = await seated("Ana", "Bo")
    stranger = Socket(room.code)
    await stranger.open()
    before = await room_row(room.code)
    socket = {"ana": ana, "bo": bo, "stranger": stranger}[who]
    answer = await socket.ask(type="public", **message)
    assert (answer["type"], answer["code"]) == ("error", code) and answer["message"]
    assert await room_row(room.code) == before
    assert await no_lobby_event(ana)
    await close_all([ana, bo, stranger])


# --- in the browser -------------------------------------------------------------------


@pytest.mark.django_db
def test_a_public_room_nobody_has_open_leaves_the_list_by_itself():
    room, (ana,) = public_room("Ana")
    Room.objects.filter(pk=room.pk).update(created_at=timezone.now() - timedelta(minutes=3))
    assert room.code not in listed_codes()  # made 3 minutes ago, nobody seen since
    lobby.seat_seen(room.seats.get(player=ana).pk)  # Ana's page pings
    assert room.code in listed_codes()
