"""Solo practice in a real Chromium: what a player sees and does (docs/RULES.md §Playing a
board, §Solo play)."""

import re
import time

import pytest
from playwright.sync_api import expect

from mahjong.engine.deal import deal_from_code
from tests.browser.browser_helpers import open_game, tile
from tests.practice.practice_helpers import BEGINNER_CODE, TURTLE_CODE, moves_to_a_dead_end, plan_of


def play_pair(page, code, i, j):
    tile(page, code, i).click()
    tile(page, code, j).click()


def test_a_whole_game_is_won_by_clicks_alone(asgi_server, page):
    open_game(asgi_server, page, BEGINNER_CODE)
    for i, j in plan_of(BEGINNER_CODE):
        play_pair(page, BEGINNER_CODE, i, j)
    expect(page.locator("#won-dialog")).to_be_visible()
    expect(page.locator("#won-record")).to_have_text("New personal record!")
    expect(page.locator("#progress")).to_have_text("100%")
    page.goto(f"{asgi_server.url}/records/")
    expect(page.locator("#leaderboard")).to_contain_text(BEGINNER_CODE)


def test_tiles_carry_their_hooks_and_accessible_names(asgi_server, page):
    open_game(asgi_server, page, BEGINNER_CODE)
    deal = deal_from_code(BEGINNER_CODE)
    free = set(deal.start().free_tiles())
    first = tile(page, BEGINNER_CODE, 0)
    expect(first).to_have_attribute("data-free", "true" if 0 in free else "false")
    expect(first).to_have_attribute(
        "aria-label", re.compile(r", (free|blocked), layer \d+ of \d+$")
    )
    assert page.locator(".tile[data-free='true']").count() == len(free)
    for name in ("Hint", "Undo", "Pause", "New game"):
        expect(page.get_by_role("button", name=name, exact=True)).to_be_visible()


def test_undo_brings_the_pair_back(asgi_server, page):
    open_game(asgi_server, page, BEGINNER_CODE)
    i, j = plan_of(BEGINNER_CODE)[0]
    play_pair(page, BEGINNER_CODE, i, j)
    expect(tile(page, BEGINNER_CODE, i)).to_be_hidden()
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(tile(page, BEGINNER_CODE, i)).to_be_visible()
    expect(tile(page, BEGINNER_CODE, j)).to_be_visible()
    expect(page.locator("#progress")).to_have_text("0%")


def test_a_hinted_pair_can_be_played(asgi_server, page):
    open_game(asgi_server, page, TURTLE_CODE)
    page.get_by_role("button", name="Hint", exact=True).click()
    hinted = page.locator(".tile.hinted")
    expect(hinted).to_have_count(2)
    expect(page.locator("#hints-used")).to_have_text("1")
    hinted.nth(0).click()
    hinted.nth(1).click()
    expect(page.locator(".tile:visible")).to_have_count(142)
    expect(page.locator("#progress")).to_have_text("1%")


def test_a_tap_on_a_blocked_tile_explains_why(asgi_server, page):
    open_game(asgi_server, page, TURTLE_CODE)
    position = deal_from_code(TURTLE_CODE).start()
    under_top = next(i for i, (_, _, z) in enumerate(position.layout.positions) if z == 3)
    # Its top-left corner shows past the single top tile.
    tile(page, TURTLE_CODE, under_top).click(position={"x": 3, "y": 3})
    expect(page.locator("#message")).to_contain_text("covered by 1 tile")
    hemmed_in = next(
        i
        for i in position.alive_tiles()
        if (why := position.why_blocked(i)) and why.both_sides and not why.covered_by
    )
    tile(page, TURTLE_CODE, hemmed_in).click()
    expect(page.locator("#message")).to_contain_text("blocked on both sides")
    expect(page.locator(".tile.selected")).to_have_count(0)
    # News, not an error: drawn in the text's colour (site.css, message kinds).
    expect(page.locator("#message")).to_have_attribute("data-kind", "info")


