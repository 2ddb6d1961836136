"""Solo practice's flow in Chromium, on a laptop (1280×800) and a phone (390×844): the win
dialog (time, rank, Play a new deal, Try this deal again, the share link), Undo after a win, a
link that holds no game, the New game dialog, the matches helper, the daily challenge
(docs/RULES.md §Solo play)."""

import re

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from mahjong import daily
from mahjong.engine.catalog import CATALOG
from mahjong.engine.deal import deal_from_code
from practice import actions
from practice.models import SoloGame
from tests.browser.browser_helpers import DESKTOP, PHONE, page_for, shoot, tile
from tests.practice.practice_helpers import BEGINNER_CODE, TURTLE_CODE, plan_of

SIZES = [pytest.param(DESKTOP, id="laptop"), pytest.param(PHONE, id="phone")]
HOUR_MS = 3_600_000


def all_but_the_last_pair(player, code, clock_ms=0):
    """A game of `code` for `player`, every pair of its plan removed but the last (as the
    server would have stored them): the last pair, for the browser to play."""
    game = actions.start_game(player, code)
    SoloGame.objects.filter(pk=game.pk).update(elapsed_ms=clock_ms)
    plan = plan_of(code)
    for n, (i, j) in enumerate(plan[:-1]):
        actions.play_pair(player, game.pk, i, j, n)
    return plan[-1]


def win_on_the_page(page, url, code, last):
    page.goto(f"{url}/play/")
    expect(page.locator("#code")).to_have_text(code)
    expect(page.locator(".tile:visible")).to_have_count(2)
    for index in last:
        tile(page, code, index).click()
    expect(page.locator("#won-dialog")).to_be_visible()


def player_with_page(new_device, asgi_server, viewport=DESKTOP):
    player = Player.objects.create()
    return player, page_for(new_device, asgi_server, player, viewport=viewport)


@pytest.mark.parametrize("viewport", SIZES)
def test_play_again_starts_a_new_game_of_the_same_layout_in_one_click(
    asgi_server, new_device, viewport
):
    player, page = player_with_page(new_device, asgi_server, viewport)
    last = all_but_the_last_pair(player, BEGINNER_CODE)
    win_on_the_page(page, asgi_server.url, BEGINNER_CODE, last)
    dialog = page.locator("#won-dialog")
    expect(dialog.locator("#won-time")).to_have_text(re.compile(r"^\d+:\d\d$"))
    # One record line, not "your best!" beside it; one primary next step.
    expect(dialog.locator("#won-rank")).to_have_text("")
    expect(dialog.locator("#won-record")).to_have_text("New personal record!")
    expect(dialog.locator(".btn.primary")).to_have_count(1)
    expect(dialog.locator(".btn.primary")).to_have_text("Play a new deal")
    for secondary in ("#won-replay", "#won-watch"):
        expect(dialog.locator(secondary)).not_to_have_class(re.compile(r"\bbtn\b"))
    expect(dialog.locator("#won-daily")).to_be_hidden()
    expect(page.locator("#undo")).to_be_disabled()  # nothing to undo into after a win
    expect(page.locator("#hint")).to_be_disabled()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shoot(page, f"won-{viewport['width']}")
    dialog.get_by_role("button", name="Play a new deal").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#code")).to_have_text(re.compile(r"^MJ1-L01-[A-Z]{7}$"))
    expect(page.locator("#code")).not_to_have_text(BEGINNER_CODE)
    expect(page.locator(".tile:visible")).to_have_count(34)
    expect(page.locator("#progress")).to_have_text("0%")
    new_code = page.locator("#code").text_content()
    assert page.url.endswith(f"/play/{new_code}/")
    playing = SoloGame.objects.get(player=player, status=SoloGame.Status.PLAYING)
    assert playing.code == new_code and playing.layout_number == 1


def test_replay_this_deal_gives_the_same_code_afresh(asgi_server, new_device):
    player, page = player_with_page(new_device, asgi_server)
    last = all_but_the_last_pair(player, BEGINNER_CODE)
    win_on_the_page(page, asgi_server.url, BEGINNER_CODE, last)
    page.get_by_role("button", name="Try this deal again").click()
    expect(page.locator("#won-dialog")).to_be_hidden()
    expect(page.locator("#code")).to_have_text(BEGINNER_CODE)
    expect(page.locator(".tile:visible")).to_have_count(34)
    expect(page.locator("#progress")).to_have_text("0%")
    expect(page.locator("#undo")).to_be_disabled()
    games = SoloGame.objects.filter(player=player, code=BEGINNER_CODE).order_by("pk")
    assert [g.status for g in games] == [SoloGame.Status.WON, SoloGame.Status.PLAYING]


