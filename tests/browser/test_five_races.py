"""Two friends, Ana on a desktop and Bo on a phone, and a spectator race five times in a
row in one room on the real web server, which is killed and started again in the middle
of the third race (docs/PROTOCOL.md §Reconnecting). Never a control that does nothing, a
board that is not one's own, a count the server does not hold, or a pair that vanished."""

import os
import re
import signal
import time
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from rooms.core.boards import deal_for
from rooms.models import Entry, Race
from tests.browser.browser_helpers import (
    DESKTOP,
    PHONE,
    another_game,
    click_pair,
    create_room,
    hint_and_a_pair,
    no_sideways_scroll,
    page_for,
    play,
    server_side,
    shoot,
    tile,
)
from tests.ops.drill_helpers import WebServer
from tests.rooms.rooms_helpers import board_of, plan_pair, progress_of, stored_pairs, wait_stored

pytestmark = pytest.mark.django_db(transaction=True)

RACES = 5
RESTARTED_IN = 3  # the race during which the server is killed and started again
HINTS = 3  # a beginner's hints per race (docs/RULES.md)


def the_room(new_device, site):
    """Ana creates a beginner room on the desktop, Bo joins on the phone, a visitor
    watches on the desktop: (ana, bo, watcher)."""
    ana = page_for(new_device, site, None, DESKTOP)
    room_url = create_room(ana, site, "Ana")
    ana.select_option("select[name=level]", "beginner")
    bo = page_for(new_device, site, None, PHONE)
    bo.goto(room_url)
    bo.fill("#join-nickname", "Bo")
    bo.get_by_role("button", name="Join").click()
    watcher = page_for(new_device, site, None, DESKTOP)
    watcher.goto(room_url)
    expect(ana.locator("#seats li")).to_have_count(2)
    expect(ana.locator("#watching")).to_have_text("1 watching")
    return ana, bo, watcher


def at_the_countdown(ana, bo, watcher) -> None:
    """The countdown claims nothing: no message, no running clock, no place, no news of
    the last race; each seated page has a fresh board, its own row its own."""
    for page in (ana, bo):
        expect(page.locator("#countdown")).to_be_visible()
        expect(page.locator("#message")).to_have_text("")
        expect(page.locator("#clock")).to_have_text("0:00")
    for page in (ana, bo, watcher):
        expect(page.locator("#all-rows li")).to_have_count(2)
        expect(page.locator("#all-rows .name", has_text=re.compile(r"^\d"))).to_have_count(0)
        expect(page.locator("#notice")).not_to_contain_text("back")
    expect(ana.locator("#all-rows li.me .name")).to_have_text("Ana")
    expect(bo.locator("#all-rows li.me .name")).to_have_text("Bo")
    expect(watcher.locator("#all-rows li.me")).to_have_count(0)
    expect(bo.locator("#hints-left")).to_have_text(str(HINTS))


def counts_agree(pages: dict, entries: dict) -> None:
    """Each player's Cleared counter and hints left are the server's, and every page's
    standings read each board's stored progress."""
    for name, entry in entries.items():
        stored = server_side(Entry.objects.get, pk=entry.pk)
        progress = server_side(progress_of, entry)
        expect(pages[name].locator("#progress")).to_have_text(progress)
        expect(pages[name].locator("#hints-left")).to_have_text(str(HINTS - stored.hints_used))
        for page in pages.values():
            row = page.locator("#all-rows li", has_text=name)
            expect(row.locator(".state")).to_have_text(progress)


def stored_once(entry: Entry, pairs: list[list[int]]) -> None:
    """`pairs` are stored, in that order, each once, and nothing more comes."""
    assert server_side(wait_stored, entry, len(pairs)) == pairs
    time.sleep(1)
    assert server_side(stored_pairs, entry) == pairs


def refuses_clicks_under_the_cover(page, entry: Entry, acknowledged: str, pair) -> None:
    """The seated page is covered; a tap on a tile under the cover, the keyboard, Hint
    and Give up change nothing."""
    cover = page.locator("#link-cover")
    expect(cover).to_be_visible(timeout=20_000)
    expect(cover).to_contain_text("Reconnecting — your moves are kept")
    expect(cover).to_contain_text("1 pair waits to be sent.")
    for button in ("#hint", "#give-up"):
        expect(page.locator(button)).to_be_disabled()
    box = tile(page, entry.code, pair[0]).bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.keyboard.press("Enter")
    expect(page.locator(".tile.selected")).to_have_count(0)
    expect(page.locator("#progress")).to_have_text(acknowledged)


