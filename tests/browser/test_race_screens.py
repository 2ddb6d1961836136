"""What players see around a race, in real Chromium windows: a countdown that claims no
game state, a finish that stops the clock at the server's time, results as a screen of
their own that fits a phone, visitors without controls, marks a screen reader reads.

Set SCREENS_DIR to keep a screenshot of each screen (desktop and phone) for a look."""

import time
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from rooms import sweeper
from rooms.core.boards import deal_for
from rooms.lobby import actions as lobby
from rooms.models import Entry
from rooms.race import actions as races
from rooms.race import end as race_end
from rooms.ranked import actions as ranked
from tests.browser.browser_helpers import DESKTOP, PHONE, page_for, play, server_side, shoot
from tests.rooms.rooms_helpers import room_with


def luminance(rgb) -> float:
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def rgba(text: str) -> tuple[float, ...]:
    values = text[text.index("(") + 1 : -1].split(",")
    numbers = [float(v) for v in values]
    return tuple(numbers) if len(numbers) == 4 else (*numbers, 1.0)


def test_the_countdown_claims_no_game_state_and_controls_wait_for_go(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 3
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    server_side(lobby.update_rules, ana, room.code, {"level": "beginner", "shuffles": 3})
    page = page_for(new_device, asgi_server, ana)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    page.get_by_role("button", name="Start").click()
    countdown = page.locator("#countdown")
    expect(countdown).to_have_text("3", timeout=3000)
    shoot(page, "countdown-desktop")
    expect(page.locator("#message")).to_have_text("")
    for name in ("Hint", "Shuffle", "Give up"):
        expect(page.get_by_role("button", name=name)).to_be_disabled()
    # White on a near-black disc: measured against the lightest board it could cover.
    color, background = countdown.evaluate(
        "el => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]"
    )
    *rgb, alpha = rgba(background)
    behind = [alpha * c + (1 - alpha) * 255 for c in rgb]
    lighter, darker = sorted((luminance(rgba(color)[:3]), luminance(behind)), reverse=True)
    assert (lighter + 0.05) / (darker + 0.05) >= 4.5
    box = countdown.bounding_box()
    assert box["width"] >= 120  # big
    # The board came while the lobby showed: it is measured once it is shown, not tiny.
    assert page.locator(".tile").first.bounding_box()["width"] >= 40
    expect(countdown).to_have_text("Go!", timeout=4000)
    expect(page.get_by_role("button", name="Hint")).to_be_enabled()
    expect(page.get_by_role("button", name="Give up")).to_be_enabled()
    expect(countdown).to_be_hidden()


def test_a_finished_player_sees_the_clock_stop_at_the_servers_time(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 0.5
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    server_side(lobby.update_rules, ana, room.code, {"level": "beginner"})
    server_side(races.start_race, ana, room.code, seed=5)
    page = page_for(new_device, asgi_server, ana)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator(".tile[data-face]")).to_have_count(34)
    # Past "go" the board is drawn before the socket's first snapshot draws it again (and
    # drops a tile already selected): the taps wait for the socket.
    expect(page.locator("#race")).to_have_attribute("data-link", "up")
    entry = Entry.objects.get(seat__player=ana)
    for pair in deal_for(entry.code).plan:  # each seen gone before the next tap
        play(page, entry, pair)
    banner = page.locator("#done-banner")
    expect(banner).to_contain_text("You finished 1st in")
    expect(banner).to_contain_text("1 player still playing")
    finished_ms = Entry.objects.get(pk=entry.pk).finished_ms
    seconds = finished_ms // 1000
    shown = f"{seconds // 60}:{seconds % 60:02d}"
    expect(page.locator("#clock")).to_have_text(shown)
    time.sleep(1.5)  # the clock does not move on
    expect(page.locator("#clock")).to_have_text(shown)
    for name in ("Hint", "Shuffle", "Give up"):
        expect(page.get_by_role("button", name=name)).to_be_disabled()
    expect(page.locator("#all-standings")).to_have_attribute("open", "")
    expect(page.locator("#all-rows li")).to_have_count(2)
    shoot(page, "finished-desktop")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_results_are_a_screen_of_their_own_that_fits_a_phone(
    asgi_server, new_device, settings, viewport
):
    settings.RACE_COUNTDOWN_SECONDS = 0
    room, players = server_side(room_with, "Ana", "Bo", "Carmen Esperanza", cpus=["steady"])
    race = server_side(races.start_race, players[0], room.code, seed=9)
    for player in players:  # the last human done ends the race
        server_side(races.give_up, player, room.code, now=race.go_at + timedelta(seconds=65))
    page = page_for(new_device, asgi_server, players[0], viewport)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator("#results")).to_be_visible()
    expect(page.locator("#results-title")).to_have_text("Results of race 1")
    expect(page.locator("#results-rows tr")).to_have_count(4)
    expect(page.locator("#results-rows tr.me")).to_contain_text("Ana (you)")
    expect(page.locator("#room-table")).to_contain_text("points")
    for hidden in ("#play-area", "#lobby"):
        expect(page.locator(hidden)).to_be_hidden()
    expect(page.locator("#progress-chart text.tick").first).to_be_attached()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"the page is {width} px wide"
    shoot(page, f"results-{viewport['width']}")
    page.get_by_role("button", name="Players and rules").click()
    expect(page.locator("#lobby")).to_be_visible()
    # After a race the lobby's button offers another game (the ready check), as the results' does.
    expect(page.locator("#lobby").get_by_role("button", name="Another game")).to_be_visible()


