"""A Spanish-speaking newcomer practises and races in Spanish in a real Chromium: the
page, the board's words and the server's refusals all arrive in Spanish."""

import re

import pytest
from playwright.sync_api import expect

from mahjong.engine.deal import deal_from_code
from rooms.core.boards import deal_for
from rooms.models import Entry
from tests.browser.browser_helpers import click_pair, create_room, tile
from tests.practice.practice_helpers import BEGINNER_CODE

pytestmark = pytest.mark.usefixtures("short_countdown")


@pytest.fixture
def spanish_page(new_device):
    return new_device(locale="es-ES", viewport={"width": 1000, "height": 760})


def test_practice_speaks_spanish_from_the_board_to_the_refusals(asgi_server, spanish_page):
    page = spanish_page
    page.goto(f"{asgi_server.url}/play/{BEGINNER_CODE}/")
    deal = deal_from_code(BEGINNER_CODE)
    expect(page.locator(".tile")).to_have_count(len(deal.faces))
    expect(page.get_by_role("button", name="Pista", exact=True)).to_be_visible()
    free = set(deal.start().free_tiles())
    blocked = next(i for i in range(len(deal.faces)) if i not in free)
    covered = tile(page, BEGINNER_CODE, blocked)
    expect(covered).to_have_attribute("aria-label", re.compile(r", bloqueado, capa 1 de 2$"))
    covered.dispatch_event("click")  # a covered tile lies under another one
    why = re.compile("fichas? encima|bloqueado|a ambos lados")
    expect(page.locator("#message")).to_contain_text(why)


def test_a_race_is_played_in_spanish_from_the_lobby_to_the_results(asgi_server, spanish_page):
    page = spanish_page
    create_room(page, asgi_server, "Lucía", "Crear una sala")
    page.select_option("select[name=level]", "beginner")
    expect(page.locator("select[name=level] option:checked")).to_have_text("Principiante")
    page.get_by_role("button", name="Empezar").click()
    expect(page.locator(".tile[data-face]")).to_have_count(34)
    entry = Entry.objects.get(seat__nickname="Lucía")
    for pair in deal_for(entry.code).plan:
        click_pair(page, entry, pair)
    expect(page.locator("#results")).to_be_visible()
    expect(page.locator("#results-title")).to_have_text("Resultados de la carrera 1")
    expect(page.get_by_role("button", name="Otra partida")).to_be_visible()
