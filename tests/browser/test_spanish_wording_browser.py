"""The Spanish wording in Chromium (tests/i18n/test_spanish_wording.py has the rest): a
page's news is not shown in the red of a refusal; CPU seats are named in each reader's
language (tests/i18n/test_cpu_names.py)."""

from datetime import timedelta

from playwright.sync_api import expect

from rooms.lobby import actions as lobby
from rooms.race import actions as races
from tests.browser.browser_helpers import page_for, server_side, shoot
from tests.rooms.rooms_helpers import room_with


def test_on_the_tutorial_an_explanation_is_news_and_a_wrong_pair_an_error(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None, lang="es")
    page.goto(f"{asgi_server.url}/learn/")
    ink = page.evaluate("getComputedStyle(document.body).color")
    page.locator(".tile[data-index='1']").click()  # blocked: the board says why
    message = page.locator("#message")
    expect(message).to_contain_text("con fichas a ambos lados")
    assert message.evaluate("(el) => getComputedStyle(el).color") == ink
    for index in (5, 6):  # the flowers, but the step asks for the 3 of dots
        page.locator(f".tile[data-index='{index}']").click()
    expect(message).to_have_attribute("data-kind", "error")
    assert message.evaluate("(el) => getComputedStyle(el).color") != ink


def test_cpu_seats_are_named_in_each_readers_language_in_the_lobby_standings_and_results(
    asgi_server, new_device, settings
):
    """One event reaches every socket of the room: a Spanish window names the CPUs in
    Spanish and an English one in English, from the lobby through the race's results."""
    settings.RACE_COUNTDOWN_SECONDS = 0
    room, (ana, bo) = server_side(room_with, "Ana", "Bo", cpus=["steady"])
    spanish = page_for(new_device, asgi_server, ana, lang="es")
    english = page_for(new_device, asgi_server, bo, lang="en")
    for page in (spanish, english):
        page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(spanish.locator("#seats")).to_contain_text("CPU 1 (Constante)")
    expect(english.locator("#seats")).to_contain_text("CPU 1 (Steady)")
    server_side(lobby.add_cpu, ana, room.code, "sharp")  # a lobby event, built once
    expect(spanish.locator("#seats")).to_contain_text("CPU 2 (Ágil)")
    expect(english.locator("#seats")).to_contain_text("CPU 2 (Sharp)")
    race = server_side(races.start_race, ana, room.code, seed=9)
    expect(spanish.locator("#all-rows")).to_contain_text("CPU 1 (Constante)")  # the standings
    expect(english.locator("#all-rows")).to_contain_text("CPU 1 (Steady)")
    for player in (ana, bo):  # the last human done ends the race
        server_side(races.give_up, player, room.code, now=race.go_at + timedelta(seconds=65))
    expect(spanish.locator("#results")).to_be_visible()
    for where in ("#results-rows", "#room-table", "#progress-chart"):
        expect(spanish.locator(where)).to_contain_text("CPU 2 (Ágil)")
        expect(spanish.locator(where)).to_contain_text("CPU 1 (Constante)")  # whole, not cut
        expect(spanish.locator(where)).not_to_contain_text("Steady")
    expect(english.locator("#results-rows")).to_contain_text("CPU 2 (Sharp)")
    shoot(spanish, "cpu-names-results-es")