def test_the_clock_counts_from_when_the_page_was_served_though_it_loads_slowly(asgi_server, page):
    def late(route):
        time.sleep(1.5)
        route.continue_()

    page.route(re.compile(r".*/practice(\.[0-9a-f]+)?\.js$"), late)
    open_game(asgi_server, page, BEGINNER_CODE)
    # The server's clock started when it served the page; the player's must not lag it.
    assert page.locator("#clock").text_content() != "0:00"


def test_pause_hides_the_faces_and_stops_the_clock(asgi_server, page):
    open_game(asgi_server, page, BEGINNER_CODE)
    page.get_by_role("button", name="Pause", exact=True).click()
    expect(page.locator("#paused-cover")).to_be_visible()
    expect(page.locator(".tile .pic").first).to_be_hidden()
    expect(page.locator("#play")).not_to_have_attribute("aria-busy", "true")  # the server agreed
    shown = page.locator("#clock").text_content()
    page.wait_for_timeout(1200)
    assert page.locator("#clock").text_content() == shown
    page.locator("#resume").click()
    expect(page.locator(".tile .pic").first).to_be_visible()


def test_a_pause_sent_by_the_old_page_after_the_new_one_loaded_changes_nothing(asgi_server, page):
    """Reloading: the old page's pause reaches the server after the new page was served.
    The new page's first pair is accepted and its clock does not jump back."""
    open_game(asgi_server, page, BEGINNER_CODE)
    newer = page.context.new_page()
    open_game(asgi_server, newer, BEGINNER_CODE)
    newer.wait_for_timeout(1100)  # let the clock show a second
    before = newer.locator("#clock").text_content()
    with page.expect_response(re.compile(r"/play/api/pause$")):  # the old page is left
        page.evaluate(
            """() => {
              Object.defineProperty(document, "hidden", { value: true, configurable: true });
              document.dispatchEvent(new Event("visibilitychange"));
            }"""
        )
    i, j = plan_of(BEGINNER_CODE)[0]
    play_pair(newer, BEGINNER_CODE, i, j)
    expect(newer.locator("#play")).not_to_have_attribute("aria-busy", "true")
    expect(tile(newer, BEGINNER_CODE, i)).to_be_hidden()
    expect(newer.locator("#paused-cover")).to_be_hidden()
    expect(newer.locator("#message")).to_have_text("")
    assert newer.locator("#clock").text_content() >= before
    newer.reload()
    expect(tile(newer, BEGINNER_CODE, i)).to_be_hidden()  # the server kept the pair


PRACTICE_JS = re.compile(r".*/practice(\.[0-9a-f]+)?\.js$")


def test_a_paused_game_shows_its_cover_from_the_first_paint_and_a_tap_resumes(asgi_server, page):
    open_game(asgi_server, page, BEGINNER_CODE)
    page.get_by_role("button", name="Pause", exact=True).click()
    expect(page.locator("#play")).not_to_have_attribute("aria-busy", "true")
    page.route(PRACTICE_JS, lambda route: route.abort())
    page.reload()
    # Before any script of the page ran, the page says what the server says: paused.
    expect(page.locator("#paused-cover")).not_to_have_attribute("hidden", "")
    expect(page.locator("#play")).to_have_class(re.compile(r"\bpaused\b"))
    expect(page.locator("#pause")).to_have_attribute("aria-pressed", "true")  # its name stays
    page.unroute(PRACTICE_JS)
    page.reload()
    page.locator("#paused-cover").click(position={"x": 10, "y": 10})
    expect(page.locator("#paused-cover")).to_be_hidden()
    i, j = plan_of(BEGINNER_CODE)[0]
    play_pair(page, BEGINNER_CODE, i, j)
    expect(tile(page, BEGINNER_CODE, i)).to_be_hidden()
    expect(page.locator("#message")).to_have_text("")


