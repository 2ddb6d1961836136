"""The arena screens at both sizes, in both languages and both themes: /arenas/, a
running arena as a player sees it (table, races now, their own line), a finished
arena's podium, and the home page's next arena. Each fits the screen (no sideways
scroll) and speaks the page's language (SCREENS_DIR keeps a screenshot of each)."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from arenas import pairing
from arenas.models import Arena
from rooms.race import actions as races
from tests.arenas.arena_helpers import joined, new_arena, paired, play_out, race_of
from tests.browser.browser_helpers import (
    DESKTOP,
    PHONE,
    each_mode,
    no_sideways_scroll,
    page_for,
    shoot,
)

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"list": "Running now", "table": "Table", "podium": "Podium", "home": "Arena"},
    "es": {"list": "En curso ahora", "table": "Clasificación", "podium": "Podio", "home": "Arena"},
}


def arenas_with_results():
    """A running arena with a finished race and one running, and a finished arena."""
    now = timezone.now()
    arena = new_arena(name="Tarde de sprint", public=True)
    ana, bo, cy = joined(arena, "Ana", "Bo", "Cyrielle-Longname")
    paired(arena, [ana, bo, cy], now)
    race, board = race_of(arena, ana)
    done = play_out(ana, board, race.go_at)
    races.give_up(bo, race.room.code, now=done)
    races.give_up(cy, race.room.code, now=done)
    paired(arena, [ana, bo], done + timedelta(seconds=6), seed=2)  # racing now
    over = new_arena(name="Morning cup", minutes=10, public=True)
    di, ed = joined(over, "Di", "Ed")
    paired(over, [di, ed], now)
    race, board = race_of(over, di)
    done = play_out(di, board, race.go_at)
    races.give_up(ed, race.room.code, now=done)
    Arena.objects.filter(pk=over.pk).update(starts_at=now - timedelta(minutes=30))
    pairing.tick(now)
    new_arena(name="Hard evening", starts_in=90, level="hard", public=True)
    return arena, ana, over


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_arena_screens_fit_both_sizes_in_both_themes(asgi_server, new_device, lang):
    from tests.browser.browser_helpers import server_side

    arena, ana, over = server_side(arenas_with_results)
    words = WORDS[lang]
    page = page_for(new_device, asgi_server, ana, DESKTOP, lang=lang)
    modes = [
        (theme, size, viewport)
        for theme in ("light", "dark")
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE))
    ]
    for theme, size in each_mode(page, asgi_server, modes):
        name = f"{lang}-{theme}-{size}"
        page.goto(f"{asgi_server.url}/arenas/")
        expect(page.locator("#running-title")).to_have_text(words["list"])
        expect(page.locator(".countdown").first).not_to_be_empty()
        no_sideways_scroll(page)
        shoot(page, f"arenas-list-{name}")
        page.goto(f"{asgi_server.url}/arenas/{arena.code}/")
        expect(page.locator("#table-title")).to_have_text(words["table"])
        expect(page.locator("#table-rows tr")).to_have_count(3)
        expect(page.locator("#table-rows tr.me")).to_contain_text("Ana")
        expect(page.locator("#race-list a")).to_have_count(1)
        expect(page.locator("#you-line")).not_to_be_empty()
        no_sideways_scroll(page)
        shoot(page, f"arena-running-{name}")
        page.goto(f"{asgi_server.url}/arenas/{over.code}/")
        expect(page.locator("#podium-title")).to_have_text(words["podium"])
        expect(page.locator("#podium-list li")).to_have_count(2)
        no_sideways_scroll(page)
        shoot(page, f"arena-podium-{name}")
        page.goto(f"{asgi_server.url}/")
        expect(page.locator("#front-arena")).to_contain_text(words["home"])
        no_sideways_scroll(page)
        shoot(page, f"home-arena-{name}")
