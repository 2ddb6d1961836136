"""The board on a phone held upright (mahjong/static/mahjong/board.js, board.css): view
controls and toolbar buttons a finger can hit, a double tap on the felt to zoom in and
out again, and the "turn your phone" note for a wide board (docs/PRACTICE.md §The board
on every screen)."""

import re
import time

import pytest
from playwright.sync_api import expect

from mahjong.engine.catalog import CATALOG
from mahjong.engine.codes import make_code
from rooms.models import Entry
from tests.browser.browser_helpers import (
    DESKTOP,
    PHONE,
    open_game,
    page_for,
    server_side,
    shoot,
    tap_centre,
    tile,
)
from tests.practice.practice_helpers import TURTLE_CODE, plan_of

TOWER_CODE = make_code(next(e.number for e in CATALOG if e.name == "tower"), 11)
LANDSCAPE = {"width": 844, "height": 390}
ZOOMED = re.compile(r"\bzoomed\b")
TURN_HINT = "Small tiles? Double-tap an empty spot to zoom in, or turn your phone sideways."


@pytest.fixture
def turtle_race_past_go(settings, transactional_db):
    """Ana and Bo racing on the turtle already ("go" at once): (room, [ana, bo])."""
    from rooms.lobby import actions as lobby
    from rooms.race import actions as races
    from tests.rooms.rooms_helpers import room_with

    settings.RACE_COUNTDOWN_SECONDS = 0
    room, players = server_side(room_with, "Ana", "Bo")
    server_side(lobby.update_rules, players[0], room.code, {"layout": "turtle"})
    server_side(races.start_race, players[0], room.code, seed=7)
    return room, players


def open_race(page, server, room, player):
    page.goto(f"{server.url}/rooms/{room.code}/")
    entry = Entry.objects.get(race__room=room, seat__player=player)
    expect(page.locator(".tile[data-face]")).to_have_count(entry.tile_count)


def control_sizes(page) -> list:
    """[name, width, height] of every view control and toolbar button shown."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.board-controls button, .toolbar button')]
          .filter(b => b.offsetParent)
          .map(b => { const r = b.getBoundingClientRect();
                      return [b.id || b.className, r.width, r.height]; })"""
    )


def toolbar_rows(page) -> int:
    """How many rows the toolbar's items stand in (an item overlapping a row's height is
    in that row: stats and buttons of one row differ in height)."""
    return page.evaluate(
        """() => {
          const boxes = [...document.querySelector('.toolbar').children]
            .filter(el => el.offsetParent).map(el => el.getBoundingClientRect())
            .sort((a, b) => a.top - b.top);
          let rows = 0, bottom = -Infinity;
          for (const r of boxes) {
            if (r.top >= bottom - 1) { rows++; bottom = r.bottom; }
            else bottom = Math.max(bottom, r.bottom);
          }
          return rows;
        }"""
    )


def assert_finger_sized(page, where):
    small = [c for c in control_sizes(page) if c[1] < 44 or c[2] < 44]
    assert not small, f"{where}: controls under 44 px: {small}"
    assert toolbar_rows(page) <= 2, f"{where}: the toolbar wraps to more than two rows"


def test_controls_are_44px_on_a_phone_and_the_toolbar_keeps_two_rows(
    asgi_server, new_device, turtle_race_past_go
):
    room, players = turtle_race_past_go
    for lang in ("en", "es"):
        page = page_for(new_device, asgi_server, players[0], PHONE, lang=lang, has_touch=True)
        open_game(asgi_server, page, TURTLE_CODE)
        assert_finger_sized(page, f"practice, {lang}")
        open_race(page, asgi_server, room, players[0])
        assert_finger_sized(page, f"race, {lang}")
    # With a mouse on a laptop the view controls stay as they were.
    page = new_device(viewport=DESKTOP)
    open_game(asgi_server, page, TURTLE_CODE)
    assert {(w, h) for name, w, h in control_sizes(page) if name.startswith("zoom")} == {(28, 28)}


def board_facts(page) -> dict:
    return page.evaluate(
        """() => {
          const board = document.querySelector('#board');
          const r = board.getBoundingClientRect();
          const tiles = (css) => [...document.querySelectorAll(css)];
          return {zoom: board.mahjongBoard.zoom, left: r.left, top: r.top, width: r.width,
                  height: r.height, shown: tiles('.tile:not([hidden])').length,
                  selected: tiles('.tile.selected').map(t => t.dataset.index)};
        }"""
    )


def felt_point(page) -> dict:
    """A point of the board's felt a finger can reach: inside the scroller, on no tile,
    no control and no note, at least 12 px from any of them."""
    return page.evaluate(
        """() => {
          const view = document.querySelector('.board-scroll').getBoundingClientRect();
          const felt = (x, y) => {
            const el = document.elementFromPoint(x, y);
            return el && (el.matches('.board-scroll') || el.matches('.board'));
          };
          for (let y = view.top + 60; y < view.bottom - 60; y += 8) {
            for (let x = view.left + 20; x < view.right - 20; x += 8) {
              const around = [[0, 0], [12, 0], [-12, 0], [0, 12], [0, -12]];
              if (around.every(([dx, dy]) => felt(x + dx, y + dy))) return {x, y};
            }
          }
          return null;
        }"""
    )


