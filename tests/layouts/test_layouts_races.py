"""Races on any built-in or stored layout: a room rule (docs/RULES.md §Local rules and
site defaults, docs/LAYOUTS.md §Races)."""

from datetime import timedelta

import pytest

from accounts.models import Player
from layouts.actions import store_layout
from layouts.models import StoredLayout
from mahjong.deals import parse_any_code
from rooms.core.boards import deal_for
from rooms.lobby import actions as lobby
from rooms.models import Race, Room, SiteDefaults
from rooms.race import actions as races
from tests.layouts.layouts_helpers import flat_text
from tests.rooms.rooms_helpers import everyone_ready, refused, room_with, started

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_deal_caches")]


def test_a_room_on_a_stored_layout_races_on_it_to_the_end():
    room, (owner, guest) = room_with("Ana", "Bo")
    stored = store_layout(flat_text(24), guest, "Two rows")
    lobby.update_rules(owner, room.code, {"layout": f"U{stored.pk}"})
    race, now = started(room, owner)
    entries = list(race.entries.all())
    assert len({e.code for e in entries}) == 1, "everyone races the same deal"
    code = entries[0].code
    assert parse_any_code(code)[:2] == ("U", stored.pk)
    assert all(e.tile_count == 24 for e in entries)
    assert race.rules["layout"] == f"U{stored.pk}"
    races.give_up(guest, room.code, now=now)
    for n, pair in enumerate(deal_for(code).plan):
        races.play_pair(owner, room.code, list(pair), n, now=now)
    race.refresh_from_db()
    assert race.status == Race.Status.FINISHED
    assert race.entries.get(seat__player=owner).status == "finished"


def test_a_room_on_a_library_layout_races_on_it():
    room, (owner,) = room_with("Ana")
    lobby.update_rules(owner, room.code, {"layout": "turtle", "level": "beginner"})
    race, _ = started(room, owner)
    entry = race.entries.get()
    assert entry.code.startswith("MJ1-L00-") and entry.tile_count == 144


def test_the_handicap_is_for_the_level_choices_only():
    room, (owner, guest) = room_with("Ana", "Bo")
    stored = store_layout(flat_text(16), owner)
    lobby.update_rules(
        owner, room.code, {"handicap": True, "level": "beginner", "layout": f"U{stored.pk}"}
    )
    race, now = started(room, owner)
    races.give_up(guest, room.code, now=now)
    for n, pair in enumerate(deal_for(race.entries.get(seat__player=owner).code).plan):
        races.play_pair(owner, room.code, list(pair), n, now=now)
    everyone_ready(owner, room.code, now=now)
    second, _ = started(room, owner, at=now + timedelta(minutes=1))
    codes = {e.seat.player_id: e.code for e in second.entries.select_related("seat")}
    assert codes[owner.pk] == codes[guest.pk], "the winner races the same deal"
    assert second.entries.get(seat__player=owner).tile_count == 16


def test_an_unknown_or_hidden_layout_is_refused_and_changes_nothing():
    room, (owner,) = room_with("Ana")
    stored = store_layout(flat_text(16), owner)
    StoredLayout.objects.filter(pk=stored.pk).update(hidden=True)
    for key in ("U999999", f"U{stored.pk}", "no-such-layout", 7, "U0"):
        refused("bad_rules", lobby.update_rules, owner, room.code, {"layout": key})


def test_the_level_is_the_default_and_can_be_chosen_again():
    room, (owner,) = room_with("Ana")
    assert room.layout == ""
    lobby.update_rules(owner, room.code, {"layout": "turtle"})
    lobby.update_rules(owner, room.code, {"layout": ""})
    race, _ = started(room, owner)
    assert race.entries.get().code.startswith("MJ1-L02-")  # Easy, the site default


def test_ranked_rooms_stay_on_the_levels():
    defaults = SiteDefaults.load()
    defaults.layout = "turtle"
    defaults.save()
    players = [Player.objects.create(nickname=n) for n in ("Ana", "Bo")]
    room = lobby.create_ranked_room(players, "beginner")
    assert room.layout == ""


def test_the_room_page_offers_the_picker_with_the_rooms_layout_checked(client):
    from accounts.identity import COOKIE_NAME, signed_token

    room, (owner,) = room_with("Ana")
    stored = store_layout(flat_text(16), owner, "Domino street")
    lobby.update_rules(owner, room.code, {"layout": f"U{stored.pk}"})
    client.cookies[COOKIE_NAME] = signed_token(owner.device_token)
    page = client.get(f"/rooms/{room.code}/").content.decode()
    assert "Domino street" in page
    assert f'value="U{stored.pk}" checked' in page


def test_race_friends_on_it_creates_a_room_on_that_layout(client):
    stored = store_layout(flat_text(16), Player.objects.create(), "Domino street")
    share = client.get(f"/layouts/{stored.pk}/").content.decode()
    assert f'href="/rooms/?layout=U{stored.pk}"' in share
    home = client.get(f"/rooms/?layout=U{stored.pk}").content.decode()
    assert "Domino street" in home and f'name="layout" value="U{stored.pk}"' in home
    created = client.post("/rooms/new", {"nickname": "Ana", "layout": f"U{stored.pk}"})
    code = created.url.strip("/").split("/")[-1]
    assert Room.objects.get(code=code).layout == f"U{stored.pk}"


def test_an_open_room_on_a_layout_is_listed_with_the_layouts_name(client):
    room, (owner,) = room_with("Ana")
    stored = store_layout(flat_text(16), owner, "Domino street")
    lobby.update_rules(owner, room.code, {"layout": f"U{stored.pk}"})
    lobby.set_public(owner, room.code, True)
    listed = client.get("/rooms/open.json").json()["rooms"]
    assert [r["level_label"] for r in listed] == ["Domino street"]
