"""The /ranked/ pages in Chromium (tests/ranked/test_ranked_pages.py has the rest): two
players whose waiting pages move to their race by themselves."""

import time

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import Player, Rating
from rooms.models import QueueEntry, Room
from rooms.race import actions as races
from tests.browser.browser_helpers import server_side, shoot
from tests.ranked.test_ranked_queue import play_pairs


@pytest.fixture
def short_waits(settings):
    settings.RANKED_WAIT_SECONDS = 1
    settings.RANKED_GATHER_SECONDS = 1  # the default 4 s and the count left no margin
    settings.RACE_COUNTDOWN_SECONDS = 1


def test_two_waiting_players_are_taken_to_their_ranked_race(asgi_server, new_device, short_waits):
    pages = [new_device() for _ in range(2)]
    for page, name in zip(pages, ("Ana", "Bo"), strict=True):
        page.goto(f"{asgi_server.url}/ranked/")
        page.fill("#ranked-nickname", name)
        page.get_by_label("Beginner").check()
        page.get_by_role("button", name="Join the queue").click()
    code = None
    for page in pages:
        page.wait_for_url("**/rooms/*/")
        code = code or page.url.rstrip("/").rsplit("/", 1)[-1]
        assert page.url.endswith(f"/rooms/{code}/")
        expect(page.locator(".tile[data-face]")).to_have_count(34)
        expect(page.locator("#owner-tools")).to_be_hidden()
        expect(page.locator("#start")).to_be_hidden()
        expect(page.locator("#ranked-note")).to_be_visible()
    room = Room.objects.get(code=code)
    assert room.ranked and room.seats.count() == 2


COUNTS_SEEN = """
window.addEventListener("DOMContentLoaded", () => {
  window.countsSeen = [];
  const countdown = document.getElementById("countdown");
  if (!countdown) return;
  const note = () => {
    const text = countdown.hidden ? "" : countdown.textContent;
    const seen = window.countsSeen;
    if (text && text !== seen[seen.length - 1]) seen.push(text);
  };
  new MutationObserver(note).observe(countdown, {childList: true, characterData: true,
    subtree: true, attributes: true});
  note();
});
"""


def wait_for_go(page, seconds=20):
    """Until the page's countdown said "Go!" (the page's policy forbids wait_for_function)."""
    deadline = time.monotonic() + seconds
    while "Go!" not in page.evaluate("window.countsSeen"):
        assert time.monotonic() < deadline, page.evaluate("window.countsSeen")
        page.wait_for_timeout(100)


def test_matched_players_see_the_whole_countdown_ratings_and_queue_again(
    asgi_server, new_device, settings
):
    # No match while the two join: each page must show the queue first. With a wait of
    # 1 s a loaded machine let Ana's poll match Bo between his join and its page, which
    # then offered only "Back to your ranked race". The wait drops to 1 s once both wait.
    settings.RANKED_WAIT_SECONDS, settings.RACE_COUNTDOWN_SECONDS = 600, 3
    # The gathering that lets the matched pages arrive before the 3 (4 s by default):
    # longer here, so a page that polls and loads slowly on a loaded CI machine (two
    # browsers of two test workers) still sees the whole 3-2-1.
    settings.RANKED_GATHER_SECONDS = 8
    pages = [new_device() for _ in range(2)]
    for page, name in zip(pages, ("Ana", "Bo"), strict=True):
        page.context.add_init_script(COUNTS_SEEN)
        page.goto(f"{asgi_server.url}/ranked/")
        expect(page.locator(".your-rating")).to_have_text("Your rating: 1500?")
        page.fill("#ranked-nickname", name)
        page.get_by_label("Beginner").check()
        page.get_by_role("button", name="Join the queue").click()
        expect(page.locator("#queue .your-rating")).to_be_visible()
    settings.RANKED_WAIT_SECONDS = 1
    for page in pages:
        page.wait_for_url("**/rooms/*/")
        wait_for_go(page)
        expect(page.locator("#leaders")).to_contain_text("1500?")
        seen = page.evaluate("window.countsSeen")
        assert [c for c in seen if c.isdigit()] == ["3", "2", "1"], seen
        expect(page.get_by_role("link", name="Back to the ranked queue")).to_have_count(0)
    code = pages[0].url.rstrip("/").rsplit("/", 1)[-1]
    ana, bo = (Player.objects.get(nickname=n) for n in ("Ana", "Bo"))
    race = Room.objects.get(code=code).current_race()
    server_side(play_pairs, race, ana, 2, timezone.now())
    for player in (ana, bo):
        server_side(races.give_up, player, code)
    ana_page = pages[0]
    expect(ana_page.locator("#results")).to_be_visible()
    expect(ana_page.locator("#results-rows tr.me")).to_contain_text("1500? → ")
    expect(ana_page.locator("#results-rows tr.me")).to_contain_text(
        f"{Rating.objects.get(player=ana).shown}? (+"
    )
    expect(ana_page.locator("#room-table")).to_be_hidden()
    expect(ana_page.get_by_text("Room table (points)")).to_be_hidden()
    shoot(ana_page, "ranked-results-desktop")
    ana_page.get_by_role("button", name="Queue again").click()
    ana_page.wait_for_url("**/ranked/")
    expect(ana_page.locator("#queue-state")).to_have_text("Beginner: 1 waiting")
    assert QueueEntry.objects.get(player=ana).player.nickname == "Ana"
