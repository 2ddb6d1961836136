"""The layout editor in a real Chromium: a layout drawn by clicks, tested, saved and
played; the keyboard alone; a phone's taps (docs/LAYOUTS.md §The editor)."""

import re
from pathlib import Path

from django.urls import reverse
from playwright.sync_api import expect

from layouts.models import StoredLayout
from mahjong.engine.layout import parse_layout
from tests.browser.browser_helpers import PHONE, shoot

# Two rows of three on the first layer and two tiles straddling them on the second.
FIRST_LAYER = [(0, 0), (2, 0), (4, 0), (0, 2), (2, 2), (4, 2)]
SECOND_LAYER = [(1, 0), (3, 0)]


def open_editor(server, page):
    page.goto(f"{server.url}/layouts/edit/")
    expect(page.locator("#ed-grid")).to_be_visible()


def click_place(page, x, y, button="left", tap=False, nudge=0.0) -> None:
    """Click (or tap) the middle of where a tile at (x, y) of the current layer goes,
    or `nudge` half-tiles down-right of it."""
    grid = page.locator("#ed-grid")
    spot = grid.evaluate(
        """(grid, [x, y]) => {
            const w = parseFloat(getComputedStyle(grid).getPropertyValue("--w"));
            const layers = Number(grid.style.getPropertyValue("--layers"));
            const editor = document.getElementById("editor");
            const layer = Number(editor.style.getPropertyValue("--layer"));
            const lift = (layers - 1 - layer) * w * 0.13 + 6;
            return {x: lift + (x + 1) * w / 2, y: lift + (y + 1) * w * 2 / 3};
        }""",
        [x + nudge, y + nudge],
    )
    if tap:
        grid.tap(position=spot)
    else:
        grid.click(position=spot, button=button)


def placed(page, x, y, z):
    return page.locator(f".ed-tile[data-x='{x}'][data-y='{y}'][data-z='{z}']")


def draw_small_layout(page) -> None:
    for x, y in FIRST_LAYER:
        click_place(page, x, y)
    page.get_by_role("button", name="Layer above").click()
    expect(page.locator("#ed-layer")).to_have_text("Layer 2 of 8")
    for x, y in SECOND_LAYER:
        click_place(page, x, y)


def test_a_layout_drawn_by_clicks_tests_saves_and_plays(asgi_server, page):
    open_editor(asgi_server, page)
    draw_small_layout(page)
    expect(page.locator(".ed-tile")).to_have_count(8)
    expect(placed(page, 3, 0, 1)).to_have_attribute("data-rel", "here")
    expect(placed(page, 0, 0, 0)).to_have_attribute("data-rel", "below")
    expect(page.locator("#ed-count")).to_have_text("8 tiles")
    expect(page.locator("#ed-odd")).to_be_hidden()
    # A place that overlaps a tile of the layer is refused (its lower half is free, so
    # the click lands on no tile).
    click_place(page, 2, 1, nudge=0.25)
    expect(page.locator("#ed-say")).to_have_text("A tile there would overlap another on layer 2.")
    # Right-click removes; the count says the layout is odd; Undo brings the tile back.
    click_place(page, 1, 0, button="right")
    expect(page.locator("#ed-count")).to_have_text("7 tiles")
    expect(page.locator("#ed-odd")).to_have_text("odd: add or remove one")
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#ed-count")).to_have_text("8 tiles")
    shoot(page, "editor-desktop-drawn")

    page.get_by_role("button", name="Test").click()
    expect(page.locator("#ed-result")).to_contain_text("Playable: 8 tiles, and a deal")
    assert not StoredLayout.objects.exists()

    page.get_by_label("Name").fill("Two rows and a roof")
    with page.expect_download() as download:
        page.get_by_role("button", name="Export .layout").click()
    assert download.value.suggested_filename == "two-rows-and-a-roof.layout"
    text = Path(download.value.path()).read_text()
    assert len(parse_layout(text).positions) == 8

    page.get_by_role("button", name="Save and share").click()
    expect(page.locator("#ed-shared")).to_be_visible()
    stored = StoredLayout.objects.get()
    assert stored.tiles == 8 and stored.title_en == "Two rows and a roof"
    share = reverse("layouts-detail", args=[stored.pk])
    expect(page.locator("#ed-link")).to_have_value(re.compile(re.escape(share) + "$"))
    shoot(page, "editor-desktop-saved")

    page.get_by_role("link", name="Play this layout").click()
    expect(page).to_have_url(re.compile(rf"/play/MJ1-U{stored.pk}-[A-Z]+/$"))
    expect(page.locator(".tile")).to_have_count(8)
    # The share link opens the layout's page for anyone.
    page.goto(f"{asgi_server.url}{share}")
    expect(page.get_by_text("Two rows and a roof").first).to_be_visible()


