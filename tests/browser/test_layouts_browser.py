"""The layout pages in a real Chromium: the picker's filter by name, a pasted file played,
a room's layout chosen in its rules (docs/LAYOUTS.md)."""

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from layouts.actions import store_layout
from layouts.models import StoredLayout
from rooms.models import Room
from tests.browser.browser_helpers import DESKTOP, PHONE, page_for, server_side, shoot
from tests.layouts.layouts_helpers import beginner_text, flat_text
from tests.rooms.rooms_helpers import room_with

pytestmark = pytest.mark.usefixtures("fresh_check_counts", "fresh_deal_caches")


def shared_layouts():
    maker = Player.objects.create()
    store_layout(flat_text(16), maker, "Quokka gate")
    store_layout(flat_text(24), maker, "Zanzibar castle")


def test_the_picker_filters_by_name_as_you_type(asgi_server, page):
    shared_layouts()
    page.goto(f"{asgi_server.url}/layouts/")
    picks = page.locator(".pick:visible")
    total = picks.count()
    assert total >= 10  # the catalog and the two shared layouts
    page.get_by_label("Find a layout").fill("quokka")
    expect(picks).to_have_count(1)
    expect(picks.first).to_contain_text("Quokka gate")
    expect(page.locator(".picker-group:visible")).to_have_text(["Shared by players"])
    page.get_by_label("Find a layout").fill("zzz")
    expect(picks).to_have_count(0)
    expect(page.get_by_text("No layout has that name.")).to_be_visible()
    page.get_by_label("Find a layout").fill("")
    expect(picks).to_have_count(total)


def test_new_game_offers_stored_layouts_and_plays_one(asgi_server, page):
    shared_layouts()
    page.goto(f"{asgi_server.url}/play/")
    page.get_by_role("button", name="New game", exact=True).click()
    page.locator("#layout-picker summary").click()
    page.get_by_label("Find a layout").fill("zanzibar")
    page.locator(".pick:visible").click()
    expect(page.locator(".tile")).to_have_count(24)


def test_a_pasted_layout_is_checked_stored_shared_and_played(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None, viewport=PHONE)
    page.goto(f"{asgi_server.url}/layouts/new/")
    page.get_by_label("…or its text").fill(beginner_text())
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#layout-check")).to_contain_text(
        "34 tiles, and games dealt on it can be cleared"
    )
    shoot(page, "layouts-checked-phone")
    page.get_by_label("Its name").fill("Small pyramid")
    page.get_by_role("button", name="Store and share").click()
    expect(page.locator("h1")).to_have_text("Small pyramid")
    assert "/layouts/" in page.locator("#share-link").input_value()
    shoot(page, "layouts-share-phone")
    page.get_by_role("link", name="Play it").click()
    expect(page.locator(".tile")).to_have_count(34)


def test_store_and_play_asks_for_a_name_then_opens_a_board(asgi_server, page):
    page.goto(f"{asgi_server.url}/layouts/new/")
    page.get_by_label("…or its text").fill(beginner_text())
    page.get_by_role("button", name="Store and play").click()
    # The browser asks for the name; nothing was sent.
    assert page.get_by_label("Its name").evaluate("(el) => el.validity.valueMissing")
    assert not StoredLayout.objects.exists()
    page.get_by_label("Its name").fill("Small pyramid")
    page.get_by_role("button", name="Store and play").click()
    expect(page.locator(".tile")).to_have_count(34)
    assert StoredLayout.objects.get().title_en == "Small pyramid"


def test_the_upload_pages_buttons_look_like_the_sites_buttons(asgi_server, page):
    page.goto(f"{asgi_server.url}/layouts/new/")
    body_font = page.evaluate("getComputedStyle(document.body).fontFamily")
    for name in ("Check", "Store and play", "Store and share"):
        look = page.get_by_role("button", name=name).evaluate(
            "(b) => [getComputedStyle(b).fontFamily, getComputedStyle(b).borderRadius]"
        )
        assert look[0] == body_font and look[1] != "0px"  # not the browser's grey box
    primary = page.get_by_role("button", name="Store and play")
    assert primary.evaluate("(b) => getComputedStyle(b).color") == "rgb(255, 255, 255)"


def test_a_malformed_paste_shows_the_line_at_fault(asgi_server, page):
    page.goto(f"{asgi_server.url}/layouts/new/")
    text = beginner_text().splitlines()
    text[5] = text[5][:-1] + "x"
    page.get_by_label("…or its text").fill("\n".join(text))
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#layout-error")).to_contain_text("Line 6:")
    shoot(page, "layouts-error")


def test_the_owner_chooses_a_rooms_layout_in_its_rules(asgi_server, new_device):
    room, (owner,) = room_with("Ana")
    store_layout(flat_text(16), owner, "Quokka gate")
    page = page_for(new_device, asgi_server, owner, viewport=DESKTOP)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator("#layout-current")).to_have_text("the level’s")
    level = page.locator("#rules select[name=level]")
    expect(level).to_be_visible()
    page.locator("#layout-rule summary").click()
    page.get_by_label("Find a layout").fill("quokka")
    page.locator(".pick:visible").click()
    expect(page.locator("#layout-current")).to_have_text("Quokka gate")
    shoot(page, "layouts-room-rules")

    def layout():
        return Room.objects.get(pk=room.pk).layout

    expect(page.locator("#layout-current")).to_have_text("Quokka gate")
    for _ in range(50):
        if server_side(layout).startswith("U"):
            break
        page.wait_for_timeout(100)
    assert server_side(layout).startswith("U")
    expect(level).to_be_hidden()  # a chosen layout makes the level moot
    expect(page.locator("#rules input[name=handicap]")).to_be_hidden()