def test_a_refusal_is_said_in_the_players_words_not_the_servers(asgi_server, page):
    open_game(asgi_server, page, BEGINNER_CODE)
    i, j = plan_of(BEGINNER_CODE)[0]
    # Another tab pauses the game: this page still shows it running.
    page.evaluate(
        """async () => {
          const state = JSON.parse(document.getElementById("game-state").textContent);
          const csrf = document.querySelector("meta[name=csrf-token]").content;
          await fetch("/play/api/pause", {method: "POST", headers: {"X-CSRFToken": csrf,
            "Content-Type": "application/json"}, body: JSON.stringify({game: state.id})});
        }"""
    )
    play_pair(page, BEGINNER_CODE, i, j)
    expect(page.locator("#paused-cover")).to_be_visible()
    expect(page.locator("#message")).to_have_text("The game is paused: tap Resume to play on.")
    expect(page.locator("#message")).to_have_attribute("data-kind", "error")


def test_a_reload_restores_the_game(asgi_server, page):
    open_game(asgi_server, page, BEGINNER_CODE)
    i, j = plan_of(BEGINNER_CODE)[0]
    play_pair(page, BEGINNER_CODE, i, j)
    expect(tile(page, BEGINNER_CODE, i)).to_be_hidden()
    page.wait_for_load_state("networkidle")
    page.reload()
    expect(page.locator("#code")).to_have_text(BEGINNER_CODE)
    expect(tile(page, BEGINNER_CODE, i)).to_be_hidden()
    expect(tile(page, BEGINNER_CODE, j)).to_be_hidden()


def test_a_typed_code_replays_the_same_deal(asgi_server, page):
    page.goto(f"{asgi_server.url}/play/")
    page.get_by_role("button", name="New game", exact=True).click()
    page.get_by_label("Game code").last.fill("MJ1-L00-NOTACODE")
    page.get_by_role("button", name="Play this code").click()
    expect(page.locator("#code-error")).to_contain_text("game code")
    page.get_by_label("Game code").last.fill(TURTLE_CODE.lower())
    page.get_by_role("button", name="Play this code").click()
    expect(page.locator("#code")).to_have_text(TURTLE_CODE)
    faces = page.locator(".tile").evaluate_all(
        "tiles => tiles.map(t => [t.dataset.x, t.dataset.y, t.dataset.z, t.dataset.face].join())"
    )
    deal = deal_from_code(TURTLE_CODE)
    from mahjong.engine.tiles import FACES

    expected = [
        f"{x},{y},{z},{FACES[f]}"
        for (x, y, z), f in zip(deal.layout.positions, deal.faces, strict=True)
    ]
    assert faces == expected
    assert page.url.endswith(f"/play/{TURTLE_CODE}/")


def test_keyboard_moves_between_free_tiles_and_selects(asgi_server, page):
    open_game(asgi_server, page, BEGINNER_CODE)
    page.keyboard.press("ArrowRight")
    focused = page.locator(".tile:focus")
    expect(focused).to_have_attribute("data-free", "true")
    page.keyboard.press("Enter")
    expect(page.locator(".tile.selected")).to_have_count(1)
    page.keyboard.press("h")
    expect(page.locator("#hints-used")).to_have_text("1")


@pytest.mark.parametrize("cover", ["pause", "new-game"])
def test_under_a_cover_or_dialog_the_keyboard_cannot_play(asgi_server, page, cover):
    open_game(asgi_server, page, BEGINNER_CODE)
    page.keyboard.press("ArrowRight")
    expect(page.locator(".tile:focus")).to_have_attribute("data-free", "true")
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/api/hint" in r.url else None)
    if cover == "pause":
        page.keyboard.press("p")
        expect(page.locator("#paused-cover")).to_be_visible()
        page.locator(".tile").first.focus()  # as Tab would try: the tiles are out of reach
    else:
        page.locator("#new-game").click()
        expect(page.locator("#new-game-dialog")).to_be_visible()
    for key in ("ArrowRight", "Enter", " ", "h", "u", "c"):
        page.keyboard.press(key)
    if cover == "new-game":
        page.keyboard.press("Escape")
        expect(page.locator("#new-game-dialog")).to_be_hidden()
    expect(page.locator(".tile.selected")).to_have_count(0)
    expect(page.locator("#hints-used")).to_have_text("0")
    assert asked == []
    if cover == "pause":  # no tile (and so no face's name) is reached under the cover
        expect(page.locator(".tile:focus")).to_have_count(0)
        expect(page.locator("#message")).not_to_contain_text("open")


