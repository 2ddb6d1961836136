"""Race now and ghost races in Chromium: a phone's click lands on the waiting page, its
seconds count down and the race starts with CPUs; a second player joins the same room.
A ghost race shows the ghost's row beside the player's and says who was faster."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import Player
from practice import actions as practice
from practice.models import SoloGame
from rooms.models import Room
from tests.browser.browser_helpers import DESKTOP, PHONE, page_for, server_side, shoot, tile
from tests.practice.practice_helpers import plan_of

BEGINNER_CODE = "MJ1-L01-AAAASGV"  # 34 tiles: 17 pairs


@pytest.fixture
def short_waits(settings):
    settings.QUICK_WAIT_SECONDS = 8  # time to see the count on a busy machine; the same rules
    settings.RACE_COUNTDOWN_SECONDS = 1
    settings.CPU_DELAY_SCALE = 0.05


def test_race_now_on_a_phone_waits_counts_down_and_races_three_cpus(
    asgi_server, celery_worker, new_device, short_waits
):
    page = page_for(new_device, asgi_server, None, PHONE, has_touch=True)
    page.goto(f"{asgi_server.url}/")
    page.get_by_role("button", name="Race now: Beginner").click()
    page.wait_for_url("**/rooms/*/")
    expect(page.locator("#quick-wait")).to_be_visible()
    expect(page.locator("#quick-note")).to_contain_text("Race now · Beginner · unrated")
    expect(page.locator("#quick-seconds")).to_have_text(re.compile(r"^[1-8]$"))
    expect(page.locator("#quick-alone")).to_contain_text("you race 3 CPUs")
    expect(page.locator("#start")).to_be_hidden()
    expect(page.locator("#owner-tools")).to_be_hidden()
    shoot(page, "race-now-waiting-phone")
    # The wait is over: three CPUs join and the race starts by itself.
    expect(page.locator(".tile[data-face]")).to_have_count(34, timeout=20_000)
    expect(page.locator("#quick-wait")).to_be_hidden()
    code = page.url.rstrip("/").rsplit("/", 1)[-1]
    room = Room.objects.get(code=code)
    assert room.quick and room.seats.filter(cpu_level="steady").count() == 3
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_two_players_clicking_race_now_wait_together_and_race_each_other(
    asgi_server, celery_worker, new_device, short_waits
):
    pages = [page_for(new_device, asgi_server, None, size) for size in (PHONE, DESKTOP)]
    for page in pages:
        page.goto(f"{asgi_server.url}/rooms/")
        page.get_by_role("button", name="Race now: Beginner").click()
        page.wait_for_url("**/rooms/*/")
    assert pages[0].url == pages[1].url
    expect(pages[0].locator("#quick-alone")).to_have_text("1 other player is racing with you.")
    expect(pages[0].locator("#seats li")).to_have_count(2)
    for page in pages:
        expect(page.locator(".tile[data-face]")).to_have_count(34, timeout=20_000)
    room = Room.objects.get(quick=True)
    assert room.seats.count() == 2  # no CPU joins a race of two


def test_a_bad_level_says_why_on_the_rooms_page(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None, PHONE)
    page.goto(f"{asgi_server.url}/rooms/")
    page.locator("#race-now button").first.evaluate("b => b.value = 'legendary'")
    page.locator("#race-now button").first.click()
    expect(page.locator(".error")).to_contain_text("choose a level for Race now")
    assert not Room.objects.exists()


# --- ghost races -------------------------------------------------------------------------------
def anas_won_game(pair_every_ms=3500):
    """Ana's won game of the Beginner deal, a pair every `pair_every_ms`."""
    ana = Player.objects.create(nickname="Ana")
    plan = plan_of(BEGINNER_CODE)
    times = [pair_every_ms * (k + 1) for k in range(len(plan))]
    return SoloGame.objects.create(
        player=ana,
        code=BEGINNER_CODE,
        layout_number=1,
        tile_count=34,
        status=SoloGame.Status.WON,
        moves=[sorted(p) for p in plan],
        move_ms=times,
        time_ms=times[-1],
        elapsed_ms=times[-1],
        finished_at=timezone.now(),
    )


def ghost_race_near_its_end(player, source: SoloGame, clock_ms: int):
    """The player's ghost race, every pair but the last played, `clock_ms` on its clock."""
    game = practice.current_game(player)
    assert game.ghost and game.code == source.code
    plan = plan_of(source.code)
    for n, (i, j) in enumerate(plan[:-1]):
        practice.play_pair(player, game.pk, i, j, n)
    SoloGame.objects.filter(pk=game.pk).update(elapsed_ms=clock_ms, running_since=timezone.now())
    return plan[-1]


@pytest.mark.parametrize(
    ("clock_ms", "sentence"),
    [(30_000, r"You beat the ghost by \d+ s"), (80_000, r"The ghost was \d+ s faster")],
)
def test_a_ghost_race_shows_the_ghosts_row_and_says_who_was_faster(
    asgi_server, new_device, clock_ms, sentence
):
    source = server_side(anas_won_game)  # 17 pairs, the last at 59.5 s
    bo = server_side(Player.objects.create, nickname="Bo")
    page = page_for(new_device, asgi_server, bo, PHONE)
    page.goto(f"{asgi_server.url}/replays/game/{source.pk}/ghost/")
    rows = page.locator("#ghost-rows li")
    expect(rows).to_have_count(2)
    expect(page.locator("#ghost-rows li[data-who='ghost']")).to_contain_text(
        "Ana's ghost, best 0:59"
    )
    expect(page.locator("#ghost-rows li[data-who='you']")).to_contain_text("You 0%")
    last = server_side(ghost_race_near_its_end, bo, source, clock_ms)
    page.goto(f"{asgi_server.url}/replays/game/{source.pk}/ghost/")  # the race goes on
    expect(page.locator("#ghost-rows li[data-who='you']")).to_contain_text("You 94%")
    for index in last:
        tile(page, BEGINNER_CODE, index).click()
    expect(page.locator("#won-dialog")).to_be_visible()
    expect(page.locator("#won-ghost-end")).to_have_text(re.compile(sentence))
    expect(page.locator("#won-rank")).to_contain_text("ghost race")
    expect(page.locator("#ghost-end")).to_have_text(re.compile(sentence))
    leader = "you" if clock_ms < source.time_ms else "ghost"
    expect(rows.first).to_have_attribute("data-who", leader)
    game = SoloGame.objects.get(player=bo, status="won")
    assert game.ghost and not game.clean
