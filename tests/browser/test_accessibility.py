"""Accessibility measured in a real Chromium: axe-core (the axe.min.js that the
axe-playwright-python package ships, injected into the page; nothing from the network)
on every page of the site map and on the race page in each of its states (lobby,
countdown, race, results, watching), in both languages, at 1280x800 and 390x844, in the
light, dark and high-contrast themes. No serious or critical violation anywhere, and no
moderate one but those justified in docs/DESIGN-SYSTEM.md §Accessibility.

One page per test is reused: the theme changes in place (site.js's contract), the size
with set_viewport_size, the language with Django's cookie and a reload. Set SCREENS_DIR
to keep a screenshot of every page in every mode (the design's before/after pictures).

Besides axe: a skip link that puts the keyboard on the board at the first Tab, tap
targets of 44 px on a phone, a focus ring a player can see."""

from datetime import timedelta

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from rooms.lobby import actions as lobby
from rooms.race import actions as races
from tests.browser.browser_helpers import DESKTOP, PHONE, page_for, server_side, shoot
from tests.browser.test_site_map import wide_data
from tests.rooms.rooms_helpers import room_with

pytestmark = pytest.mark.usefixtures("fresh_check_counts", "fresh_deal_caches")

AXE_SOURCE = Axe().axe_script  # axe.min.js, as the package ships it


