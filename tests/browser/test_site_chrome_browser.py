"""The site around the board in Chromium (tests/pages/test_site_chrome.py has the rest):
the theme (System, Light, Dark, remembered), high-contrast tiles, the phone header (one
line and a Menu button). Screenshots go to SCREENS_DIR for a look."""

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from records.leaderboards import daily_code, today
from rooms.lobby import actions as lobby
from tests.accounts.accounts_helpers import won_game
from tests.browser.browser_helpers import DESKTOP, PHONE, page_for, shoot
from tests.rooms.rooms_helpers import room_with

PAGES = [
    "/",
    "/play/",
    "/rooms/",
    "/ranked/",
    "/leaderboards/",
    "/rules/",
    "/learn/",
    "/me/",
    "/records/",
    "/accounts/login/",
    "/status/",
]


def colours(page) -> dict:
    return page.evaluate(
        """() => ({
            theme: document.documentElement.dataset.theme,
            page: getComputedStyle(document.documentElement).backgroundColor,
            text: getComputedStyle(document.body).color,
        })"""
    )


def choose_theme(page, name: str) -> None:
    page.get_by_role("button", name="Settings").click()
    page.get_by_role("radio", name=name).check()
    page.keyboard.press("Escape")
    expect(page.locator("#settings")).to_be_hidden()


def contrast_of(page, selector: str) -> float:
    """WCAG contrast of an element's text against the page's background."""
    return page.evaluate(
        """(selector) => {
            const rgb = (css) => css.match(/[\\d.]+/g).slice(0, 3).map(Number);
            const lum = ([r, g, b]) => [r, g, b].map((c) => {
                c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
            }).reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
            const fg = lum(rgb(getComputedStyle(document.querySelector(selector)).color));
            const bg = lum(rgb(getComputedStyle(document.documentElement).backgroundColor));
            return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
        }""",
        selector,
    )


# --- theme ---------------------------------------------------------------------------------
def test_dark_mode_changes_the_colours_and_is_remembered_across_a_reload(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None)
    page.goto(f"{asgi_server.url}/")
    light = colours(page)
    assert light["theme"] == "light"
    choose_theme(page, "Dark")
    dark = colours(page)
    assert dark["theme"] == "dark"
    assert dark["page"] != light["page"] and dark["text"] != light["text"]
    page.reload()
    assert colours(page) == dark
    page.goto(f"{asgi_server.url}/leaderboards/")  # every page, not just the one it was set on
    assert colours(page)["theme"] == "dark"
    page.get_by_role("button", name="Settings").click()
    expect(page.get_by_role("radio", name="Dark")).to_be_checked()


def test_system_follows_the_devices_colour_scheme_live(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None)
    page.emulate_media(color_scheme="dark")
    page.goto(f"{asgi_server.url}/")
    assert colours(page)["theme"] == "dark"
    page.emulate_media(color_scheme="light")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    choose_theme(page, "Dark")  # a choice beats the system's
    page.emulate_media(color_scheme="light")
    page.reload()
    assert colours(page)["theme"] == "dark"
    choose_theme(page, "System")
    assert colours(page)["theme"] == "light"


@pytest.mark.parametrize("theme", ["Light", "Dark"])
def test_text_keeps_a_contrast_of_4_5_in_both_themes(asgi_server, new_device, theme):
    page = page_for(new_device, asgi_server, None)
    page.goto(f"{asgi_server.url}/")
    choose_theme(page, theme)
    for selector in [
        "body",
        ".lead",
        "#front-daily .muted",
        "#front-daily a:not(.button)",
        ".site-footer",
        ".language button[aria-current]",
    ]:
        assert contrast_of(page, selector) >= 4.5, selector


WHITE = """() => [...document.querySelectorAll("body *")].filter((el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden"
        && /^rgba?\\(25[0-5], 25[0-5], 25[0-5](, 1)?\\)$/.test(style.backgroundColor);
}).map((el) => el.tagName + "#" + el.id + "." + el.className)"""


def test_in_the_dark_theme_nothing_stays_glaring_white(asgi_server, new_device):
    room, (ana,) = room_with("Ana")
    lobby.set_public(ana, room.code, True)
    mei = Player.objects.create(nickname="Mei")
    won_game(mei, 95_000)
    page = page_for(new_device, asgi_server, mei)
    page.goto(f"{asgi_server.url}/")
    assert page.evaluate(WHITE), "the probe finds the light theme's white cards"
    page.emulate_media(color_scheme="dark")
    for path in [
        "/",
        "/rooms/",
        f"/rooms/{room.code}/",
        "/leaderboards/",
        "/me/",
        "/records/",
        "/rules/",
        "/status/",
        "/accounts/login/",
    ]:
        page.goto(f"{asgi_server.url}{path}")
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        assert page.evaluate(WHITE) == [], path


