"""Three players race in one room in real Chromium windows (docs/RULES.md §Races)."""

import pytest
from playwright.sync_api import expect

from rooms.core.boards import deal_for
from rooms.models import Entry, Race
from tests.browser.browser_helpers import click_pair, create_room, tile

# Each player's own device: a laptop's window, saying yes to "Give up?".
PLAYER = {"viewport": {"width": 1000, "height": 760}, "accept_dialogs": True}

pytestmark = pytest.mark.usefixtures("short_countdown")


def play(page, entry, pairs):
    for pair in pairs:
        click_pair(page, entry, pair)


def entry_of(nickname):
    return Entry.objects.select_related("seat").get(seat__nickname=nickname)


def test_three_players_race_and_one_gets_the_board_back_after_reopening(asgi_server, new_device):
    ana, bo, cy = (new_device(**PLAYER) for _ in range(3))
    room_url = create_room(ana, asgi_server, "Ana")
    for page, name in ((bo, "Bo"), (cy, "Cy")):
        page.goto(room_url)
        page.fill("#join-nickname", name)
        page.get_by_role("button", name="Join").click()
    expect(ana.locator("#seats li")).to_have_count(3)
    ana.select_option("select[name=level]", "beginner")
    expect(bo.locator("select[name=level]")).to_have_value("beginner")
    ana.get_by_role("button", name="Start").click()

    for page in (ana, bo, cy):
        expect(page.locator(".tile[data-face]")).to_have_count(34)
    plan = deal_for(entry_of("Ana").code).plan
    play(bo, entry_of("Bo"), plan[:2])
    expect(ana.locator("#leaders")).to_contain_text("Bo 11%")

    context = bo.context
    bo.close()  # Bo closes the page mid-race, then comes back from the same device
    bo = context.new_page()
    bo.goto(room_url)
    expect(bo.locator(".tile[data-face]")).to_have_count(34)
    for i in (*plan[0], *plan[1]):
        expect(tile(bo, entry_of("Bo").code, i)).to_be_hidden()
    expect(bo.locator("#progress")).to_have_text("11%")

    play(ana, entry_of("Ana"), plan)
    expect(ana.locator("#done-banner")).to_contain_text("You finished 1st in")
    for page in (bo, cy):
        page.get_by_role("button", name="Give up").click()
    for page in (ana, bo, cy):
        expect(page.locator("#results")).to_be_visible()
    rows = ana.locator("#results-rows tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Ana")
    expect(ana.locator("#progress-chart polyline")).to_have_count(3)
    expect(ana.locator("#room-table")).to_contain_text("Ana: 2")
    expect(ana.get_by_role("button", name="Another game")).to_be_visible()
    expect(bo.get_by_role("button", name="Another game")).to_be_hidden()


def test_another_game_starts_once_every_player_says_ready(asgi_server, new_device):
    ana, bo = (new_device(**PLAYER) for _ in range(2))
    create_room(ana, asgi_server, "Ana")
    bo.goto(ana.url)
    bo.fill("#join-nickname", "Bo")
    bo.get_by_role("button", name="Join").click()
    expect(ana.locator("#seats li")).to_have_count(2)
    ana.get_by_role("button", name="Start").click()
    for page in (ana, bo):
        expect(page.locator(".tile[data-face]").first).to_be_visible()
        page.get_by_role("button", name="Give up").click()
    expect(ana.locator("#results")).to_be_visible()
    ana.get_by_role("button", name="Another game").click()  # an offer: the ready check
    expect(bo.locator("#ready-list")).to_contain_text("Bo: not ready yet")
    start_now = ana.get_by_role("button", name="Start without those not ready")
    expect(start_now).to_be_disabled()  # Bo has 30 s to say Ready
    bo.get_by_role("button", name="Ready").click()  # the last one: the race starts itself
    for page in (ana, bo):
        expect(page.locator("#results")).to_be_hidden()
        expect(page.locator(".tile[data-face]").first).to_be_visible()
        expect(page.get_by_role("button", name="Give up")).to_be_enabled()
    assert Race.objects.count() == 2
    assert set(Race.objects.values_list("room__seats__nickname", flat=True)) == {"Ana", "Bo"}