def run_axe(page, options: dict) -> dict:
    """axe's results on the page now. Injected once per document, not before every run as
    the package's own `Axe.run` does: 572 KB sent and compiled again for each of a page's
    12 modes was most of this file's time."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SOURCE)
    return page.evaluate("(options) => axe.run(document, options)", options)


THEMES = ("light", "dark", "contrast")
SIZES = {"desktop": DESKTOP, "phone": PHONE}
# Moderate findings kept on purpose, each explained in docs/DESIGN-SYSTEM.md §Accessibility.
JUSTIFIED: set[str] = set()


def set_theme(page, theme: str) -> None:
    """The player's Settings, as site.js reads them: "contrast" is the light theme with
    high contrast on."""
    page.evaluate(
        """(theme) => {
            localStorage.setItem("mj-theme", theme === "dark" ? "dark" : "light");
            localStorage.setItem("mj-contrast", theme === "contrast" ? "high" : "off");
            window.MahjongTheme.apply();
        }""",
        theme,
    )


def set_language(page, server, lang: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": server.url}])


# A theme changes colours only: after every rule in the light theme, the dark and
# high-contrast ones run the rules that read colours (a third of the time).
COLOUR_RULES = {"type": "rule", "values": ["color-contrast", "link-in-text-block"]}


def next_paint(page) -> None:
    """Wait until the page has been painted once more: what a player sees after a
    resize. chrome.js marks a table box that scrolls as a tab stop from a
    ResizeObserver, whose callbacks run just before the next paint; axe run straight
    after set_viewport_size could read the box before that."""
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )


def findings(page, label: str, theme: str = "light") -> list[str]:
    """axe's violations on the page as it is now, worse than minor and not justified:
    "rule (impact) at element" for the first elements of each; a screenshot named
    `label` for a look."""
    next_paint(page)
    shoot(page, label)
    options = {"resultTypes": ["violations"]}
    if theme != "light":
        options["runOnly"] = COLOUR_RULES
    found = []
    for violation in run_axe(page, options)["violations"]:
        impact = violation["impact"]
        if impact == "minor" or (impact == "moderate" and violation["id"] in JUSTIFIED):
            continue
        for node in violation["nodes"][:3]:
            found.append(f"{violation['id']} ({impact}) at {' '.join(map(str, node['target']))}")
    return found


def every_mode(page, server, label: str, reload=None) -> dict[str, list[str]]:
    """axe in each language, size and theme on the page open now; `reload` brings the
    page back after the language changes (default: page.reload). {finding: [modes]}."""
    problems: dict[str, list[str]] = {}
    for lang in ("en", "es"):
        set_language(page, server, lang)
        (reload or page.reload)()
        page.wait_for_load_state("networkidle")
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            for theme in THEMES:
                set_theme(page, theme)
                mode = f"{label}-{lang}-{size}-{theme}"
                for finding in findings(page, mode, theme):
                    problems.setdefault(f"{label}: {finding}", []).append(mode[len(label) + 1 :])
    return problems


@pytest.mark.parametrize("part", [0, 1], ids=["first-half", "second-half"])
def test_no_page_of_the_site_map_has_a_serious_accessibility_fault(asgi_server, new_device, part):
    data = server_side(wide_data)
    paths = data["paths"][part::2]
    page = page_for(new_device, asgi_server, data["player"])
    problems = {}
    for path in paths:
        page.goto(f"{asgi_server.url}{path}")
        expect(page.locator("footer")).to_be_attached()
        label = path.strip("/").replace("/", "_") or "home"
        problems |= every_mode(page, asgi_server, label)
    assert problems == {}


def race_page(server, new_device, player, room):
    page = page_for(new_device, server, player)
    page.goto(f"{server.url}/rooms/{room.code}/")
    return page


@pytest.mark.parametrize("state", ["lobby", "countdown", "race", "results", "watching"])
def test_the_race_page_has_no_serious_accessibility_fault_in_any_state(
    asgi_server, new_device, settings, state
):
    settings.RACE_COUNTDOWN_SECONDS = 600 if state == "countdown" else 0
    room, (ana, bo) = server_side(room_with, "Ana", "Bo", cpus=["steady"])
    server_side(lobby.update_rules, ana, room.code, {"level": "beginner"})
    if state != "lobby":
        race = server_side(races.start_race, ana, room.code, seed=4)
    if state == "results":
        for player in (ana, bo):
            server_side(races.give_up, player, room.code, now=race.go_at + timedelta(seconds=65))
    page = race_page(asgi_server, new_device, None if state == "watching" else ana, room)
    ready = {
        "lobby": "#lobby",
        "countdown": "#countdown",
        "race": ".tile[data-face]",
        "results": "#results",
        "watching": "#play-area",
    }[state]
    expect(page.locator(ready).first).to_be_visible()

    def again():
        page.reload()
        expect(page.locator(ready).first).to_be_visible()

    assert every_mode(page, asgi_server, f"room-{state}", reload=again) == {}


def test_the_first_tab_offers_a_skip_link_that_puts_the_keyboard_on_the_board(
    asgi_server, new_device
):
    page = page_for(new_device, asgi_server, None, PHONE, "es")
    page.goto(f"{asgi_server.url}/play/", timeout=30_000)
    expect(page.locator(".tile").first).to_be_attached(timeout=20_000)
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Saltar al tablero")
    expect(skip).to_be_focused()
    assert skip.bounding_box()["y"] >= 0  # shown, not left off the screen
    page.keyboard.press("Enter")
    focused = page.evaluate("document.activeElement.closest('#board') !== null")
    assert focused, "the keyboard is not on the board"
    # A page without a board skips to its content.
    page.goto(f"{asgi_server.url}/rules/")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Saltar al contenido")).to_be_focused()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"


# Every control a finger aims at, outside running text (a link inside a sentence is
# exempt, as WCAG 2.5.5 has it).
SMALL_TARGETS = """() => [...document.querySelectorAll("button, select, a.button, "
        + "input:not([type=hidden]):not([type=checkbox]):not([type=radio])")]
    .filter((el) => el.checkVisibility() && !el.closest(".board"))
    .map((el) => [el.id || el.textContent.trim().slice(0, 20) || el.name,
                  el.getBoundingClientRect()])
    .filter(([, box]) => box.height < 44)
    .map(([name, box]) => `${name}: ${Math.round(box.height)} px`)"""


def test_on_a_phone_every_button_and_field_is_a_44_px_target(asgi_server, new_device, settings):
    settings.RACE_COUNTDOWN_SECONDS = 0
    data = server_side(wide_data)
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    server_side(races.start_race, ana, room.code, seed=4)
    page = page_for(new_device, asgi_server, data["player"], PHONE)
    small = {}
    for path in [*data["paths"], f"/rooms/{room.code}/"]:
        page.goto(f"{asgi_server.url}{path}")
        page.wait_for_load_state("networkidle")
        found = page.evaluate(SMALL_TARGETS)
        if found:
            small[path] = found
    assert small == {}


def test_the_focus_ring_shows_on_every_kind_of_control(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None)
    page.goto(f"{asgi_server.url}/layouts/new/")
    seen = {}
    for _ in range(40):
        page.keyboard.press("Tab")
        name, outline = page.evaluate(
            """() => { const el = document.activeElement; const style = getComputedStyle(el);
                return [el.tagName + (el.type ? ":" + el.type : ""),
                        style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2]; }"""
        )
        if name == "BODY":
            break  # past the last control
        seen.setdefault(name, outline)
    assert {"A", "BUTTON:submit", "TEXTAREA:textarea"} <= set(seen)
    assert [name for name, shown in seen.items() if not shown] == []


def test_the_style_page_shows_every_component_with_debug_on_and_nothing_without(
    asgi_server, new_device, settings
):
    page = page_for(new_device, asgi_server, None)
    assert page.goto(f"{asgi_server.url}/style/").status == 404
    settings.DEBUG = True
    page.goto(f"{asgi_server.url}/style/")
    for kind in ("info", "success", "warning", "error"):
        expect(page.locator(f".notice[data-kind='{kind}']")).to_be_visible()
    expect(page.get_by_role("button", name="Primary, disabled")).to_be_disabled()
    bars = page.locator(".all-rows progress").evaluate_all(
        "(bars) => bars.map((bar) => Math.round(bar.getBoundingClientRect().left))"
    )
    assert len(bars) == 4 and len(set(bars)) == 1  # one x for every bar
    assert every_mode(page, asgi_server, "style") == {}
