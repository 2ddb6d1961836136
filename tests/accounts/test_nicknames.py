"""One nickname rule, whatever page or socket sets it (accounts.actions.clean_nickname):
the profile form, creating and joining a room, and the ranked queue store a name alike."""

import pytest

from accounts.models import NICKNAME_MAX_LENGTH, Player
from rooms.lobby import actions as lobby
from rooms.models import Seat
from rooms.ranked import actions as ranked
from tests.accounts.accounts_helpers import device_player
from tests.rooms.rooms_helpers import refused, room_with

pytestmark = pytest.mark.django_db

TYPED = "  Jose\u0301   Bo "  # a decomposed é, runs of spaces, spaces around
STORED = "Jos\u00e9 Bo"


def test_the_profile_form_stores_the_name_by_the_one_rule(client):
    client.get("/me/")
    assert client.post("/me/", {"nickname": TYPED}).status_code == 302
    assert device_player(client).nickname == STORED


def test_creating_a_room_stores_the_name_and_the_seat_alike(client):
    response = client.post("/rooms/new", {"nickname": TYPED})
    assert response.status_code == 302
    player = device_player(client)
    assert player.nickname == STORED
    assert Seat.objects.get(player=player).nickname == STORED


def test_joining_a_room_and_the_ranked_queue_store_the_name_alike():
    room, _ = room_with("Ana")
    joiner, waiter = Player.objects.create(), Player.objects.create()
    seat = lobby.join_room(joiner, room.code, TYPED)
    ranked.join_queue(waiter, "easy", TYPED)
    joiner.refresh_from_db(), waiter.refresh_from_db()
    assert (seat.nickname, joiner.nickname, waiter.nickname) == (STORED, STORED, STORED)


@pytest.mark.parametrize("bad", ["", "   ", "tab\there", "x" * (NICKNAME_MAX_LENGTH + 1), 7])
def test_every_road_refuses_what_the_profile_refuses_and_stores_nothing(bad):
    room, _ = room_with("Ana")
    player = Player.objects.create(nickname="Before")
    for action in (
        lambda: lobby.create_room(player, bad),
        lambda: lobby.join_room(player, room.code, bad),
        lambda: ranked.join_queue(player, "easy", bad),
    ):
        refused("bad_nickname", action)
    player.refresh_from_db()
    assert player.nickname == "Before" and not Seat.objects.filter(player=player).exists()


def test_the_pages_limit_the_field_to_the_one_length(client):
    page = client.get("/rooms/").content.decode()
    assert f'maxlength="{NICKNAME_MAX_LENGTH}"' in page