def test_a_visitor_watching_a_race_has_no_controls_that_act(asgi_server, new_device, settings):
    settings.RACE_COUNTDOWN_SECONDS = 0
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    server_side(races.start_race, ana, room.code, seed=3)
    page = page_for(new_device, asgi_server, None)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator("#play-area")).to_be_visible()
    for name in ("Hint", "Shuffle", "Give up"):
        expect(page.get_by_role("button", name=name)).to_be_hidden()
    expect(page.locator(".tile[data-face]")).to_have_count(0)  # no faces for a visitor
    expect(page.locator("#leaders")).to_contain_text("Ana")  # but the standings, live
    expect(page.locator("#leaders")).to_contain_text("Bo")
    expect(page.locator("#clock")).not_to_have_text("0:00", timeout=3000)


def test_the_owner_and_you_are_marked_in_words_and_copying_the_link_says_so(
    asgi_server, new_device
):
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    owner_page = page_for(new_device, asgi_server, ana)
    owner_page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(owner_page.locator("#seats li").nth(0)).to_have_text("Ana (owner, you)")
    guest_page = page_for(new_device, asgi_server, bo)
    guest_page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(guest_page.locator("#seats li").nth(0)).to_have_text("Ana (owner)")
    expect(guest_page.locator("#seats li").nth(1)).to_have_text("Bo (you)")
    guest_page.get_by_role("button", name="Copy link").click()
    expect(guest_page.locator("#copied")).not_to_have_text("")
    shoot(guest_page, "lobby-desktop")


def test_a_ranked_room_says_what_happens_next_instead_of_waiting_for_an_owner(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 0
    settings.RANKED_WAIT_SECONDS = 0
    players = [Player.objects.create() for _ in range(2)]
    for player, name in zip(players, ("Ana", "Bo"), strict=True):
        server_side(ranked.join_queue, player, "beginner", name)
    (code,) = server_side(ranked.form_groups, "beginner")
    server_side(race_end.end_race_by_staff, code)
    page = page_for(new_device, asgi_server, players[1])
    page.goto(f"{asgi_server.url}/rooms/{code}/")
    expect(page.locator("#results-waiting")).to_contain_text("join the queue again")
    expect(page.locator("#rating-head")).to_be_visible()  # a tie: no rating moves
    expect(page.locator("#results-rows tr").first.locator("td").last).to_have_text(
        "1500? → 1500? (0)"
    )
    expect(page.get_by_role("button", name="Queue again")).to_be_visible()
    expect(page.get_by_text("Waiting for the owner")).to_have_count(0)


def test_a_player_who_does_not_say_ready_sits_the_rematch_out_and_watches(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 0
    settings.REMATCH_READY_SECONDS = 1
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    server_side(races.start_race, ana, room.code, seed=2)
    for player in (ana, bo):
        server_side(races.give_up, player, room.code)
    owner = page_for(new_device, asgi_server, ana, PHONE)
    guest = page_for(new_device, asgi_server, bo)
    for page in (owner, guest):
        page.goto(f"{asgi_server.url}/rooms/{room.code}/")
        expect(page.locator("#results")).to_be_visible()
    owner.get_by_role("button", name="Another game").click()
    expect(guest.get_by_role("button", name="Ready")).to_be_visible()
    shoot(owner, "ready-check-390")
    start_now = owner.get_by_role("button", name="Start without those not ready")
    start_now.click(timeout=5000)  # enabled after 1 s
    expect(owner.locator(".tile[data-face]").first).to_be_visible()
    expect(guest.locator("#play-area")).to_be_visible()
    expect(guest.locator("#notice")).to_have_text("You sit this race out: you are watching it.")
    for name in ("Hint", "Shuffle", "Give up"):
        expect(guest.get_by_role("button", name=name)).to_be_hidden()
    assert server_side(lambda: Entry.objects.filter(race__number=2).count()) == 1


def test_everyone_sees_when_a_cpu_stands_in_for_an_away_player(asgi_server, new_device, settings):
    settings.RACE_COUNTDOWN_SECONDS = 0
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    race = server_side(races.start_race, ana, room.code, seed=3)
    page = page_for(new_device, asgi_server, ana)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator(".tile[data-face]").first).to_be_visible()
    later = race.go_at + timedelta(seconds=31)
    ana_seat = server_side(lambda: room.seats.get(player=ana).pk)
    server_side(lobby.seat_seen, ana_seat, now=later)
    assert len(server_side(sweeper.sweep, now=later)["taken_over"]) == 1
    expect(page.locator("#notice")).to_have_text("Bo is away: a CPU plays for them")
    expect(page.locator("#message")).to_have_text("")  # news, not an error
    expect(page.locator("#leaders")).to_contain_text("Bo (CPU standing in)")
    shoot(page, "stand-in-desktop")


def test_a_page_that_missed_the_stand_in_event_still_says_who_is_away(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 0
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    race = server_side(races.start_race, ana, room.code, seed=3)
    later = race.go_at + timedelta(seconds=31)
    ana_seat = server_side(lambda: room.seats.get(player=ana).pk)
    server_side(lobby.seat_seen, ana_seat, now=later)
    assert len(server_side(sweeper.sweep, now=later)["taken_over"]) == 1
    page = page_for(new_device, asgi_server, ana)  # opened after the event went out
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator("#notice")).to_have_text("Bo is away: a CPU plays for them")
