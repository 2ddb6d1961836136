"""A race replay in Chromium: played at 8×, paused, scrubbed and stepped, every board
showing the tiles left at that moment; one board at a time on a phone."""

from playwright.sync_api import expect

from accounts.models import Player
from tests.browser.browser_helpers import DESKTOP, PHONE, page_for, server_side, shoot
from tests.browser.test_solo_flow import BEGINNER_CODE, all_but_the_last_pair, win_on_the_page
from tests.replays.test_replays import STAND_IN_AT, a_finished_race, a_race_a_stand_in_helped


def tiles_shown(page, nickname: str) -> int:
    board = page.locator(".replay-board", has_text=nickname)
    return board.locator(".tile:not(.gone)").count()


def test_a_replay_plays_at_eight_times_pauses_scrubs_and_steps(asgi_server, new_device):
    race = server_side(a_finished_race)
    page = page_for(new_device, asgi_server, None, DESKTOP)
    page.goto(f"{asgi_server.url}/replays/race/{race.pk}/")
    expect(page.locator(".replay-board")).to_have_count(3)
    assert tiles_shown(page, "Bo") == 34  # the start: every tile
    page.get_by_role("button", name="8×").click()
    page.get_by_role("button", name="Play").click()
    expect(page.locator(".replay-board", has_text="Bo")).to_contain_text("%")
    page.wait_for_timeout(1500)  # 12 s of race at 8×
    page.get_by_role("button", name="Pause").click()
    shown = tiles_shown(page, "Bo")
    assert shown < 34
    page.wait_for_timeout(400)
    assert tiles_shown(page, "Bo") == shown  # paused: nothing moves
    page.locator("#timeline").fill("0")
    assert tiles_shown(page, "Bo") == 34
    page.keyboard.press("ArrowRight")  # one moment forward: both first pairs, at 0:02
    assert (tiles_shown(page, "Ana"), tiles_shown(page, "Bo")) == (32, 32)
    page.keyboard.press("ArrowRight")  # Ana's second pair, at 0:03
    assert (tiles_shown(page, "Ana"), tiles_shown(page, "Bo")) == (30, 32)
    expect(page.locator("#replay-clock")).to_have_text("0:03")
    page.keyboard.press("ArrowLeft")
    assert (tiles_shown(page, "Ana"), tiles_shown(page, "Bo")) == (32, 32)
    page.keyboard.press("End")
    expect(page.locator("#replay-standings li").first).to_contain_text("Bo")
    assert tiles_shown(page, "Bo") == 0
    shoot(page, "replay-desktop")


def standing_of(page, nickname: str):
    return page.locator("#replay-standings li", has_text=nickname)


def test_the_cpu_help_mark_sits_at_the_takeover_and_the_help_shows_from_then(
    asgi_server, new_device
):
    race = server_side(a_race_a_stand_in_helped)
    page = page_for(new_device, asgi_server, None, DESKTOP)
    page.goto(f"{asgi_server.url}/replays/race/{race.pk}/")
    mark = page.locator(".cpu-mark")
    expect(mark).to_have_count(1)  # Ana's stand-in; a CPU seat is no help
    length = int(page.locator("#timeline").get_attribute("max"))
    track, box = page.locator("#timeline").bounding_box(), mark.bounding_box()
    thumb = 16  # Chromium's range thumb: its track runs from half a thumb in
    at = track["x"] + thumb / 2 + (track["width"] - thumb) * (STAND_IN_AT * 1000 / length)
    assert abs(box["x"] + box["width"] / 2 - at) < 3
    expect(standing_of(page, "Ana")).not_to_contain_text("with CPU help")
    page.locator("#timeline").fill(str(STAND_IN_AT * 1000 - 500))
    expect(standing_of(page, "Ana")).not_to_contain_text("with CPU help")
    page.locator("#timeline").fill(str(STAND_IN_AT * 1000))
    expect(standing_of(page, "Ana")).to_contain_text("with CPU help")
    page.keyboard.press("End")
    expect(standing_of(page, "Ana")).to_contain_text("with CPU help")
    expect(standing_of(page, "Bo")).not_to_contain_text("with CPU help")
    shoot(page, "replay-stand-in-desktop")


def test_follow_the_leader_moves_to_the_leader_still_playing_once_the_first_finishes(
    asgi_server, new_device
):
    race = server_side(a_race_a_stand_in_helped)  # Bo done at 0:18, Ana plays on
    page = page_for(new_device, asgi_server, None, DESKTOP)
    page.goto(f"{asgi_server.url}/replays/race/{race.pk}/")
    page.get_by_label("Follow the leader").check()
    page.locator("#timeline").fill("10000")
    expect(page.locator("#focus-area .replay-board")).to_contain_text("Bo")
    page.locator("#timeline").fill("19000")
    expect(standing_of(page, "Bo")).to_contain_text("0:18")
    expect(page.locator("#focus-area .replay-board")).to_contain_text("Ana")
    page.keyboard.press("End")  # the race is over: the winner
    expect(page.locator("#focus-area .replay-board")).to_contain_text("Bo")


def test_a_phone_shows_one_board_and_switches(asgi_server, new_device):
    race = server_side(a_finished_race)
    page = page_for(new_device, asgi_server, None, PHONE)
    page.goto(f"{asgi_server.url}/replays/race/{race.pk}/")
    expect(page.locator(".replay-board:visible")).to_have_count(1)
    page.select_option("#board-choice", label="Bo")
    expect(page.locator(".replay-board:visible")).to_contain_text("Bo")
    shoot(page, "replay-phone")


def test_a_won_practice_game_links_to_its_replay_of_one_board(asgi_server, new_device):
    player = server_side(Player.objects.create)
    page = page_for(new_device, asgi_server, player, PHONE)
    last = server_side(all_but_the_last_pair, player, BEGINNER_CODE)
    win_on_the_page(page, asgi_server.url, BEGINNER_CODE, last)
    page.get_by_role("link", name="Watch how you played").click()
    expect(page.locator("h1")).to_contain_text(BEGINNER_CODE)
    expect(page.locator(".replay-board")).to_have_count(1)
    expect(page.get_by_text("Follow the leader")).to_be_hidden()  # one board: nothing to follow
    assert tiles_shown(page, "") == 34
    page.keyboard.press("End")
    assert tiles_shown(page, "") == 0
    shoot(page, "replay-solo-phone")


# Every layout shift of the page so far that no input caused, as Lighthouse sums them (a
# buffered observer hears them all at once; none at all in half a second means 0).
LAYOUT_SHIFT = """() => new Promise((done) => {
  let sum = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) sum += e.value;
  }).observe({ type: "layout-shift", buffered: true });
  setTimeout(() => done(sum), 500);
})"""


def test_a_replay_on_a_phone_draws_its_board_without_moving_the_text_under_it(
    asgi_server, new_device
):
    from tests.browser.test_race_now_browser import anas_won_game

    game = server_side(anas_won_game)
    page = page_for(new_device, asgi_server, None, PHONE)
    page.goto(f"{asgi_server.url}/replays/game/{game.pk}/")
    expect(page.locator(".replay-board .tile")).to_have_count(34)
    expect(page.locator("#ghost-links")).to_be_visible()
    page.wait_for_timeout(300)  # the board's own fit after it is drawn
    # The place the board takes was kept from the first paint (Lighthouse counted 0.17).
    assert page.evaluate(LAYOUT_SHIFT) < 0.02
