"""An arena played end to end through the pages (docs/RULES.md §Arenas): Ana on a
desktop creates it from /arenas/, Bo on a phone joins, a spectator watches; they race
three races, each one's "Next race" on the race page bringing them back for the next;
the live table the spectator sees is the races' sum, and the podium stays at the end."""

import re
import threading
import time

import pytest
from django.db import connection
from playwright.sync_api import expect

from arenas import pairing
from arenas.models import Arena, ArenaResult
from rooms.core import outbox
from rooms.core.boards import deal_for
from rooms.models import Entry
from tests.browser.browser_helpers import (
    DESKTOP,
    PHONE,
    no_sideways_scroll,
    page_for,
    play,
    server_side,
    shoot,
)

pytestmark = pytest.mark.browser


class Beat:
    """The scheduler's arena tick, once a second in a thread, as beat runs it."""

    def __init__(self):
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        try:
            while not self.stop.wait(1):
                with outbox.sent_after():
                    pairing.tick()
        finally:
            connection.close()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(10)


def board_in(room_url: str, nickname: str) -> Entry:
    code = room_url.rstrip("/").rsplit("/", 1)[1]
    return Entry.objects.get(race__room__code=code, seat__nickname=nickname)


def clear_board(page, entry: Entry) -> None:
    """Every pair of the plan, each seen gone before the next (a tile still lifting away
    could take the next tap), at a person's uneven pace (no inhuman-pace flag): two
    quick pairs, then a pause. A third of the intervals between pairs are long, so any
    window of them spreads far wider than half its median (mahjong/race_rules/pace.py,
    docs/ACCOUNTS.md §Fair play)."""
    for k, pair in enumerate(deal_for(entry.code).plan):
        play(page, entry, pair)
        if k % 3 == 2:
            time.sleep(0.8)


def test_two_players_and_a_spectator_see_an_arena_through_three_races_and_its_podium(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 1
    settings.RANKED_GATHER_SECONDS = 1
    ana = page_for(new_device, asgi_server, None, DESKTOP)
    ana.goto(f"{asgi_server.url}/arenas/")
    ana.fill("#arena-name", "Friday sprint")
    ana.select_option("#arena-level", "beginner")
    ana.fill("#arena-minutes", "10")
    ana.check("#arena-public")
    ana.get_by_role("button", name="Create the arena").click()
    expect(ana.locator("#arena-name")).to_have_text("Friday sprint")
    arena_url = ana.url
    ana.fill("#arena-nickname", "Ana")
    ana.get_by_role("button", name="Join the arena").click()
    bo = page_for(new_device, asgi_server, None, PHONE, has_touch=True)
    bo.goto(arena_url)
    bo.fill("#arena-nickname", "Bo")
    bo.get_by_role("button", name="Join the arena").click()
    watcher = page_for(new_device, asgi_server, None, DESKTOP)
    watcher.goto(arena_url)
    expect(watcher.locator("#table-rows tr")).to_have_count(2)
    expect(watcher.locator("#you")).to_be_hidden()  # a spectator has no line of their own
    expect(watcher.locator("#arena-clock")).to_contain_text("left")
    shoot(ana, "arena-joined")
    no_sideways_scroll(bo)

    with Beat():
        ana.get_by_role("button", name="Ready for a race").click()
        bo.get_by_role("button", name="Ready for a race").click()
        for number in (1, 2, 3):
            for page in (ana, bo):  # the arena page goes to the race by itself
                page.wait_for_url(re.compile(r"/rooms/[A-Z0-9]+/$"), timeout=20_000)
            assert ana.url == bo.url
            race_url = ana.url
            expect(watcher.locator("#race-list a", has_text="Watch")).to_have_count(1)
            entry = server_side(board_in, race_url, "Ana")
            expect(ana.locator(".tile[data-face]:not([hidden])")).to_have_count(34)
            clear_board(ana, entry)
            expect(ana.locator("#done-banner")).to_contain_text("You finished 1st in")
            bo.get_by_role("button", name="Give up").click()
            for page in (ana, bo):
                expect(page.locator("#results")).to_be_visible()
                expect(page.locator("#next-race")).to_contain_text(re.compile(r"Next race in \d s"))
            if number == 1:
                shoot(ana, "race-next-race")
                shoot(bo, "race-next-race-phone")
            if number == 3:  # Bo stays to look at the results, then pauses
                bo.get_by_role("button", name="Stay here").click()
                expect(bo.locator("#next-race")).to_have_text("Next race")
            for page in (ana, bo) if number < 3 else (ana,):
                page.wait_for_url(re.compile(r"/arenas/"), timeout=15_000)
            expected = [12, 24, 48][number - 1]
            expect(watcher.locator("#table-rows tr").first).to_contain_text(
                f"Ana{'' if number < 2 else '×2'}"
            )
            expect(watcher.locator("#table-rows tr").first.locator("td").nth(2)).to_have_text(
                str(expected)
            )
        # After the third race Ana waits alone; Bo is still on his results.
        expect(bo.locator("#next-race")).to_have_text("Next race")
        bo.get_by_role("link", name="Pause").click()
        expect(bo.locator("#you-state")).to_contain_text("Paused")
        ana.get_by_role("button", name="Pause").click()
        expect(ana.locator("#you-state")).to_contain_text("Paused")

    # The table the spectator sees is the races' sum.
    def sums():
        rows = ArenaResult.objects.values_list("arena_player__nickname", "points")
        totals = {}
        for name, points in rows:
            totals[name] = totals.get(name, 0) + points
        return totals

    totals = server_side(sums)
    assert totals == {"Ana": 48, "Bo": 0}
    shown = [
        [cell.inner_text() for cell in row.locator("td").all()[:4]]
        for row in watcher.locator("#table-rows tr").all()
    ]
    assert shown == [["1", "Ana×2", "48", "3"], ["2", "Bo", "0", "3"]]
    expect(bo.locator("#table-rows tr.me")).to_contain_text("Bo")
    expect(bo.locator("#you-line")).to_contain_text("You: #2, 0 points, 3 races")
    shoot(watcher, "arena-table")
    shoot(bo, "arena-table-phone")

    # The window closes: the podium, for good.
    def close():
        arena = Arena.objects.get()
        Arena.objects.filter(pk=arena.pk).update(minutes=0)
        return pairing.tick()

    server_side(close)
    watcher.reload()
    expect(watcher.locator("#podium")).to_be_visible()
    expect(watcher.locator("#podium-list li").first).to_contain_text("Ana")
    expect(watcher.locator("#arena-clock")).to_have_text("This arena is over: the final table.")
    shoot(watcher, "arena-podium")