def test_a_slower_second_win_is_the_2nd_best_and_its_link_opens_the_same_deal(
    asgi_server, new_device
):
    player, page = player_with_page(new_device, asgi_server)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    other = "MJ1-L01-AAAAAAB"  # another Beginner deal: a replayed one would be practice
    i, j = all_but_the_last_pair(player, other)
    game = SoloGame.objects.get(player=player, status=SoloGame.Status.PLAYING)
    actions.play_pair(player, game.pk, i, j, len(game.moves))  # a first, fast win
    last = all_but_the_last_pair(player, BEGINNER_CODE, clock_ms=HOUR_MS)
    win_on_the_page(page, asgi_server.url, BEGINNER_CODE, last)
    dialog = page.locator("#won-dialog")
    expect(dialog.locator("#won-rank")).to_have_text("— your 2nd best")
    expect(dialog.locator("#won-record")).to_contain_text("Your record on this level")
    link = f"{asgi_server.url}/play/{BEGINNER_CODE}/"
    expect(dialog.locator("#won-code")).to_have_text(BEGINNER_CODE)
    expect(dialog.get_by_label("Share this deal")).to_have_value(link)
    dialog.get_by_role("button", name="Copy link").click()
    expect(dialog.locator("#won-copied")).to_have_text("Link copied")
    assert page.evaluate("navigator.clipboard.readText()") == link
    # Someone else opens the link: the same deal, face for face.
    friend = new_device()
    friend.goto(link)
    expect(friend.locator("#code")).to_have_text(BEGINNER_CODE)
    faces = friend.locator(".tile").evaluate_all("tiles => tiles.map(t => t.dataset.face)")
    mine = page.locator(".tile").evaluate_all("tiles => tiles.map(t => t.dataset.face)")
    assert faces == mine and len(faces) == 34


def test_undo_is_disabled_when_it_can_do_nothing(asgi_server, page):
    page.goto(f"{asgi_server.url}/play/{BEGINNER_CODE}/")
    undo = page.get_by_role("button", name="Undo", exact=True)
    expect(undo).to_be_disabled()  # nothing removed yet
    i, j = plan_of(BEGINNER_CODE)[0]
    tile(page, BEGINNER_CODE, i).click()
    tile(page, BEGINNER_CODE, j).click()
    expect(undo).to_be_enabled()
    page.get_by_role("button", name="Pause", exact=True).click()
    expect(undo).to_be_disabled()  # under the pause cover
    page.locator("#resume").click()
    expect(undo).to_be_enabled()


def test_pausing_clears_a_hint(asgi_server, page):
    page.goto(f"{asgi_server.url}/play/{TURTLE_CODE}/")
    page.get_by_role("button", name="Hint", exact=True).click()
    expect(page.locator(".tile.hinted")).to_have_count(2)
    page.get_by_role("button", name="Pause", exact=True).click()
    expect(page.locator(".tile.hinted")).to_have_count(0)


@pytest.mark.parametrize("viewport", SIZES)
def test_a_link_that_holds_no_game_says_so_and_offers_a_new_game(asgi_server, new_device, viewport):
    page = new_device(viewport=viewport)
    response = page.goto(f"{asgi_server.url}/play/garbage/")
    assert response.status == 400
    expect(page.get_by_role("heading", name="No game at this link")).to_be_visible()
    expect(page.locator("#no-game-message")).to_have_text(
        "This link doesn't open a game: the code 'GARBAGE' is not one of ours."
    )
    expect(page.locator(".tile")).to_have_count(0)
    shoot(page, f"no-game-{viewport['width']}")
    page.get_by_role("button", name="New game").click()
    page.get_by_role("button", name=re.compile(r"^Easy")).click()
    expect(page.locator(".tile:visible")).to_have_count(68)
    expect(page.locator("#no-game")).to_have_count(0)
    assert re.search(r"/play/MJ1-L02-[A-Z]{7}/$", page.url)


