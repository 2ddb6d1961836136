"""The site installed and offline, in Chromium with its network switched off and on
(docs/ARCHITECTURE.md §Installable and offline, docs/PRACTICE.md §Offline): a repeat
visit takes every asset from the service worker, a page that cannot be reached shows the
offline page in the player's language, and a practice game played offline keeps its
moves, across a reload too, stores them all in order once back online, and is then
marked "played offline" and kept off every table."""

import datetime
import json

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from mahjong import daily as daily_codes
from practice.models import SoloGame
from records import leaderboards, statistics
from tests.browser.browser_helpers import DESKTOP, PHONE, open_game, page_for, shoot, tile
from tests.practice.practice_helpers import BEGINNER_CODE, plan_of

SIZES = [pytest.param(DESKTOP, id="laptop"), pytest.param(PHONE, id="phone")]
OFFLINE_WORDS = {
    "en": ("You are offline", "Try again"),
    "es": ("Estás sin conexión", "Reintentar"),
}


def controlled(page) -> None:
    """Wait until the service worker has installed (its files kept) and runs the page."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def static_responses(page, action) -> list:
    """Every static file's response while `action` runs on the page."""
    seen = []

    def keep(response):
        if "/static/" in response.url:
            seen.append(response)

    page.on("response", keep)
    action()
    page.wait_for_load_state("load")
    page.remove_listener("response", keep)
    return seen


def test_the_site_is_installable_and_its_first_visit_keeps_every_asset(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None)
    page.goto(f"{asgi_server.url}/")
    manifest_url = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = page.evaluate("url => fetch(url).then(r => r.json())", manifest_url)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:  # each icon is there, the size it says
        drawn = page.evaluate(
            """src => new Promise((done) => { const i = new Image();
                 i.onload = () => done([i.naturalWidth, i.naturalHeight]); i.src = src; })""",
            icon["src"],
        )
        if icon["sizes"] != "any":
            assert "x".join(map(str, drawn)) == icon["sizes"], icon
    controlled(page)
    kept = page.evaluate(
        """async () => { const names = await caches.keys();
             const cache = await caches.open(names.find((n) => n.startsWith("mj-static-")));
             return (await cache.keys()).map((r) => new URL(r.url).pathname); }"""
    )
    sheet = page.locator("link[rel=stylesheet]").first.get_attribute("href")
    assert sheet in kept and "/offline/" in kept


@pytest.mark.parametrize("viewport", SIZES)
def test_a_repeat_visit_paints_the_board_with_every_asset_from_the_service_worker(
    asgi_server, new_device, viewport
):
    player = Player.objects.create()
    page = page_for(new_device, asgi_server, player, viewport=viewport)
    open_game(asgi_server, page, BEGINNER_CODE)
    controlled(page)
    # From now on an asset asked of the network fails (the worker's fetches included).
    from_network = []
    page.context.route(
        "**/static/**", lambda route: (from_network.append(route.request.url), route.abort())
    )
    responses = static_responses(page, lambda: open_game(asgi_server, page, BEGINNER_CODE))
    urls = {response.url.split("/static/")[1] for response in responses}
    # The board's own files and the site's frame, answered by the worker.
    for name in ("mahjong/board.", "mahjong/site.", "practice/practice.", "mahjong/net."):
        assert any(url.startswith(name) for url in urls), (name, urls)
    assert all(r.from_service_worker for r in responses if ".svg" not in r.url), urls
    assert from_network == []
    expect(page.locator(".tile:visible")).to_have_count(34)
    # The tile sheet too: each face is drawn (an <svg><use> of the sheet, measured).
    face = page.locator(".tile:visible use").first
    page.wait_for_function("e => e.getBBox().width > 0", arg=face.element_handle())
    sheets = page.evaluate(
        """() => performance.getEntriesByType("resource").filter((e) => e.name.includes("/tiles."))
             .map((e) => e.deliveryType)"""
    )
    assert sheets and set(sheets) == {"cache-storage"}  # the worker's cache answered


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_page_that_cannot_be_reached_shows_the_offline_page_then_itself_when_back_online(
    asgi_server, new_device, lang
):
    page = page_for(new_device, asgi_server, None, lang=lang)
    page.goto(f"{asgi_server.url}/")
    controlled(page)
    page.context.set_offline(True)
    page.goto(f"{asgi_server.url}/rules/")
    title, retry = OFFLINE_WORDS[lang]
    expect(page.get_by_role("heading", level=1)).to_have_text(title)
    expect(page.get_by_role("button", name=retry)).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == lang
    # Its own files came from the worker too: it is drawn in the site's colours.
    header = page.locator(".site-header")
    assert header.evaluate("e => getComputedStyle(e).backgroundColor") != "rgba(0, 0, 0, 0)"
    page.context.set_offline(False)  # the page opens the address by itself
    expect(page).to_have_url(f"{asgi_server.url}/rules/")
    expect(page.locator("h1")).not_to_have_text(title)