@pytest.mark.parametrize("width, height", [(390, 844)])
def test_on_a_phone_the_turtle_tiles_stay_at_least_24px_wide(
    asgi_server, new_device, width, height
):
    page = new_device(viewport={"width": width, "height": height}, has_touch=True)
    open_game(asgi_server, page, TURTLE_CODE)
    widths = page.locator(".tile").evaluate_all(
        "tiles => tiles.map(t => t.getBoundingClientRect().width)"
    )
    assert min(widths) >= 24
    right_edges = page.locator(".tile").evaluate_all(
        "tiles => tiles.map(t => t.getBoundingClientRect().right)"
    )
    assert max(right_edges) <= width


def test_a_dead_end_offers_undo_and_new_game(asgi_server, page):
    open_game(asgi_server, page, BEGINNER_CODE)
    for i, j in moves_to_a_dead_end(BEGINNER_CODE):
        play_pair(page, BEGINNER_CODE, i, j)
    dialog = page.locator("#blocked-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("No more moves")
    dialog.get_by_role("button", name="Undo").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#message")).to_have_text("")


def test_a_new_game_by_level_from_the_dialog(asgi_server, page):
    open_game(asgi_server, page, TURTLE_CODE)
    page.get_by_role("button", name="New game", exact=True).click()
    page.get_by_role("button", name="Beginner").click()
    expect(page.locator(".tile")).to_have_count(34)
    expect(page.locator("#code")).to_have_text(re.compile(r"^MJ1-L01-[A-Z]{7}$"))


def test_the_page_names_the_layout_and_the_pairs_left(asgi_server, page):
    open_game(asgi_server, page, BEGINNER_CODE)
    expect(page.locator("#game-name")).to_have_text("Beginner")
    expect(page.locator("#pairs-left")).to_have_text("17 pairs left")
    i, j = plan_of(BEGINNER_CODE)[0]
    play_pair(page, BEGINNER_CODE, i, j)
    expect(page.locator("#pairs-left")).to_have_text("16 pairs left")


def test_the_new_game_dialog_marks_the_current_choice_and_stops_the_clock(asgi_server, page):
    open_game(asgi_server, page, BEGINNER_CODE)
    page.locator("#new-game").click()
    dialog = page.locator("#new-game-dialog")
    expect(dialog).to_be_visible()
    current = dialog.locator("[aria-current='true']")
    expect(current.first).to_have_attribute("value", "beginner")
    expect(page.locator("#play")).not_to_have_attribute("aria-busy", "true")  # the pause is in
    shown = page.locator("#clock").text_content()
    page.wait_for_timeout(1200)
    assert page.locator("#clock").text_content() == shown
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#paused-cover")).to_be_hidden()
    expect(page.locator("#clock")).not_to_have_text(shown, timeout=3000)  # it runs again
    i, j = plan_of(BEGINNER_CODE)[0]
    play_pair(page, BEGINNER_CODE, i, j)
    expect(tile(page, BEGINNER_CODE, i)).to_be_hidden()
    expect(page.locator("#message")).to_have_text("")


def test_the_numbers_style_is_remembered(asgi_server, page):
    open_game(asgi_server, page, BEGINNER_CODE)
    page.get_by_role("button", name="Numbers").click()
    expect(page.locator(".tile .label").first).to_be_visible()
    page.reload()
    expect(page.locator(".tile .label").first).to_be_visible()
    expect(page.locator(".tile .pic").first).to_be_hidden()