@pytest.mark.parametrize("viewport", SIZES)
def test_the_new_game_dialog_shows_tile_counts_and_layout_previews(
    asgi_server, new_device, viewport
):
    page = new_device(viewport=viewport)
    page.goto(f"{asgi_server.url}/play/{BEGINNER_CODE}/")
    page.get_by_role("button", name="New game", exact=True).click()
    dialog = page.locator("#new-game-dialog")
    for name, tiles in (("Beginner", 34), ("Easy", 68), ("Medium", 94), ("Hard", 136)):
        level = dialog.get_by_role("button", name=f"{name} {tiles} tiles", exact=True)
        expect(level).to_be_visible()
    flowers = dialog.get_by_role("switch", name=re.compile("Flowers and seasons"))
    expect(flowers).not_to_be_checked()
    flowers.check()
    expect(dialog.get_by_role("button", name="Hard 144 tiles", exact=True)).to_be_visible()
    flowers.uncheck()
    dialog.get_by_text("All layouts").click()
    picker = dialog.get_by_role("group", name="Layouts")
    # Its name, tile count and difficulty (layouts/templates/layouts/_picker.html).
    turtle = picker.get_by_role("button", name="Turtle (Hard + flowers) 144 tiles · Hard")
    expect(turtle).to_be_visible()
    expect(picker.get_by_role("button")).to_have_count(len(CATALOG))
    previews = picker.locator("img.preview")
    expect(previews).to_have_count(len(CATALOG))
    # Previews load lazily, as they come near the view: scroll through them all.
    for index in range(previews.count()):
        previews.nth(index).scroll_into_view_if_needed()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.picker-list img.preview')]"
        ".every(img => img.complete && img.naturalWidth > 0)"
    )
    box = dialog.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    assert box["height"] <= viewport["height"]
    shoot(page, f"new-game-{viewport['width']}")
    turtle.click()
    expect(dialog).to_be_hidden()
    expect(page.locator(".tile")).to_have_count(144)
    expect(page.locator("#code")).to_have_text(re.compile(r"^MJ1-L00-"))


def test_highlight_matching_tiles_is_an_option_remembered(asgi_server, page):
    page.goto(f"{asgi_server.url}/play/{BEGINNER_CODE}/")
    toggle = page.get_by_role("button", name="Show matches")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("localStorage.getItem('mj-show-matches')") == "on"
    # With it on, a selected tile's free partners light up.
    position = deal_from_code(BEGINNER_CODE).start()
    i, _j = plan_of(BEGINNER_CODE)[0]
    tile(page, BEGINNER_CODE, i).click()
    expect(page.locator(".tile.match").first).to_be_visible()
    toggle.click()
    expect(page.locator(".tile.match")).to_have_count(0)
    assert position.faces  # the deal is the one the page shows


@pytest.mark.parametrize("viewport", SIZES)
def test_a_daily_win_says_todays_place_and_the_streak(asgi_server, new_device, viewport):
    player, page = player_with_page(new_device, asgi_server, viewport)
    code = daily.daily_code(daily.today())
    SoloGame.objects.create(
        player=Player.objects.create(nickname="Swift"), code=code,
        layout_number=daily.DAILY_LAYOUT, tile_count=68, status=SoloGame.Status.WON,
        time_ms=1, elapsed_ms=1,
    )  # fmt: skip
    last = all_but_the_last_pair(player, code)
    win_on_the_page(page, asgi_server.url, code, last)
    dialog = page.locator("#won-dialog")
    expect(dialog.locator("#won-place")).to_have_text("2nd on today's table")
    expect(dialog.locator("#won-streak")).to_have_text("1 day in a row")
    expect(dialog.locator("#won-record")).to_have_text("New personal record!")
    shoot(page, f"won-daily-{viewport['width']}")


@pytest.mark.parametrize("viewport", SIZES)
def test_the_daily_challenge_names_its_date_and_the_players_streak(
    asgi_server, new_device, viewport
):
    import datetime

    player, page = player_with_page(new_device, asgi_server, viewport)
    day = daily.today()
    yesterday = day - datetime.timedelta(days=1)
    start, _end = daily.day_bounds(yesterday)
    SoloGame.objects.create(
        player=player,
        code=daily.daily_code(yesterday),
        layout_number=daily.DAILY_LAYOUT,
        tile_count=68,
        started_at=start + datetime.timedelta(hours=12),
        status=SoloGame.Status.ABANDONED,
    )
    fast = Player.objects.create(nickname="Swift")
    SoloGame.objects.create(
        player=fast, code=daily.daily_code(day), layout_number=daily.DAILY_LAYOUT,
        tile_count=68, status=SoloGame.Status.WON, time_ms=95_000, elapsed_ms=95_000,
    )  # fmt: skip
    page.goto(f"{asgi_server.url}/play/daily/")
    title = f"Daily challenge — {day.day} {day:%B}"
    expect(page.get_by_role("heading", name=title)).to_be_visible()
    expect(page.locator("#code")).to_have_text(daily.daily_code(day))
    expect(page.locator("#daily-streak")).to_contain_text("2 days in a row")
    expect(page.locator("#daily-best")).to_contain_text("Swift")
    expect(page.locator("#daily-best")).to_contain_text("1:35")
    shoot(page, f"daily-{viewport['width']}")
    # Another game is not the challenge: the frame goes.
    page.get_by_role("button", name="New game", exact=True).click()
    page.get_by_role("button", name=re.compile(r"^Beginner")).click()
    expect(page.locator(".tile:visible")).to_have_count(34)
    expect(page.locator("#daily")).to_be_hidden()