def kept_calls(page) -> list:
    return json.loads(page.evaluate("localStorage.getItem('mj-practice-kept') || '[]'"))


def on_the_tables(game: SoloGame) -> dict:
    today = game.started_at.astimezone(datetime.UTC).date()
    from practice import daily

    return {
        "leaderboards": any(game in board.rows for board in leaderboards.practice_boards()),
        "records": game in statistics.leaderboard(game.player),
        "daily": game in daily.daily_board(today),
    }


def test_an_offline_practice_game_keeps_its_moves_across_a_reload_and_is_kept_off_every_table(
    asgi_server, new_device, settings
):
    settings.PRACTICE_OFFLINE_AFTER_MS = 1000  # a second offline marks the game
    player = Player.objects.create()
    page = page_for(new_device, asgi_server, player)
    code = daily_codes.daily_code(daily_codes.today())
    open_game(asgi_server, page, code)
    controlled(page)
    plan = plan_of(code)
    page.context.set_offline(True)
    for i, j in plan[:3]:
        tile(page, code, i).click()
        tile(page, code, j).click()
        for index in (i, j):
            expect(tile(page, code, index)).to_be_hidden()
    expect(page.locator("#connection")).to_contain_text("You are offline. Keep playing")
    assert [call["body"]["n"] for call in kept_calls(page)] == [0, 1, 2]
    game = SoloGame.objects.get(player=player, status=SoloGame.Status.PLAYING)
    assert game.moves == []  # nothing reached the server
    page.wait_for_timeout(1200)  # longer offline than the mark's threshold
    # A reload while offline: the offline page, the moves still kept on the device.
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("You are offline")
    # Its three pairs, and the pause of the page being left (which names that page: the
    # server will ignore it, the game's next page being served by then).
    kept = kept_calls(page)
    assert [call["body"]["n"] for call in kept if call["action"] == "move"] == [0, 1, 2]
    assert [call["action"] for call in kept[3:]] == ["pause"]
    page.context.set_offline(False)  # back: the game's page opens and sends them
    expect(page.locator("#offline-note")).to_be_visible(timeout=20_000)
    expect(page.locator("#offline-note")).to_contain_text("Played offline")
    expect(page.locator("#connection")).to_have_text("Back online: your moves are stored.")
    shoot(page, "offline-game-back-online")
    expect(page.locator(".tile:visible")).to_have_count(len(plan) * 2 - 6)
    game.refresh_from_db()
    assert game.moves == [sorted(pair) for pair in plan[:3]] and game.played_offline
    assert kept_calls(page) == []
    # The rest online, to the win: the win says why it ranks nowhere.
    for i, j in plan[3:]:
        tile(page, code, i).click()
        tile(page, code, j).click()
    expect(page.locator("#won-dialog")).to_be_visible()
    expect(page.locator("#won-rank")).to_contain_text("played offline")
    shoot(page, "offline-game-won")
    game.refresh_from_db()
    assert game.status == SoloGame.Status.WON and game.moves == [sorted(p) for p in plan]
    assert on_the_tables(game) == {"leaderboards": False, "records": False, "daily": False}


def test_an_online_game_shows_no_offline_mark(asgi_server, new_device):
    player = Player.objects.create()
    page = page_for(new_device, asgi_server, player)
    open_game(asgi_server, page, BEGINNER_CODE)
    (i, j) = plan_of(BEGINNER_CODE)[0]
    tile(page, BEGINNER_CODE, i).click()
    tile(page, BEGINNER_CODE, j).click()
    expect(page.locator("#pairs-left")).to_have_text("16 pairs left")
    expect(page.locator("#offline-note")).to_be_hidden()
    assert not SoloGame.objects.get(player=player).played_offline


def test_pairs_played_while_the_network_is_off_are_stored_in_order_when_it_returns(
    asgi_server, new_device
):
    player = Player.objects.create()
    page = page_for(new_device, asgi_server, player, viewport=PHONE)
    open_game(asgi_server, page, BEGINNER_CODE)
    plan = plan_of(BEGINNER_CODE)
    page.context.set_offline(True)
    for i, j in plan[:4]:
        tile(page, BEGINNER_CODE, i).click()
        tile(page, BEGINNER_CODE, j).click()
    expect(page.locator("#pairs-left")).to_have_text("13 pairs left")
    expect(page.locator("#connection")).to_contain_text("You are offline")
    # A hint needs the server: the page says so instead of failing.
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#connection")).to_have_text("You are offline: this needs a connection.")
    shoot(page, "offline-game-queued")
    page.context.set_offline(False)
    expect(page.locator("#connection")).to_have_text(
        "Back online: your moves are stored.", timeout=15_000
    )
    game = SoloGame.objects.get(player=player, status=SoloGame.Status.PLAYING)
    assert game.moves == [sorted(pair) for pair in plan[:4]]
    assert not game.played_offline  # seconds, not the threshold's ten: refereed as usual
    assert kept_calls(page) == []