def test_a_layout_is_built_with_the_keyboard_alone(asgi_server, page):
    open_editor(asgi_server, page)
    page.locator("#ed-grid").focus()
    page.keyboard.press("Enter")
    expect(placed(page, 0, 0, 0)).to_have_count(1)
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("Space")
    expect(placed(page, 2, 0, 0)).to_have_count(1)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#ed-say")).to_have_text("Column 2, row 1, layer 1")
    page.keyboard.press("Enter")  # half over each: overlaps, refused
    expect(page.locator("#ed-say")).to_contain_text("would overlap")
    page.keyboard.press("]")
    expect(page.locator("#ed-layer")).to_have_text("Layer 2 of 8")
    page.keyboard.press("Enter")  # a bridge over the two below
    expect(placed(page, 1, 0, 1)).to_have_count(1)
    expect(page.locator("#ed-count")).to_have_text("3 tiles")
    expect(page.locator("#ed-odd")).to_have_text("odd: add or remove one")
    expect(page.locator(".ed-cursor")).to_be_visible()  # the focus shows where keys act
    page.keyboard.press("Enter")  # on a tile: removes it
    expect(page.locator("#ed-count")).to_have_text("2 tiles")
    page.keyboard.press("Control+z")
    expect(placed(page, 1, 0, 1)).to_have_count(1)
    page.keyboard.press("PageDown")
    expect(page.locator("#ed-layer")).to_have_text("Layer 1 of 8")
    assert page.evaluate("document.activeElement.id") == "ed-grid"
    page.reload()  # unsaved work is kept on the device
    expect(page.locator("#ed-count")).to_have_text("3 tiles")
    expect(placed(page, 1, 0, 1)).to_have_count(1)


def test_an_unplayable_layout_is_explained_and_a_bad_post_changes_nothing(asgi_server, page):
    open_editor(asgi_server, page)
    for _layer in range(4):  # a tower: only its top is ever free
        click_place(page, 0, 0)
        page.get_by_role("button", name="Layer above").click()
    page.get_by_role("button", name="Test").click()
    expect(page.locator("#ed-result")).to_contain_text("a stack of 4 tiles")
    page.get_by_label("Name").fill("Tower")
    page.get_by_role("button", name="Save and share").click()
    expect(page.locator("#ed-result")).to_contain_text("a stack of 4 tiles")
    expect(page.locator("#ed-shared")).to_be_hidden()
    answer = page.evaluate(
        """async () => {
            const r = await fetch("/layouts/edit/save", {method: "POST", body: "[[1, 2]]",
              headers: {"Content-Type": "application/json",
                        "X-CSRFToken": document.querySelector("meta[name=csrf-token]").content}});
            return [r.status, (await r.json()).error];
        }"""
    )
    assert answer == [400, "The request must be a JSON object."]
    assert not StoredLayout.objects.exists()


def test_a_phone_places_by_tap_and_erases_in_erase_mode(asgi_server, new_device):
    page = new_device(viewport=PHONE, has_touch=True, is_mobile=True)
    open_editor(asgi_server, page)
    stage = page.locator("#ed-stage").bounding_box()
    assert stage["width"] <= PHONE["width"]  # the grid scrolls inside, the page does not
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    click_place(page, 0, 0, tap=True)
    click_place(page, 2, 0, tap=True)
    expect(page.locator(".ed-tile")).to_have_count(2)
    page.get_by_role("button", name="Erase").tap()
    click_place(page, 2, 0, tap=True)
    expect(page.locator(".ed-tile")).to_have_count(1)
    shoot(page, "editor-phone")


def test_on_a_phone_the_whole_grid_shows_and_both_pairs_of_buttons_are_named(
    asgi_server, new_device
):
    page = new_device(viewport=PHONE, has_touch=True, is_mobile=True)
    open_editor(asgi_server, page)
    stage = page.locator("#ed-stage")
    assert stage.evaluate("(el) => el.scrollWidth <= el.clientWidth")  # no sideways scroll
    # "Layer 1 of 8" names the first −/+ pair; the second says "Zoom" where it stands.
    expect(page.locator("#ed-layer")).to_be_visible()
    expect(page.locator("#ed-zoom-label")).to_be_visible()
    expect(page.locator("#ed-zoom-label")).to_have_text("Zoom")
    expect(page.get_by_role("group", name="Zoom")).to_be_visible()
    page.get_by_role("button", name="Zoom in").tap()  # zoomed in, the grid may scroll
    page.get_by_role("button", name="Zoom out").tap()
    assert stage.evaluate("(el) => el.scrollWidth <= el.clientWidth")


def test_the_editors_buttons_are_the_sites_buttons(asgi_server, page):
    open_editor(asgi_server, page)
    for name in ("Test", "Export .layout", "Save and share"):
        assert "button" in page.get_by_role("button", name=name).get_attribute("class")


def test_a_copy_of_turtle_opens_on_its_top_layer_and_tests_solvable(asgi_server, page):
    page.goto(f"{asgi_server.url}/layouts/edit/turtle/")
    expect(page.locator(".ed-tile")).to_have_count(144)
    expect(page.locator("#ed-count")).to_have_text("144 tiles")
    expect(page.locator("#ed-layer")).to_have_text("Layer 5 of 8")
    expect(page.locator(".ed-tile[data-rel='here']")).to_have_count(1)
    shoot(page, "editor-turtle")
    page.get_by_role("button", name="Test").click()
    expect(page.locator("#ed-result")).to_contain_text("Playable: 144 tiles, and a deal")
