"""The board fits the window without scrolling the page, on every built-in layout and
at the five screen sizes we check, on the practice page, a race and /learn/: the board
component, mahjong/static/mahjong/board.js, fits itself to the room the page leaves
(docs/PRACTICE.md §The board on every screen)."""

import pytest
from playwright.sync_api import expect

from mahjong.engine.catalog import CATALOG
from mahjong.engine.codes import make_code
from rooms.models import Entry
from tests.browser.browser_helpers import DESKTOP, PHONE, page_for, shoot

VIEWPORTS = [
    {"width": 1280, "height": 800},
    {"width": 1366, "height": 768},
    {"width": 1920, "height": 1080},
    {"width": 390, "height": 844},
    {"width": 844, "height": 390},
]
LAYOUT_CODES = {entry.name: make_code(entry.number, 11) for entry in CATALOG}


def size_id(viewport):
    return f"{viewport['width']}x{viewport['height']}"


def fit_facts(page) -> dict:
    """The page's scroll height, the footer's bottom, and the board's tiles against the
    wrap (every tile inside it, none clipped at fit)."""
    return page.evaluate(
        """() => {
          const wrap = document.querySelector('.board-wrap').getBoundingClientRect();
          const tiles = [...document.querySelectorAll('.tile:not([hidden])')]
            .map(t => t.getBoundingClientRect());
          const footer = document.querySelector('.site-footer').getBoundingClientRect();
          return {
            scroll: document.documentElement.scrollHeight,
            inner: innerHeight,
            footer: footer.bottom,
            outside: tiles.filter(r => r.left < wrap.left - 1 || r.right > wrap.right + 1
              || r.top < wrap.top - 1 || r.bottom > wrap.bottom + 1).length,
            width: Math.min(...tiles.map(r => r.width)),
          };
        }"""
    )


def settle(page):
    """The board refits in the next frame after a resize: wait two."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def assert_fits(page, where):
    settle(page)
    facts = fit_facts(page)
    assert facts["scroll"] <= facts["inner"], f"{where}: the page scrolls ({facts})"
    assert facts["footer"] <= facts["inner"] + 0.5, f"{where}: the footer is off screen ({facts})"
    assert facts["outside"] == 0, f"{where}: tiles outside the board's wrap ({facts})"
    return facts


# The five sizes by device: a touch screen's pages may lay out otherwise (pointer: coarse),
# and a context keeps its touch screen, so the phone's two sizes have a context of their own.
DEVICES = {
    "desktop": (VIEWPORTS[0], VIEWPORTS[1], VIEWPORTS[2]),
    "phone": (VIEWPORTS[3], VIEWPORTS[4]),
}


@pytest.mark.parametrize("device", DEVICES)
def test_every_built_in_layout_fits_the_practice_page_without_scrolling(
    asgi_server, new_device, device
):
    """Each layout at each of the device's sizes: loaded at one size (each size in turn,
    so every size has a third or half of the layouts loaded at it), then the window set to
    the others, which board.js refits to as it does on load (the test below: the same
    width back). One load per layout and device, not per size."""
    sizes = DEVICES[device]
    page = new_device(viewport=sizes[0], has_touch=device == "phone")
    for k, (name, code) in enumerate(LAYOUT_CODES.items()):
        turn = sizes[k % len(sizes) :] + sizes[: k % len(sizes)]
        page.set_viewport_size(turn[0])
        page.goto(f"{asgi_server.url}/play/{code}/")
        expect(page.locator(".tile").first).to_be_visible(timeout=20_000)
        for viewport in turn:
            page.set_viewport_size(viewport)
            facts = assert_fits(page, f"{name} at {size_id(viewport)}")
            assert facts["width"] >= 18, f"{name}: tiles only {facts['width']:.1f} px wide"
            if name in ("turtle", "medium"):
                shoot(page, f"fit-{name}-{size_id(viewport)}")


def test_the_board_refits_when_the_window_turns_and_when_the_page_grows(asgi_server, new_device):
    page = new_device(viewport={"width": 1280, "height": 800})
    page.goto(f"{asgi_server.url}/play/{LAYOUT_CODES['hard']}/")
    expect(page.locator(".tile").first).to_be_visible(timeout=20_000)
    wide = assert_fits(page, "1280x800")
    page.set_viewport_size({"width": 844, "height": 390})
    landscape = assert_fits(page, "844x390")
    assert landscape["width"] < wide["width"]
    page.set_viewport_size({"width": 1280, "height": 800})
    assert assert_fits(page, "1280x800 again")["width"] == wide["width"]
    # The page's chrome grows (a message of several lines): the board gives way at once.
    page.evaluate("document.querySelector('#message').textContent = 'A long message. '.repeat(40)")
    smaller = assert_fits(page, "with a long message")
    assert smaller["width"] < wide["width"]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE, VIEWPORTS[-1]], ids=size_id)
def test_a_race_board_fits_without_scrolling(
    asgi_server, new_device, race_of_two_past_go, viewport
):
    room, players = race_of_two_past_go
    page = page_for(new_device, asgi_server, players[0], viewport)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator("#play-area")).to_be_visible()
    entry = Entry.objects.get(race__room=room, seat__player=players[0])
    expect(page.locator(".tile[data-face]")).to_have_count(entry.tile_count)
    settle(page)
    shoot(page, f"fit-race-{size_id(viewport)}")
    assert_fits(page, f"race at {size_id(viewport)}")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=size_id)
def test_the_tutorial_board_fits_without_scrolling(asgi_server, new_device, viewport):
    page = new_device(viewport=viewport)
    page.goto(f"{asgi_server.url}/learn/")
    expect(page.locator(".tile").first).to_be_visible(timeout=20_000)
    assert_fits(page, f"learn at {size_id(viewport)}")
    shoot(page, f"fit-learn-{size_id(viewport)}")
