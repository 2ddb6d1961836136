"""Open rooms on phones in Chromium (tests/rooms/test_open_rooms.py has the rest): the
list on screen above the create form, kept current without reloading."""

import pytest
from playwright.sync_api import expect

from rooms.lobby import actions as lobby
from rooms.models import Room
from tests.browser.browser_helpers import DESKTOP, PHONE, page_for, server_side, shoot
from tests.rooms.rooms_helpers import room_with
from tests.rooms.test_open_rooms import EMPTY_LINE, public_room


def test_a_room_the_owner_lists_appears_on_another_phone_without_reloading(asgi_server, new_device):
    room, (ana,) = server_side(room_with, "Ana")
    visitor = page_for(new_device, asgi_server, None, PHONE)
    visitor.goto(f"{asgi_server.url}/rooms/")
    expect(visitor.locator("#open-empty")).to_have_text(EMPTY_LINE)
    visitor.evaluate("window.notReloaded = true")
    owner = page_for(new_device, asgi_server, ana)
    owner.goto(f"{asgi_server.url}/rooms/{room.code}/")
    # The socket's snapshot draws the switch again: clicked before it came, the click was
    # undone by it on a loaded machine.
    expect(owner.locator("#race")).to_have_attribute("data-link", "up")
    switch = owner.get_by_label("Listed on the races page (anyone may join)")
    expect(switch).not_to_be_checked()
    switch.check()
    join = visitor.get_by_role("link", name="Join Ana's room")
    expect(join).to_be_visible(timeout=12_000)
    assert visitor.evaluate("window.notReloaded") is True
    expect(visitor.locator("#open-empty")).to_be_hidden()
    live_row = visitor.locator(".open-room").inner_text()
    assert "1/20 players" in live_row
    assert server_side(lambda: Room.objects.get(pk=room.pk).public) is True
    width = visitor.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"
    visitor.reload()  # the server draws the same row the script drew
    assert visitor.locator(".open-room").inner_text() == live_row
    visitor.evaluate("window.notReloaded = true")
    owner.reload()  # the switch shows the room's state
    expect(owner.locator("#race")).to_have_attribute("data-link", "up")
    expect(owner.get_by_label("Listed on the races page (anyone may join)")).to_be_checked()
    owner.get_by_label("Listed on the races page (anyone may join)").uncheck()
    expect(visitor.locator("#open-empty")).to_be_visible(timeout=12_000)
    expect(visitor.locator(".open-room")).to_have_count(0)
    assert visitor.evaluate("window.notReloaded") is True
    visitor.goto(f"{asgi_server.url}/rooms/")
    server_side(lobby.set_public, ana, room.code, True)
    expect(join).to_be_visible(timeout=12_000)
    join.click()
    visitor.wait_for_url(f"**/rooms/{room.code}/")
    expect(visitor.get_by_role("heading", name="Join this room")).to_be_visible()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_open_rooms_fit_the_screen(asgi_server, new_device, viewport):
    long_name = "Wolfeschlegelsteinhausen"  # 24 letters, the longest nickname, no space
    server_side(public_room, "Ana", "Bo", "Carmen", cpus=["steady"])
    room, (host, *_) = server_side(public_room, long_name)
    server_side(lobby.update_rules, host, room.code, {"level": "hard", "flowers": True})
    page = page_for(new_device, asgi_server, None, viewport)
    page.goto(f"{asgi_server.url}/rooms/")
    expect(page.locator(".open-room")).to_have_count(2)
    expect(page.locator(".open-room").first).to_contain_text(long_name)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"the page is {width} px wide"
    for row in page.locator(".open-room").all():
        box = row.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    shoot(page, f"open_rooms_{viewport['width']}")


def test_a_phone_lists_the_open_rooms_on_screen_above_the_create_form(asgi_server, new_device):
    server_side(public_room, "Ana", "Bo", cpus=("steady",))
    page = page_for(new_device, asgi_server, None, PHONE)
    page.goto(f"{asgi_server.url}/rooms/")
    row = page.locator(".open-room")
    expect(row).to_contain_text("2/20 players · 1 CPU")
    create = page.get_by_role("heading", name="Create a room").bounding_box()
    box = row.bounding_box()
    assert box["y"] + box["height"] <= min(create["y"], PHONE["height"])
    shoot(page, "open_rooms_phone_first")
