"""Named helpers for browser tests: a player's own window, writes made off Playwright's
thread, screenshots kept for a look (SCREENS_DIR), the two screen sizes we check."""

import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playwright.sync_api import expect

from accounts.identity import COOKIE_NAME, signed_token
from accounts.models import Player
from rooms.core.boards import deal_for
from rooms.models import Entry
from tests.rooms.rooms_helpers import board_of

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def page_for(
    new_device, server, player: Player | None, viewport=DESKTOP, lang="en", has_touch=False
):
    """A browser window of its own, on `player`'s device (None: a visitor); it says yes
    to confirm() ("Give up?"). `has_touch`: a touch screen (a phone's finger)."""
    page = new_device(viewport=viewport, locale=lang, accept_dialogs=True, has_touch=has_touch)
    if player is not None:
        value = signed_token(player.device_token)
        page.context.add_cookies([{"name": COOKIE_NAME, "value": value, "url": server.url}])
    return page


def each_mode(page, server, modes):
    """The page in each of `modes` ((theme, size, viewport) each) in turn, reused instead
    of a new device for each (a browser context and its first load cost about 0.25 s of
    CPU more than a load in a page already open): the window resized in place, and the
    theme stored where site.js reads it at the next load ("mj-theme" in localStorage, on
    the server's origin). Yields (theme, size); the test loads its page after that."""
    for theme, size, viewport in modes:
        page.set_viewport_size(viewport)
        if not page.url.startswith(server.url):
            page.goto(f"{server.url}/livez")  # localStorage is the origin's: be on it
        page.evaluate("(theme) => localStorage.setItem('mj-theme', theme)", theme)
        yield theme, size


def server_side(action, *args, **kwargs):
    """Run a write as the server would, off this thread: Playwright's event loop runs
    here, and the write's events are sent after commit from a thread without one."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(action, *args, **kwargs).result()


def shoot(page, name: str) -> None:
    """Set SCREENS_DIR to keep a screenshot of the page for a look."""
    folder = os.environ.get("SCREENS_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{folder}/{name}.png", full_page=True)


def tile(page, code: str, index: int):
    """Tile `index` of the deal `code` on the page, found by its place."""
    x, y, z = deal_for(code).layout.positions[index]
    return page.locator(f".tile[data-x='{x}'][data-y='{y}'][data-z='{z}']")


def tap_centre(page, locator):
    """A finger on the middle of the tile as the player sees it (no help from Playwright
    finding the element): the board must hand the tap to exactly that tile."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def open_game(server, page, code: str) -> None:
    """The practice page of the deal `code`, once every tile is drawn."""
    page.goto(f"{server.url}/play/{code}/")
    expect(page.locator(".tile")).to_have_count(len(deal_for(code).faces))


def click_pair(page, entry: Entry, pair) -> None:
    """Tap the two tiles of a pair of `entry`'s board, found by their places."""
    for index in pair:
        tile(page, entry.code, index).click()


def play(page, entry: Entry, pair) -> None:
    """Tap a pair of `entry`'s board and see both tiles go."""
    click_pair(page, entry, pair)
    for index in pair:
        expect(tile(page, entry.code, index)).to_be_hidden()


def create_room(page, server, nickname: str, button: str = "Create a room") -> str:
    """Create a room the way a player does, from /rooms/ (`button` in the page's
    language); the room's address."""
    page.goto(f"{server.url}/rooms/")
    page.fill("#create-nickname", nickname)
    page.get_by_role("button", name=button).click()
    page.wait_for_url("**/rooms/*/")
    return page.url


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


def another_game(ana, bo, watcher, from_lobby: bool) -> None:
    """The owner offers another game (from the results, or from the lobby); every screen
    shows the same ready check, and Bo's Ready, the last one, starts the race."""
    if from_lobby:
        ana.get_by_role("button", name="Players and rules").click()
        ana.locator("#lobby").get_by_role("button", name="Another game").click()
    else:
        ana.locator("#results").get_by_role("button", name="Another game").click()
    for page in (ana, bo, watcher):
        expect(page.locator("#ready-check")).to_be_visible()
        expect(page.locator("#ready-note")).to_contain_text(re.compile(r"\d+ s"))
    expect(ana.get_by_role("button", name="Start without those not ready")).to_be_disabled()
    expect(ana.locator("#start-reason")).to_contain_text("You may start without them in")
    expect(watcher.get_by_role("button", name="Ready")).to_have_count(0)  # nothing to press
    expect(watcher.locator("#start-reason")).to_have_text("")
    bo.get_by_role("button", name="Ready").click()


def hint_and_a_pair(bo, nickname: str, number: int) -> None:
    """A player (Bo, say, on the phone) takes the race's first hint and plays a pair of
    the plan: the Hint count is the server's, and the own line reads what the counter
    reads."""
    expect(bo.locator(".tile[data-face]:not([hidden])")).to_have_count(34)
    bo.get_by_role("button", name="Hint").click()
    expect(bo.locator("#hints-left")).to_have_text("2")
    entry = server_side(board_of, nickname, number)
    click_pair(bo, entry, deal_for(entry.code).plan[0])
    counter = bo.locator("#progress")
    expect(counter).not_to_have_text("0%")
    expect(bo.locator("#all-rows li.me .state")).to_have_text(counter.inner_text())
