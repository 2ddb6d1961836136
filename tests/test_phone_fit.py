"""Every page the site serves fits a 390 px phone in both languages: a wide table scrolls
inside its own box, nothing widens the page. The data makes tables as wide as they get:
players with wins and long nicknames, a finished race, a stored layout."""

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from layouts.actions import store_layout
from practice.models import SoloGame
from records.leaderboards import daily_code, today
from rooms import lobby
from tests.accounts_helpers import make_account, won_game
from tests.browser_helpers import PHONE, page_for, server_side
from tests.layouts_helpers import flat_text
from tests.rooms_helpers import room_with
from tests.test_replays import a_finished_race

pytestmark = pytest.mark.usefixtures("fresh_check_counts", "fresh_deal_caches")

LONG = "Maximiliana-Wolfeschlegel"[:24]


def wide_data() -> dict:
    """Rows that make every table wide; the addresses that show them."""
    race = a_finished_race()
    mei = race.entries.get(seat__player__nickname="Bo").seat.player
    mei.nickname = LONG
    mei.save()
    for n, ms in enumerate([95_000, 612_345, 3_723_000]):
        won_game(mei, ms, hints=n)
    won_game(mei, 81_000, code=daily_code(today()))
    for name in ("Bartholomew-Featherstone", "Guadalupe-Montenegro-Ruiz"[:24]):
        won_game(Player.objects.create(nickname=name), 120_500, code=daily_code(today()))
    make_account()
    layout = store_layout(flat_text(16), mei, "Quokka gate of the long name here")
    room, (ana,) = room_with("Ana-de-los-Santos-Barrio")
    lobby.set_public(ana, room.code, True)
    game = SoloGame.objects.filter(player=mei).first()
    return {
        "player": mei,
        "paths": [
            "/",
            "/rooms/",
            f"/rooms/{room.code}/",
            "/play/",
            "/play/daily/",
            "/rules/",
            "/learn/",
            "/layouts/",
            "/layouts/new/",
            f"/layouts/{layout.pk}/",
            "/layouts/edit/",
            "/leaderboards/",
            "/records/",
            "/me/",
            f"/players/{mei.pk}/",
            f"/replays/race/{race.pk}/",
            f"/replays/game/{game.pk}/",
            "/ranked/",
            "/status/",
            "/accounts/login/",
            "/accounts/signup/",
            "/accounts/password-reset/",
        ],
    }


@pytest.mark.parametrize("lang", ["en", "es"])
def test_no_page_is_wider_than_a_phone(asgi_server, new_device, lang):
    data = server_side(wide_data)
    page = page_for(new_device, asgi_server, data["player"], PHONE, lang)
    too_wide = {}
    for path in data["paths"]:
        page.goto(f"{asgi_server.url}{path}")
        expect(page.locator("footer")).to_be_attached()
        page.wait_for_load_state("networkidle")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            too_wide[path] = width
    assert too_wide == {}
