"""The race page when its socket drops (docs/PROTOCOL.md §Reconnecting): the board freezes
under a cover, pairs the server never acknowledged are kept and stored exactly once when
the socket is back, nothing reads as done that the server did not store, and a room that
is gone is said so. One test stops the real web server and starts it again; the others
cut the socket between the page and the server (Playwright's websocket routing)."""

import os
import re
import signal
import time
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from rooms.core.boards import deal_for, position_of
from rooms.lobby import actions as lobby
from rooms.models import Entry, Room
from rooms.race import actions as races
from tests.browser.browser_helpers import PHONE, page_for, play, server_side, shoot, tile
from tests.ops.drill_helpers import WebServer
from tests.rooms.rooms_helpers import plan_pair, progress_of, room_with, stored_pairs, wait_stored

pytestmark = pytest.mark.django_db(transaction=True)


def open_board(new_device, server, player, **options):
    page = page_for(new_device, server, player, **options)
    page.goto(f"{server.url}/rooms/{Entry.objects.get(seat__player=player).race.room.code}/")
    expect(page.locator(".tile[data-face]").first).to_be_visible()
    expect(page.locator("#race")).to_have_attribute("data-link", "up")
    return page


def clock_seconds(text: str) -> int:
    """'3:07' (or '10:00 +0:12') as seconds."""
    total = 0
    for part in re.findall(r"(\d+):(\d\d)", text):
        total += int(part[0]) * 60 + int(part[1])
    return total


class CutSocket:
    """Every room socket of a page goes through here. `deaf`: the page hears nothing from
    the server; `mute`: the server hears nothing from the page (the socket stays open,
    as on a dead network); `close()` ends the socket at both ends, and lets the next through;
    `refuse`: a new socket is closed at once (the server is unreachable)."""

    def __init__(self, page):
        self.opened = 0
        self.ends = []
        self.deaf = self.mute = self.refuse = False
        page.route_web_socket(re.compile(r"/ws/rooms/"), self.route)

    def route(self, ws):
        self.opened += 1
        if self.refuse:
            ws.close(code=4000, reason="unreachable")
            return
        server = ws.connect_to_server()
        self.ends.append((ws, server))
        ws.on_message(lambda message: None if self.mute else server.send(message))
        server.on_message(lambda message: None if self.deaf else ws.send(message))

    def cut(self):
        self.deaf = self.mute = True

    def close(self):
        self.deaf = self.mute = False
        page_end, server_end = self.ends[-1]
        server_end.close()
        page_end.close(code=4000, reason="cut")


def test_with_the_server_stopped_the_board_freezes_and_kept_pairs_are_stored_once_back(
    tmp_path, settings, new_device, race_of_two_past_go
):
    room, (ana, bo) = race_of_two_past_go
    entry = Entry.objects.get(seat__player=ana)
    server = WebServer(tmp_path, settings.REDIS_URL, pages=True)
    server.start()
    site = SimpleNamespace(url=server.page_url)
    try:
        page = open_board(new_device, site, ana)
        first, second, third = (plan_pair(entry, k) for k in range(3))
        play(page, entry, first)
        assert wait_stored(entry, 1) == [first]
        expect(page.locator("#progress")).not_to_have_text("0%")
        acknowledged = page.locator("#progress").text_content()

        os.killpg(server.process.pid, signal.SIGSTOP)  # it hears nothing and answers nothing
        play(page, entry, second)
        play(page, entry, third)
        # Sent, never answered: the page does not count them as done.
        expect(page.locator("#progress")).to_have_text(acknowledged)
        cover = page.locator("#link-cover")
        expect(cover).to_be_visible(timeout=15_000)  # the unanswered pairs make it check
        expect(cover).to_contain_text("Reconnecting — your moves are kept")
        expect(cover).to_contain_text("2 pairs wait to be sent.")
        expect(cover).to_have_attribute("role", "status")
        expect(cover).to_be_focused()
        for button in ("#hint", "#give-up"):
            expect(page.locator(button)).to_be_disabled()
        # A tap on a tile under the cover, and the keyboard, change nothing.
        fourth = plan_pair(entry, 3)
        box = tile(page, entry.code, fourth[0]).bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.keyboard.press("Enter")
        expect(page.locator(".tile.selected")).to_have_count(0)
        expect(page.locator("#progress")).to_have_text(acknowledged)

        server.kill()  # and gone for good, the unread pairs with it
        assert stored_pairs(entry) == [first]
        server.start()
        expect(cover).to_be_hidden(timeout=30_000)
        assert wait_stored(entry, 3) == [first, second, third]  # each once, in order
        time.sleep(1)  # nothing more comes
        assert stored_pairs(entry) == [first, second, third]
        entry.refresh_from_db()
        assert entry.pairs_removed == 3
        expect(page.locator("#progress")).to_have_text(progress_of(entry))
        for index in second + third:
            expect(tile(page, entry.code, index)).to_be_hidden()
        elapsed = (timezone.now() - entry.race.go_at).total_seconds()
        assert abs(clock_seconds(page.locator("#clock").text_content()) - elapsed) <= 2
        play(page, entry, fourth)  # and the race goes on
        assert wait_stored(entry, 4)[-1] == fourth
    finally:
        server.stop()