def restart_mid_race(server, pages: dict, watcher, entries: dict, made: dict) -> dict:
    """Each player has made `made[name]` pairs of the plan, all acknowledged. The server
    stops answering, each plays one pair more (sent, never answered), the server is
    killed and started again: every pair is stored once and the counts are the server's.
    The pairs each has made now."""
    for name, entry in entries.items():
        assert server_side(wait_stored, entry, made[name]) == [
            plan_pair(entry, k) for k in range(made[name])
        ]
    counts_agree(pages, entries)
    acknowledged = {name: pages[name].locator("#progress").inner_text() for name in pages}
    os.killpg(server.process.pid, signal.SIGSTOP)  # it hears nothing and answers nothing
    for name, entry in entries.items():
        play(pages[name], entry, plan_pair(entry, made[name]))
        expect(pages[name].locator("#progress")).to_have_text(acknowledged[name])
    for name, entry in entries.items():
        later = plan_pair(entry, made[name] + 1)
        refuses_clicks_under_the_cover(pages[name], entry, acknowledged[name], later)
    server.kill()  # gone for good, the unread pairs with it
    expect(watcher.locator("#connection")).to_have_text(
        "Reconnecting — your moves are kept", timeout=20_000
    )
    for name, entry in entries.items():
        assert len(server_side(stored_pairs, entry)) == made[name]
    server.start()
    for page in (*pages.values(), watcher):
        expect(page.locator("#race")).to_have_attribute("data-link", "up", timeout=30_000)
        expect(page.locator("#link-cover")).to_be_hidden()
        expect(page.locator("#connection")).to_have_text("")
    made = {name: count + 1 for name, count in made.items()}
    for name, entry in entries.items():
        stored_once(entry, [plan_pair(entry, k) for k in range(made[name])])
    counts_agree(pages, entries)
    return made


def results_agree(pages: dict, watcher, number: int, entries: dict) -> None:
    """Every page shows this race's results; each board's status (Ana's finish time,
    Bo's "gave up"), Cleared and hints are the database's."""
    race_id = server_side(lambda: Race.objects.get(number=number).pk)
    for page in (*pages.values(), watcher):
        expect(page.locator("#results")).to_be_visible()
        expect(page.locator("#results-title")).to_have_text(f"Results of race {number}")
        expect(page.get_by_role("link", name="Watch the replay")).to_have_attribute(
            "href", f"/replays/race/{race_id}/"
        )
        expect(page.locator("#play-area")).to_be_hidden()
        expect(page.locator("#message")).to_have_text("")
        for name, entry in entries.items():
            stored = server_side(Entry.objects.get, pk=entry.pk)
            cells = page.locator("#results-rows tr", has_text=name).locator("td")
            status = re.compile(r"^\d+:\d\d") if name == "Ana" else re.compile("^gave up$")
            expect(cells.nth(2)).to_have_text(status)
            expect(cells.nth(3)).to_have_text(server_side(progress_of, entry))
            expect(cells.nth(4)).to_have_text(str(stored.hints_used))
    assert server_side(lambda: Entry.objects.get(pk=entries["Ana"].pk).status) == "finished"
    assert server_side(lambda: Entry.objects.get(pk=entries["Bo"].pk).status) == "gave_up"
    no_sideways_scroll(pages["Bo"])


def one_race(server, ana, bo, watcher, number: int) -> None:
    """Bo takes a hint and plays a pair, Ana clears her board (the server restarted on
    the way, in race RESTARTED_IN), Bo gives up; the results agree with the database."""
    at_the_countdown(ana, bo, watcher)
    entries = {name: server_side(board_of, name, number) for name in ("Ana", "Bo")}
    pages = {"Ana": ana, "Bo": bo}
    expect(ana.locator(".tile[data-face]:not([hidden])")).to_have_count(34)
    assert watcher.locator(".tile[data-face]").count() == 0  # never a face
    hint_and_a_pair(bo, "Bo", number)
    made = {"Ana": 0, "Bo": 1}
    if number == RESTARTED_IN:
        for k in range(2):
            play(ana, entries["Ana"], plan_pair(entries["Ana"], k))
        made = restart_mid_race(server, pages, watcher, entries, {"Ana": 2, "Bo": 1})
    for pair in deal_for(entries["Ana"].code).plan[made["Ana"] :]:
        click_pair(ana, entries["Ana"], pair)
    expect(ana.locator("#done-banner")).to_contain_text("You finished 1st in")
    expect(ana.locator("#message")).to_have_text("")
    clock = ana.locator("#clock").inner_text()
    time.sleep(1.2)
    expect(watcher.locator("#leaders")).to_contain_text("Ana")
    assert ana.locator("#clock").inner_text() == clock  # stopped at the finish
    counts_agree({"Bo": bo}, {"Bo": entries["Bo"]})
    bo.get_by_role("button", name="Give up").click()
    results_agree(pages, watcher, number, entries)
    shoot(bo, f"five-races-{number}-phone")


def test_two_friends_and_a_spectator_race_five_times_with_the_server_restarted_in_one(
    tmp_path, settings, new_device
):
    server = WebServer(tmp_path, settings.REDIS_URL, pages=True)
    # The killed server's watching socket stops counting when its lease lapses: 20 s,
    # still longer than the page's 15 s ping (config/settings.py), not the site's 45.
    server.env["WATCHER_LEASE_SECONDS"] = "20"
    server.start()
    site = SimpleNamespace(url=server.page_url)
    try:
        ana, bo, watcher = the_room(new_device, site)
        for number in range(1, RACES + 1):
            if number == 1:
                ana.get_by_role("button", name="Start").click()
            else:  # offered from the results, then from the lobby, in turn
                another_game(ana, bo, watcher, from_lobby=number % 2 == 1)
            one_race(server, ana, bo, watcher, number)
        assert server_side(Race.objects.count) == RACES
        history = bo.locator("#room-history-list a")
        expect(history).to_have_text([f"Race {n}" for n in range(1, RACES + 1)])
        # The spectator's socket on the killed server counts until its lease lapses
        # (WATCHER_LEASE_SECONDS, above), then every page hears it at the next ping.
        for page in (ana, bo):
            expect(page.locator("#watching")).to_have_text("1 watching", timeout=90_000)
    finally:
        server.stop()
