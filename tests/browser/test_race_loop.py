"""The loop a group lives in, in real Chromium windows: the ready check of another game
(the same from the results and from the lobby, its deadline counting down on every
screen, the race starting by itself once every human is ready), a seat sitting a race
out, the counters a player reads while racing, the news of a race and how the results
tell a board that did not finish (docs/RULES.md §Races)."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from rooms import sweeper
from rooms.core.boards import deal_for
from rooms.lobby import actions as lobby
from rooms.models import Entry, Race
from rooms.race import actions as races
from rooms.race import end as race_end
from rooms.race.cpu_seats import cpu_act
from tests.browser.browser_helpers import DESKTOP, PHONE, page_for, play, server_side, shoot
from tests.rooms.rooms_helpers import board_of, room_with

SECONDS = re.compile(r"\d+ s")


@pytest.fixture
def after_a_race(settings):
    """Ana (the owner), Bo and a CPU, their first race over: (room, ana, bo)."""
    settings.RACE_COUNTDOWN_SECONDS = 3
    settings.REMATCH_READY_SECONDS = 30
    room, (ana, bo) = server_side(room_with, "Ana", "Bo", cpus=["steady"])
    server_side(lobby.update_rules, ana, room.code, {"level": "beginner"})
    server_side(races.start_race, ana, room.code, seed=4)
    server_side(race_end.end_race_by_staff, room.code)
    return room, ana, bo


def three_windows(new_device, server, room, ana, bo, lang="en"):
    """The owner on a desktop, Bo on a phone, a visitor watching: each on the room."""
    pages = (
        page_for(new_device, server, ana, DESKTOP, lang=lang),
        page_for(new_device, server, bo, PHONE, lang=lang),
        page_for(new_device, server, None, DESKTOP, lang=lang),
    )
    for page in pages:
        page.goto(f"{server.url}/rooms/{room.code}/")
    return pages


def test_the_ready_check_from_the_results_counts_down_for_everyone_and_starts_when_all_are_ready(
    asgi_server, new_device, after_a_race
):
    room, ana, bo = after_a_race
    owner, player, watcher = three_windows(new_device, asgi_server, room, ana, bo)
    expect(owner.locator("#results")).to_be_visible()
    owner.get_by_role("button", name="Another game").click()
    for page in (owner, player, watcher):
        expect(page.locator("#ready-check")).to_be_visible()
        expect(page.locator("#ready-list")).to_contain_text("Bo: not ready yet")
        expect(page.locator("#ready-note")).to_contain_text(SECONDS)
    start_now = owner.get_by_role("button", name="Start without those not ready")
    expect(start_now).to_be_disabled()  # it says why, beside it and on it
    expect(owner.locator("#start-reason")).to_contain_text("You may start without them in")
    expect(start_now).to_have_attribute("title", re.compile(r"in \d+ s"))
    expect(owner.get_by_role("button", name="Another game")).to_be_hidden()
    expect(player.locator("#ready-note")).to_contain_text("otherwise you sit this race out")
    expect(watcher.locator("#ready-note")).to_contain_text("The players are saying Ready")
    expect(watcher.get_by_role("button", name="Ready")).to_have_count(0)
    expect(watcher.locator("#start-reason")).to_have_text("")  # the owner's, not theirs
    expect(watcher.locator("#join-next")).to_be_hidden()  # no "a race is on" between races
    first = player.locator("#ready-note").inner_text()
    expect(player.locator("#ready-note")).not_to_have_text(first)  # the deadline runs
    for page, name in ((owner, "owner"), (player, "player"), (watcher, "spectator")):
        shoot(page, f"ready-check-results-{name}")
    player.get_by_role("button", name="Ready").click()  # the last human: it starts itself
    for page in (owner, player, watcher):
        expect(page.locator("#countdown")).to_be_visible()
        expect(page.locator("#ready-check")).to_be_hidden()
    race = server_side(lambda: Race.objects.get(number=2))
    seats = server_side(lambda: set(race.entries.values_list("seat__nickname", flat=True)))
    assert seats == {"Ana", "Bo", "CPU 1 (Steady)"}


def test_another_game_from_the_lobby_opens_the_same_ready_check_on_every_screen(
    asgi_server, new_device, after_a_race
):
    room, ana, bo = after_a_race
    owner, player, watcher = three_windows(new_device, asgi_server, room, ana, bo)
    owner.get_by_role("button", name="Players and rules").click()
    expect(owner.locator("#lobby")).to_be_visible()
    owner.locator("#lobby").get_by_role("button", name="Another game").click()
    for page in (owner, player, watcher):
        expect(page.locator("#ready-check")).to_be_visible()
        expect(page.locator("#ready-note")).to_contain_text(SECONDS)
    expect(owner.locator("#lobby")).to_be_visible()  # the rules stay at hand
    start_now = owner.get_by_role("button", name="Start without those not ready")
    expect(start_now).to_be_disabled()
    # It looks it: the design system's disabled button, flat with a dashed edge
    # (docs/DESIGN-SYSTEM.md), not the enabled primary's filled one.
    look = start_now.evaluate("b => [getComputedStyle(b).borderStyle, getComputedStyle(b).cursor]")
    assert look == ["dashed", "not-allowed"]
    shoot(owner, "ready-check-lobby-owner")
    player.get_by_role("button", name="Ready").click()
    for page in (owner, player, watcher):
        expect(page.locator("#countdown")).to_be_visible()
    expect(owner.locator("#lobby")).to_be_hidden()


def test_a_seat_sitting_a_race_out_sees_the_standings_and_not_its_old_board(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 0
    settings.REMATCH_READY_SECONDS = 0
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    server_side(lobby.update_rules, ana, room.code, {"level": "beginner"})
    server_side(races.start_race, ana, room.code, seed=2)
    page = page_for(new_device, asgi_server, bo, PHONE)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator(".tile[data-face]").first).to_be_visible()  # race 1's faces
    for player in (ana, bo):
        server_side(races.give_up, player, room.code)
    expect(page.locator("#results")).to_be_visible()
    server_side(races.offer_another_game, ana, room.code)
    server_side(races.start_race, ana, room.code, seed=3)  # Bo never said Ready
    expect(page.locator("#notice")).to_have_text("You sit this race out: you are watching it.")
    expect(page.locator("#all-rows li")).to_have_count(1)
    expect(page.locator("#all-rows li")).to_contain_text("Ana")
    expect(page.locator("#board")).to_be_hidden()
    expect(page.locator(".tile:visible")).to_have_count(0)
    shoot(page, "sitting-out-phone")


def racing_past_go(settings):
    """Ana and Bo racing already, on a fixed deal: (room, ana, bo)."""
    settings.RACE_COUNTDOWN_SECONDS = 0
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    server_side(races.start_race, ana, room.code, seed=7)
    return room, ana, bo


def test_the_hint_button_counts_what_the_server_counts(asgi_server, new_device, settings):
    room, ana, bo = racing_past_go(settings)
    page = page_for(new_device, asgi_server, bo)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator("#hints-left")).to_have_text("3")
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#hints-left")).to_have_text("2")
    assert server_side(lambda: board_of("Bo").hints_used) == 1


def test_your_own_row_shows_your_acknowledged_pairs_before_the_next_standings(
    asgi_server, new_device, settings
):
    settings.STANDINGS_FEED_MS = 60000  # the paced standings come long after this test
    room, ana, bo = racing_past_go(settings)
    page = page_for(new_device, asgi_server, bo)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    entry = server_side(board_of, "Bo")
    deal = deal_for(entry.code)
    expect(page.locator(".tile[data-face]")).to_have_count(len(deal.faces))  # as a player waits
    # The board is drawn from the page before its socket's first snapshot, which draws it
    # again and drops a tile already selected: the taps wait for the socket (it was late on
    # a loaded machine, between a pair's two taps).
    expect(page.locator("#race")).to_have_attribute("data-link", "up")
    for pair in deal.plan[:3]:
        # Each pair's tiles are seen to go before the next pair is tapped: a tile still
        # lifting away may lie over the next one (the pairs themselves are not yet acked).
        play(page, entry, pair)
    stored = f"{deal.start().play(deal.plan[:3]).progress()}%"
    # The counter counts acknowledged pairs only: all three, once the server stored them.
    expect(page.locator("#progress")).to_have_text(stored, timeout=20_000)
    assert server_side(lambda: board_of("Bo").pairs_removed) == 3
    expect(page.locator("#leaders li.me")).to_have_text(f"Bo {stored}")
    expect(page.locator("#leaders li").first).to_have_text(re.compile("^Bo"))  # ahead of Ana


def test_no_place_is_claimed_before_a_pair_is_made(asgi_server, new_device, settings):
    settings.RACE_COUNTDOWN_SECONDS = 3
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    page = page_for(new_device, asgi_server, bo)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    race = server_side(races.start_race, ana, room.code, seed=5)
    expect(page.locator("#countdown")).to_be_visible()
    names = page.locator("#all-rows .name")
    expect(names).to_have_text(["Ana", "Bo"])  # no "1st", "2nd" before go
    expect(page.locator("#leaders li.unplaced")).to_have_count(2)
    expect(page.locator("#countdown")).to_be_hidden(timeout=8000)
    entry = server_side(board_of, "Ana")
    server_side(races.play_pair, ana, room.code, sorted(deal_for(entry.code).plan[0]), 0)
    expect(names).to_have_text(["1st Ana", "Bo"])
    assert race.number == 1


def test_old_news_stays_with_its_race_and_a_player_back_is_told_what_the_stand_in_did(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 0
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    race = server_side(races.start_race, ana, room.code, seed=3)
    owner = page_for(new_device, asgi_server, ana)
    owner.goto(f"{asgi_server.url}/rooms/{room.code}/")
    later = race.go_at + timedelta(seconds=31)
    ana_seat = server_side(lambda: room.seats.get(player=ana).pk)
    server_side(lobby.seat_seen, ana_seat, now=later)
    assert len(server_side(sweeper.sweep, now=later)["taken_over"]) == 1
    bo_seat = server_side(lambda: room.seats.get(player=bo).pk)
    server_side(cpu_act, None, room.code, bo_seat, 1, now=later + timedelta(seconds=1))
    guest = page_for(new_device, asgi_server, bo, PHONE, lang="es-ES")
    guest.goto(f"{asgi_server.url}/rooms/{room.code}/")  # Bo is back
    expect(guest.locator("#notice")).to_have_text(
        "Has vuelto: la CPU jugó 1 pareja por ti mientras no estabas."
    )
    expect(owner.locator("#notice")).to_have_text("Bo is back")
    shoot(guest, "back-from-stand-in-phone-es")
    settings.RACE_COUNTDOWN_SECONDS = 3
    server_side(race_end.end_race_by_staff, room.code)
    server_side(races.offer_another_game, ana, room.code)
    server_side(races.say_ready, bo, room.code)  # everyone ready: race 2 counts down
    for page in (owner, guest):
        expect(page.locator("#countdown")).to_be_visible()
        expect(page.locator("#notice")).to_have_text("")
    assert server_side(lambda: Entry.objects.filter(race__number=2).count()) == 2


@pytest.mark.parametrize(("lang", "text"), [("en", "out of time at"), ("es-ES", "sin tiempo al")])
def test_a_board_still_playing_at_the_time_limit_is_out_of_time_in_the_results(
    asgi_server, new_device, settings, lang, text
):
    settings.RACE_COUNTDOWN_SECONDS = 0
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    race = server_side(races.start_race, ana, room.code, seed=6)
    entry = server_side(board_of, "Ana")
    for n, pair in enumerate(deal_for(entry.code).plan[:4]):
        server_side(races.play_pair, ana, room.code, sorted(pair), n)
    server_side(race_end.end_race_by_staff, room.code, now=race.time_limit_at)
    progress = server_side(lambda: board_of("Ana").progress)
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = page_for(new_device, asgi_server, ana, viewport, lang=lang)
        page.goto(f"{asgi_server.url}/rooms/{room.code}/")
        row = page.locator("#results-rows tr").first
        expect(row.locator("td").nth(2)).to_have_text(f"{text} {progress}%")
        shoot(page, f"results-out-of-time-{name}-{lang}")


def test_the_boards_own_news_is_not_drawn_as_an_error(asgi_server, new_device, settings):
    """A tap on a blocked tile tells why, as information: in the text's colour, not the
    error red a refused move gets (site.css, message kinds)."""
    room, ana, bo = racing_past_go(settings)
    page = page_for(new_device, asgi_server, bo)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    page.get_by_role("button", name=re.compile("blocked")).first.click()
    message = page.locator("#message")
    expect(message).to_contain_text("blocked")
    expect(message).to_have_attribute("data-kind", "info")
    colours = message.evaluate(
        "m => [getComputedStyle(m).color, getComputedStyle(document.body).color]"
    )
    assert colours[0] == colours[1]
