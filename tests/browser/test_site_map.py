"""Every page the site serves, walked in a real Chromium in both languages: it fits a
390 px phone (a wide table scrolls inside its own box, nothing widens the page), and no
number drawn into an SVG goes through the page's locale (a Spanish "14,5" is no number
to SVG). The data makes pages as full as they get: players with wins and long nicknames,
a finished race with its replay, a stored layout, a rating history."""

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from layouts.actions import store_layout
from practice.models import SoloGame
from records.leaderboards import daily_code, today
from rooms.lobby import actions as lobby
from tests.accounts.accounts_helpers import make_account, won_game
from tests.browser.browser_helpers import PHONE, page_for, server_side
from tests.layouts.layouts_helpers import flat_text
from tests.replays.test_replays import a_finished_race
from tests.rooms.rooms_helpers import room_with

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


# Attributes whose value is numbers only (points: "x,y x,y", the comma between a pair).
SVG_NUMBERS = """() => {
    const plain = /^\\s*-?[\\d.]+(e-?\\d+)?(\\s+-?[\\d.]+(e-?\\d+)?)*\\s*$/;
    const pairs = /^\\s*(-?[\\d.]+,-?[\\d.]+\\s*)*$/;
    const call = /^\\s*([a-z]+\\(\\s*-?[\\d.]+(\\s+-?[\\d.]+)*\\s*\\)\\s*)*$/i;
    const bad = [];
    for (const el of document.querySelectorAll("svg, svg *")) {
        for (const attr of el.attributes) {
            const value = attr.value;
            const ok = attr.name === "transform" ? call.test(value)
                : attr.name === "points" ? pairs.test(value)
                : ["viewBox", "x", "y", "width", "height", "cx", "cy", "r", "rx", "ry",
                   "x1", "x2", "y1", "y2", "stroke-width"].includes(attr.name)
                  ? plain.test(value) || value.endsWith("%")
                : true;
            if (!ok) bad.push(`<${el.tagName} ${attr.name}="${value}">`);
        }
    }
    return bad.slice(0, 5);
}"""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_no_page_is_wider_than_a_phone_and_every_svg_number_is_a_number(
    asgi_server, new_device, lang
):
    """One walk of the site map on a phone in each language: nothing widens a page, and
    no number in an SVG went through the page's locale (what a Spanish page risks)."""
    data = server_side(wide_data)
    page = page_for(new_device, asgi_server, data["player"], PHONE, lang)
    too_wide = {}
    unreadable = {}
    for path in data["paths"]:
        page.goto(f"{asgi_server.url}{path}")
        expect(page.locator("footer")).to_be_attached()
        page.wait_for_load_state("networkidle")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            too_wide[path] = width
        bad = page.evaluate(SVG_NUMBERS)
        if bad:
            unreadable[path] = bad
    assert too_wide == {}
    assert unreadable == {}


def test_every_forms_button_is_one_of_the_sites_buttons(asgi_server, new_device):
    """No page keeps a browser's grey default button: each is styled by site.css or by
    its page's own sheet (the board's, the editor's)."""
    data = server_side(wide_data)
    page = page_for(new_device, asgi_server, data["player"], PHONE)
    grey = {}
    for path in ("/me/", "/accounts/login/", "/accounts/signup/", "/layouts/new/"):
        page.goto(f"{asgi_server.url}{path}")
        default = page.locator("main button").evaluate_all(
            """(buttons) => buttons.filter((b) => b.checkVisibility()
                && getComputedStyle(b).backgroundColor === "rgb(239, 239, 239)")
              .map((b) => b.textContent.trim())"""
        )
        if default:
            grey[path] = default
    assert grey == {}


def test_the_spanish_home_page_draws_without_a_console_error(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None, PHONE, "es")
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{asgi_server.url}/")
    page.wait_for_load_state("networkidle")
    assert errors == []
    # The tiles are spread over the picture, not piled in its corner.
    lefts = page.locator("#board-preview g[transform]").evaluate_all(
        "(gs) => gs.map((g) => g.transform.baseVal.consolidate()?.matrix.e ?? 0)"
    )
    assert len(set(lefts)) > 5


def test_on_a_phone_each_rule_stacks_with_its_default_named(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None, PHONE, "es")
    page.goto(f"{asgi_server.url}/rules/")
    box = page.locator("#rules-table").locator("xpath=..")
    assert box.evaluate("(el) => el.scrollWidth <= el.clientWidth")  # nothing to scroll to
    level = page.locator("#rule-level .default")
    label = level.evaluate("(el) => getComputedStyle(el, '::before').content")
    assert label == '"Ajuste del sitio: "'
    expect(page.get_by_role("table")).to_have_count(1)  # still a table to a screen reader