def test_a_pair_stored_whose_answer_was_lost_is_not_sent_twice(
    asgi_server, new_device, race_of_two_past_go
):
    """The first pair reaches the server but its answer never comes back; the second never
    reaches it. Back on a new socket the server's board says which is which."""
    room, (ana, bo) = race_of_two_past_go
    entry = Entry.objects.get(seat__player=ana)
    page = page_for(new_device, asgi_server, ana)
    link = CutSocket(page)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator(".tile[data-face]").first).to_be_visible()
    first, second = plan_pair(entry, 0), plan_pair(entry, 1)
    expect(page.locator("#race")).to_have_attribute("data-link", "up")

    link.deaf = True  # the server hears the page; the page hears nothing
    play(page, entry, first)
    assert wait_stored(entry, 1) == [first]
    link.cut()
    play(page, entry, second)
    expect(page.locator("#progress")).to_have_text("0%")  # neither is acknowledged
    link.close()
    expect(page.locator("#link-cover")).to_be_visible()
    expect(page.locator("#link-cover")).to_be_hidden(timeout=15_000)
    assert wait_stored(entry, 2) == [first, second]
    page.wait_for_timeout(1000)  # nothing more comes (through CutSocket: not a plain sleep)
    assert stored_pairs(entry) == [first, second]
    expect(page.locator("#progress")).to_have_text(progress_of(entry))


def test_a_kept_pair_the_server_no_longer_allows_comes_back_with_a_word(
    asgi_server, new_device, race_of_two_past_go
):
    """While the page was cut off, one tile of its kept pair went in another pair on the
    server (as a stand-in's would): the kept pair cannot be stored, its tile comes back."""
    room, (ana, bo) = race_of_two_past_go
    entry = Entry.objects.get(seat__player=ana)
    page = page_for(new_device, asgi_server, ana)
    link = CutSocket(page)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator(".tile[data-face]").first).to_be_visible()
    kept, other = two_pairs_sharing_a_face(entry)
    expect(page.locator("#race")).to_have_attribute("data-link", "up")
    link.cut()
    play(page, entry, kept)
    server_side(races.play_pair, ana, room.code, other, 0)
    link.close()
    expect(page.locator("#link-cover")).to_be_hidden(timeout=15_000)
    expect(page.locator("#message")).to_have_text(
        "1 pair did not reach the server: its tiles are back on the board."
    )
    assert stored_pairs(entry) == [other]
    back = (set(kept) - set(other)).pop()
    expect(tile(page, entry.code, back)).to_be_visible()


def two_pairs_sharing_a_face(entry: Entry):
    """Two legal pairs of the fresh board with one tile in common: (a, b) and (a, c)."""
    pairs = position_of(entry).playable_pairs()
    for a in {i for pair in pairs for i in pair}:
        mates = [b for pair in pairs for b in pair if a in pair and b != a]
        if len(mates) >= 2:
            return sorted([a, mates[0]]), sorted([a, mates[1]])
    pytest.skip("this deal opens with no three free tiles of one face")


def test_a_room_that_is_gone_is_said_so_and_not_tried_again(
    asgi_server, new_device, race_of_two_past_go
):
    room, (ana, bo) = race_of_two_past_go
    page = page_for(new_device, asgi_server, ana, viewport=PHONE, lang="es")
    link = CutSocket(page)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator(".tile[data-face]").first).to_be_visible()
    # Its socket up (the board can be drawn before the socket opens): the one cut below.
    expect(page.locator("#race")).to_have_attribute("data-link", "up")
    # The page hears nothing while the room goes (a message about a deleted room on the old
    # socket would race the cut), then the cut: the socket it opens next finds no room.
    link.deaf = True
    server_side(lambda: Room.objects.filter(pk=room.pk).delete())
    link.close()
    cover = page.locator("#link-cover")
    # After the first retry's wait, a new socket's whole opening: slow on a loaded machine.
    expect(cover).to_contain_text("Esta sala ya no existe", timeout=15_000)
    expect(page.locator("#link-rooms")).to_be_visible()
    expect(page.locator("#link-retry")).to_be_hidden()
    expect(page.locator("#message")).to_be_empty()  # said once, on the cover
    shoot(page, "reconnect-room-gone-es-phone")
    opened = link.opened
    # Past the first retries' waits. Playwright's own wait, not time.sleep: the sync API
    # hands the route (CutSocket.route, which counts) a socket the page opens only while
    # the test is in a Playwright call, so a retry during a plain sleep went uncounted.
    page.wait_for_timeout(3000)
    assert link.opened == opened


