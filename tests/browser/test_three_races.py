"""Two friends, one on a desktop and one on a phone, with a CPU and a spectator, race
three times in a row in one room, all through the pages: no false message, no running
clock after a finish, results that fit the phone, the spectator never sees a face."""

import re
import time

from playwright.sync_api import expect

from rooms.core.boards import deal_for
from rooms.models import Race
from tests.browser.browser_helpers import (
    DESKTOP,
    PHONE,
    another_game,
    click_pair,
    create_room,
    hint_and_a_pair,
    no_sideways_scroll,
    page_for,
    server_side,
    shoot,
)
from tests.rooms.rooms_helpers import board_of


def test_two_friends_a_cpu_and_a_spectator_race_three_times_in_a_row(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 2  # long enough to be seen on both pages under load
    ana = page_for(new_device, asgi_server, None, DESKTOP)
    room_url = create_room(ana, asgi_server, "Ana")
    ana.select_option("select[name=level]", "beginner")
    ana.get_by_role("button", name="Add a CPU").click()
    bo = page_for(new_device, asgi_server, None, PHONE)
    bo.goto(room_url)
    bo.fill("#join-nickname", "Bo")
    bo.get_by_role("button", name="Join").click()
    watcher = page_for(new_device, asgi_server, None, DESKTOP)
    watcher.goto(room_url)
    expect(ana.locator("#seats li")).to_have_count(3)
    expect(ana.locator("#watching")).to_have_text("1 watching")

    for number in (1, 2, 3):
        if number == 1:
            ana.get_by_role("button", name="Start").click()
        else:
            another_game(ana, bo, watcher, from_lobby=number == 3)
        for page in (ana, bo):  # the countdown claims nothing, not even the last time
            expect(page.locator("#countdown")).to_be_visible()
            expect(page.locator("#message")).to_have_text("")
            expect(page.locator("#clock")).to_have_text("0:00")
        for page in (ana, bo, watcher):  # no place, no news of the last race
            expect(page.locator("#all-rows li")).to_have_count(3)
            expect(page.locator("#all-rows .name", has_text=re.compile(r"^\d"))).to_have_count(0)
            expect(page.locator("#notice")).not_to_contain_text("back")
        expect(bo.locator("#hints-left")).to_have_text("3")
        # The last race's cleared board keeps its faces, hidden: count the new one's.
        expect(ana.locator(".tile[data-face]:not([hidden])")).to_have_count(34)
        entry = server_side(board_of, "Ana", number)
        for pair in deal_for(entry.code).plan:
            click_pair(ana, entry, pair)
        expect(ana.locator("#done-banner")).to_be_visible()
        expect(ana.locator("#done-banner")).to_contain_text("You finished 1st in")
        expect(ana.locator("#message")).to_have_text("")
        clock = ana.locator("#clock").inner_text()
        time.sleep(1.2)
        assert ana.locator("#clock").inner_text() == clock  # stopped at the finish
        expect(watcher.locator("#leaders")).to_contain_text("Ana")
        assert watcher.locator(".tile[data-face]").count() == 0  # never a face
        hint_and_a_pair(bo, "Bo", number)
        bo.get_by_role("button", name="Give up").click()
        for page in (ana, bo, watcher):
            expect(page.locator("#results")).to_be_visible()
            expect(page.locator("#results-title")).to_have_text(f"Results of race {number}")
            race_id = server_side(lambda n=number: Race.objects.get(number=n).pk)
            replay = page.get_by_role("link", name="Watch the replay")
            expect(replay).to_have_attribute("href", f"/replays/race/{race_id}/")
            expect(page.locator("#play-area")).to_be_hidden()
        no_sideways_scroll(bo)
        bo_row = bo.locator("#results-rows tr.me td")
        expect(bo_row.nth(4)).to_have_text("1")  # the hint the button counted
        expect(bo.locator("#message")).to_have_text("")
        shoot(bo, f"three-races-{number}-phone")

    assert server_side(lambda: Race.objects.count()) == 3
    expect(ana.locator("#room-table")).to_contain_text("Ana:")
    history = bo.locator("#room-history-list a")  # every race of the room, to watch again
    expect(history).to_have_text(["Race 1", "Race 2", "Race 3"])
    ids = server_side(lambda: list(Race.objects.order_by("number").values_list("pk", flat=True)))
    expect(history.first).to_have_attribute("href", f"/replays/race/{ids[0]}/")