def double_tap(page, point):
    """Two taps of a finger at `point`, 150 ms apart by the touch events' own times (the
    board's double tap is two within 350 ms, board.js DOUBLE_TAP_MS). Two
    `page.touchscreen.tap` calls sent the same touches, but timed by the test's own round
    trips to the browser: past 350 ms on a loaded machine, and no double tap."""
    cdp = page.context.new_cdp_session(page)
    start = time.time()  # CDP's timestamps: seconds since the epoch
    for at in (start, start + 0.15):
        for kind, points, when in (("touchStart", [point], at), ("touchEnd", [], at + 0.05)):
            cdp.send(
                "Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": when}
            )
    cdp.detach()


def test_a_double_tap_on_the_felt_zooms_in_around_it_and_a_second_fits_again(
    asgi_server, new_device
):
    page = new_device(viewport=PHONE, has_touch=True)
    open_game(asgi_server, page, TURTLE_CODE)
    i, _ = plan_of(TURTLE_CODE)[0]
    tap_centre(page, tile(page, TURTLE_CODE, i))
    expect(tile(page, TURTLE_CODE, i)).to_have_class(re.compile(r"\bselected\b"))
    fit = board_facts(page)
    # Above the board, where the zoomed board will have tiles: the tap's click lands on
    # one of them after the zoom, and must not play it.
    at = {"x": fit["left"] + fit["width"] * 0.6, "y": fit["top"] - 24}
    on_a_tile = f"document.elementFromPoint({at['x']}, {at['y']}).closest('.tile')"
    assert page.evaluate(on_a_tile) is None
    double_tap(page, at)
    expect(page.locator(".board-wrap")).to_have_class(ZOOMED)
    zoomed = board_facts(page)
    assert page.evaluate(f"({on_a_tile}) !== null")  # the tap's click came down on a tile
    shoot(page, "double-tap-zoomed-turtle-390x844")
    assert zoomed["width"] >= 1.8 * fit["width"]
    # Around the point: the board's column under the finger is the one tapped.
    before = (at["x"] - fit["left"]) / fit["width"]
    after = (at["x"] - zoomed["left"]) / zoomed["width"]
    assert abs(after - before) < 0.02, (before, after)
    assert zoomed["shown"] == fit["shown"] and zoomed["selected"] == fit["selected"]
    expect(page.get_by_role("button", name="Fit the board")).to_be_enabled()

    point = felt_point(page)
    assert point, "no felt left to tap on the zoomed board"
    double_tap(page, point)
    expect(page.locator(".board-wrap")).not_to_have_class(ZOOMED)
    again = board_facts(page)
    assert again["width"] == pytest.approx(fit["width"], abs=0.5)
    assert again["shown"] == fit["shown"] and again["selected"] == fit["selected"]


def test_a_double_click_on_the_felt_zooms_in_and_the_fit_button_returns(asgi_server, page):
    page.set_viewport_size(DESKTOP)
    open_game(asgi_server, page, TURTLE_CODE)
    fit = board_facts(page)
    point = felt_point(page)
    page.mouse.dblclick(point["x"], point["y"])
    expect(page.locator(".board-wrap")).to_have_class(ZOOMED)
    assert board_facts(page)["width"] >= 1.5 * fit["width"]
    page.get_by_role("button", name="Fit the board").click()
    assert board_facts(page)["width"] == pytest.approx(fit["width"], abs=0.5)
    expect(page.locator(".tile.selected")).to_have_count(0)


def test_taps_on_tiles_play_and_a_double_tap_on_a_tile_never_zooms(asgi_server, new_device):
    page = new_device(viewport=PHONE, has_touch=True)
    open_game(asgi_server, page, TURTLE_CODE)
    (i, j), (k, _) = plan_of(TURTLE_CODE)[:2]
    tap_centre(page, tile(page, TURTLE_CODE, i))
    tap_centre(page, tile(page, TURTLE_CODE, j))
    expect(tile(page, TURTLE_CODE, i)).to_be_hidden()
    expect(tile(page, TURTLE_CODE, j)).to_be_hidden()
    expect(page.locator("#progress")).to_have_text("1%")
    # Two quick taps on a free tile are two taps: it is selected, then let go.
    box = tile(page, TURTLE_CODE, k).bounding_box()
    double_tap(page, {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2})
    expect(page.locator(".tile.selected")).to_have_count(0)
    assert board_facts(page)["zoom"] == 1


def test_the_turn_your_phone_note_shows_for_a_wide_board_upright_and_stays_hidden_once_hidden(
    asgi_server, new_device, turtle_race_past_go
):
    page = new_device(viewport=PHONE, has_touch=True)
    open_game(asgi_server, page, TURTLE_CODE)
    note = page.locator(".turn-hint")
    expect(note).to_contain_text(TURN_HINT)
    shoot(page, "turn-hint-turtle-390x844")
    page.get_by_role("button", name="Zoom in").click()
    expect(note).to_be_hidden()  # zoomed, the board has the space
    page.get_by_role("button", name="Fit the board").click()
    expect(note).to_be_visible()
    page.set_viewport_size(LANDSCAPE)
    expect(note).to_be_hidden()
    page.set_viewport_size(PHONE)
    expect(note).to_be_visible()
    open_game(asgi_server, page, TOWER_CODE)  # a narrow layout fills the height
    expect(page.locator(".turn-hint")).to_be_hidden()

    room, players = turtle_race_past_go
    racer = page_for(new_device, asgi_server, players[0], PHONE, lang="es", has_touch=True)
    open_race(racer, asgi_server, room, players[0])
    note = racer.locator(".turn-hint")
    expect(note).to_contain_text("gira el teléfono")
    racer.get_by_role("button", name="Ocultar este consejo").click()
    expect(note).to_be_hidden()
    open_game(asgi_server, racer, TURTLE_CODE)  # remembered on this device
    expect(racer.locator(".turn-hint")).to_be_hidden()