def test_cut_off_past_the_time_limit_the_clock_holds_and_back_it_shows_the_servers_time(
    asgi_server, new_device, race_of_two_past_go
):
    room, (ana, bo) = race_of_two_past_go
    race = Entry.objects.get(seat__player=ana).race
    # A limit 8 s away: time for the page to load and lose its link first, even on a
    # loaded machine (the clock must still read below the limit when the cover shows).
    limit = round((timezone.now() - race.go_at).total_seconds()) + 8
    race.time_limit_at = race.go_at + timedelta(seconds=limit)
    race.save(update_fields=["time_limit_at"])
    page = page_for(new_device, asgi_server, ana)
    link = CutSocket(page)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator("#race")).to_have_attribute("data-link", "up")
    link.refuse = True
    link.close()
    expect(page.locator("#link-cover")).to_be_visible()
    held = f"0:{limit:02d}"
    expect(page.locator("#clock")).to_have_text(held, timeout=15_000)  # counts up to it
    while timezone.now() < race.time_limit_at + timedelta(seconds=3):  # well past it, cut off
        time.sleep(0.2)
    expect(page.locator("#clock")).to_have_text(held)  # no "+": it does not run on by itself
    link.refuse = False
    page.get_by_role("button", name="Try now").click()
    expect(page.locator("#race")).to_have_attribute("data-link", "up")
    expect(page.locator("#clock")).to_contain_text(f"{held} +")
    elapsed = (timezone.now() - race.go_at).total_seconds()
    assert abs(clock_seconds(page.locator("#clock").text_content()) - elapsed) <= 2


def test_a_tab_back_from_sleep_finds_its_dead_socket_at_once_and_resyncs(
    asgi_server, new_device, race_of_two_past_go
):
    """The socket died silently while the tab slept (it still reads as open): the page,
    shown again, checks it with a ping, finds no answer, and opens a new one."""
    room, (ana, bo) = race_of_two_past_go
    page = page_for(new_device, asgi_server, ana)
    link = CutSocket(page)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator("#race")).to_have_attribute("data-link", "up")
    link.cut()
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator("#link-cover")).to_be_visible(timeout=8_000)  # before the next 15 s ping
    assert page.evaluate("document.querySelector('.board-scroll').inert")  # no tile to reach
    # The next socket opens on a network as dead (nothing answers, not even its snapshot):
    # it too is given up in turn, not waited on forever.
    opened = link.opened
    deadline = time.monotonic() + 30
    while link.opened < opened + 2 and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert link.opened >= opened + 2
    link.deaf = link.mute = False  # the network is back
    expect(page.locator("#race")).to_have_attribute("data-link", "up", timeout=20_000)


def test_a_board_cleared_while_the_server_heard_nothing_reads_cleared_only_once_stored(
    asgi_server, new_device, settings
):
    """The tester's case: the whole board cleared with the server out of reach. Until the
    server has stored the last pair, nothing says the board is done; back, it is stored
    pair by pair, each once, and only then does the page say she finished."""
    settings.RACE_COUNTDOWN_SECONDS = 0
    # Muted, the page is away to the server: on a loaded machine the whole board took
    # longer than the 30 s grace, a stand-in CPU played pairs, and the kept ones clashed.
    settings.DISCONNECT_GRACE_SECONDS = 600
    room, (ana, bo) = room_with("Ana", "Bo")
    lobby.update_rules(ana, room.code, {"level": "beginner"})
    races.start_race(ana, room.code, seed=7)
    entry = Entry.objects.get(seat__player=ana)
    plan = [sorted(pair) for pair in deal_for(entry.code).plan]
    page = page_for(new_device, asgi_server, ana)
    link = CutSocket(page)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator("#race")).to_have_attribute("data-link", "up")
    link.mute = True  # the server hears nothing from the page
    for pair in plan:  # each seen gone before the next tap (a tile still lifting away
        play(page, entry, pair)  # could take it, and pair its face with another copy)
    expect(page.locator(".tile:visible")).to_have_count(0)
    expect(page.locator("#progress")).to_have_text("0%")  # nothing of it is stored
    expect(page.locator("#done-banner")).to_be_hidden()
    assert stored_pairs(entry) == []
    link.close()
    expect(page.locator("#done-banner")).to_contain_text("You finished", timeout=30_000)
    expect(page.locator("#link-cover")).to_be_hidden()
    expect(page.locator("#progress")).to_have_text("100%")
    assert stored_pairs(entry) == plan  # every pair once, in the order played
    entry.refresh_from_db()
    assert entry.status == Entry.Status.FINISHED