def test_the_keyboard_reaches_and_works_every_setting(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None)
    page.goto(f"{asgi_server.url}/")
    settings = page.get_by_role("button", name="Settings")
    settings.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#settings")).to_be_visible()
    page.keyboard.press("Tab")  # into the theme radios: System is checked
    expect(page.get_by_role("radio", name="System")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    expect(page.get_by_role("radio", name="Light")).to_be_checked()
    page.keyboard.press("ArrowDown")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    expect(page.locator("html")).to_have_attribute("data-contrast", "high")
    page.keyboard.press("Escape")
    expect(page.locator("#settings")).to_be_hidden()
    expect(settings).to_be_focused()


def test_the_preview_moves_only_without_reduced_motion(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None)
    page.goto(f"{asgi_server.url}/")
    running = "() => document.getAnimations().filter((a) => a.playState === 'running').length"
    assert page.evaluate(running) > 0
    page.emulate_media(reduced_motion="reduce")
    page.reload()
    assert page.evaluate(running) == 0


def test_high_contrast_tiles_are_a_remembered_switch(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None)
    page.goto(f"{asgi_server.url}/play/")
    html = page.locator("html")
    expect(html).not_to_have_attribute("data-contrast", "high")
    page.get_by_role("button", name="Settings").click()
    page.get_by_role("checkbox", name="High-contrast tiles").check()
    expect(html).to_have_attribute("data-contrast", "high")
    page.reload()
    expect(html).to_have_attribute("data-contrast", "high")


# --- the phone header ---------------------------------------------------------------------
def test_a_phone_on_its_side_gets_the_one_line_header_too(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None, {"width": 844, "height": 390})
    page.goto(f"{asgi_server.url}/play/")
    assert page.locator(".site-header").bounding_box()["height"] <= 56
    expect(page.get_by_role("button", name="Menu")).to_be_visible()


def test_the_phone_header_is_one_line_and_its_menu_opens_and_closes(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None, PHONE)
    page.goto(f"{asgi_server.url}/rooms/")
    header = page.locator(".site-header").bounding_box()
    brand = page.locator(".brand").bounding_box()
    assert header["height"] <= 56, header  # one line: the brand and the button
    menu = page.get_by_role("button", name="Menu")
    assert abs(menu.bounding_box()["y"] - brand["y"]) < 20
    expect(menu).to_have_attribute("aria-expanded", "false")
    play = page.locator("#site-nav").get_by_role("link", name="Play")
    expect(play).to_be_hidden()

    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(play).to_be_visible()
    shoot(page, "phone-menu-open")
    page.keyboard.press("Escape")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(play).to_be_hidden()
    expect(menu).to_be_focused()

    page.keyboard.press("Enter")  # the keyboard opens it too, and lands on the first link
    expect(play).to_be_visible()
    expect(play).to_be_focused()
    page.mouse.click(200, 700)  # a click outside closes it
    expect(menu).to_have_attribute("aria-expanded", "false")
    menu.click()
    page.get_by_role("button", name="Settings").focus()
    page.keyboard.press("Tab")  # tabbing out of the menu closes it too
    expect(menu).to_have_attribute("aria-expanded", "false")

    menu.click()  # the settings live in the menu on a phone
    page.get_by_role("button", name="Settings").click()
    expect(page.get_by_role("radio", name="Dark")).to_be_visible()
    shoot(page, "phone-settings-open")
    page.keyboard.press("Escape")  # the first Escape closes the settings, the menu stays
    expect(page.locator("#settings")).to_be_hidden()
    expect(menu).to_have_attribute("aria-expanded", "true")
    play.click()
    page.wait_for_url("**/play/")


def test_on_a_desktop_the_links_show_and_no_menu_button(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None, DESKTOP)
    page.goto(f"{asgi_server.url}/")
    expect(page.get_by_role("button", name="Menu")).to_be_hidden()
    expect(page.locator("#site-nav").get_by_role("link", name="Leaderboards")).to_be_visible()
    page.get_by_role("button", name="Settings").click()
    expect(page.get_by_role("checkbox", name="Sound")).not_to_be_checked()
    page.mouse.click(100, 600)  # a click outside closes the settings
    expect(page.locator("#settings")).to_be_hidden()


# --- a look at every screen -----------------------------------------------------------------
@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_screens_for_a_look(asgi_server, new_device, viewport, theme):
    """Nothing to assert beyond "it draws": SCREENS_DIR keeps the pictures."""
    room, (ana,) = room_with("Ana")
    lobby.set_public(ana, room.code, True)
    mei = Player.objects.create(nickname="Mei")
    won_game(mei, 95_000, code=daily_code(today()))
    page = page_for(new_device, asgi_server, mei, viewport)
    page.emulate_media(color_scheme=theme)
    width = viewport["width"]
    for path, name in [
        ("/", "home"),
        ("/rooms/", "rooms"),
        ("/leaderboards/", "boards"),
        ("/play/", "play"),
        ("/me/", "me"),
        (f"/rooms/{room.code}/", "room"),
    ]:
        page.goto(f"{asgi_server.url}{path}")
        expect(page.locator("html")).to_have_attribute("data-theme", theme)
        shoot(page, f"{name}-{width}-{theme}")
    page.goto(f"{asgi_server.url}/")
    if width > 600:
        page.get_by_role("button", name="Settings").click()
        shoot(page, f"settings-{width}-{theme}")
