"""Screen details of arenas, Race now, ghost races and leaderboards, each as a player sees
it in Chromium, in both languages, both themes and at both sizes (SCREENS_DIR keeps a
screenshot of each): an arena's race names its arena while it runs; Race now's waiting
page shows who is there (a guest named in the page's language) and the seconds left, no
rules; /arenas/ shows a refused form's error where the form is; the player's own row of
an arena's table stands out in the dark theme too; a ghost of one's own board is "your
ghost"."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import Player
from rooms.quick import actions as quick
from tests.arenas.arena_helpers import joined, new_arena, paired, race_of
from tests.browser.browser_helpers import (
    DESKTOP,
    PHONE,
    each_mode,
    page_for,
    server_side,
    shoot,
    tile,
)
from tests.browser.test_arena_screens import arenas_with_results
from tests.browser.test_race_now_browser import (
    BEGINNER_CODE,
    anas_won_game,
    ghost_race_near_its_end,
)

pytestmark = pytest.mark.browser

MODES = [
    (lang, theme, size, viewport)
    for lang in ("en", "es")
    for theme in ("light", "dark")
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE))
]


def themed_page(new_device, server, player, lang, theme, viewport):
    page = page_for(new_device, server, player, viewport, lang=lang)
    page.add_init_script(f"localStorage.setItem('mj-theme', '{theme}')")
    return page


def lang_modes(new_device, server, player, langs):
    """For each language of `langs`, one page (a device of its own) shown in each of that
    language's modes in turn (browser_helpers.each_mode): yields (page, lang, theme, size)."""
    for lang in langs:
        page = page_for(new_device, server, player, DESKTOP, lang=lang)
        modes = [
            (theme, size, viewport) for m_lang, theme, size, viewport in MODES if m_lang == lang
        ]
        for theme, size in each_mode(page, server, modes):
            yield page, lang, theme, size


def on_screen(page, locator) -> bool:
    """Whether the element is inside the window as it is scrolled now."""
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


# --- an arena's race names its arena (docs/RULES.md §Arenas) -------------------------------
def an_arena_race():
    """Ana and Bo in a race of the arena "Tarde de sprint", counting down."""
    arena = new_arena(name="Tarde de sprint")
    ana, bo = joined(arena, "Ana", "Bo")
    paired(arena, [ana, bo], timezone.now())
    race, _board = race_of(arena, ana)
    return arena, ana, race.room.code


@pytest.mark.parametrize("lang", ["en", "es"])
def test_an_arena_race_names_its_arena_with_a_link_before_and_while_it_runs(
    asgi_server, new_device, settings, lang
):
    settings.RANKED_GATHER_SECONDS = 2
    settings.RACE_COUNTDOWN_SECONDS = 2
    arena, ana, code = server_side(an_arena_race)
    words = {"en": "A race of the arena", "es": "Una carrera de la arena"}[lang]
    for page, _lang, theme, size in lang_modes(new_device, asgi_server, ana, [lang]):
        page.goto(f"{asgi_server.url}/rooms/{code}/")
        note = page.locator("#host-note")
        expect(note).to_have_text(f"{words} Tarde de sprint")
        expect(note.get_by_role("link", name="Tarde de sprint")).to_have_attribute(
            "href", f"/arenas/{arena.code}/"
        )
        assert on_screen(page, note)
        expect(page.locator("#play-area")).to_be_visible()  # the countdown, then the race
        expect(page.locator("#results")).to_be_hidden()
        shoot(page, f"arena-race-note-{lang}-{theme}-{size}")
    page.context.close()
    page = page_for(new_device, asgi_server, ana, PHONE, lang=lang)
    page.goto(f"{asgi_server.url}/rooms/{code}/")
    expect(page.locator(".tile[data-face]").first).to_be_visible(timeout=15_000)  # "go"
    expect(page.locator("#host-note")).to_be_visible()
    page.locator("#host-name").click()
    page.wait_for_url(re.compile(rf"/arenas/{arena.code}/$"))


# --- Race now's waiting page (docs/RULES.md §Race now) ---------------------------------------
def a_quick_room_waiting():
    ana = Player.objects.create(nickname="Ana")
    room = quick.race_now(ana, "beginner")
    bo = Player.objects.create()  # a guest: no name of their own
    quick.race_now(bo, "beginner")
    return ana, bo, room.code


@pytest.mark.parametrize("lang", ["en", "es"])
def test_race_nows_waiting_page_shows_who_is_there_and_the_seconds_left_no_rules(
    asgi_server, new_device, settings, lang
):
    settings.QUICK_WAIT_SECONDS = 600  # nobody starts it while we look
    ana, bo, code = server_side(a_quick_room_waiting)
    guest = {"en": f"Player {bo.pk}", "es": f"Jugador {bo.pk}"}[lang]  # seated from English
    for page, _lang, theme, size in lang_modes(new_device, asgi_server, ana, [lang]):
        page.goto(f"{asgi_server.url}/rooms/{code}/")
        expect(page.locator("#quick-seconds")).to_have_text(re.compile(r"^\d+$"))
        expect(page.locator("#seats li")).to_have_count(2)
        expect(page.locator("#seats li").nth(1)).to_have_text(guest)  # in the page's language
        expect(page.locator("#rules")).to_be_hidden()
        expect(page.locator("#room-rules h2")).to_be_hidden()
        lobby = page.locator("#lobby")
        assert lobby.locator("select:visible, input:visible").count() == 0
        assert not re.search(r"\b(Rules|Reglas)\b", lobby.inner_text())
        assert on_screen(page, page.locator("#quick-seconds"))
        shoot(page, f"race-now-waiting-{lang}-{theme}-{size}")


# --- /arenas/: a refused form says why where the form is -----------------------------------
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_refused_arena_shows_its_error_on_screen_beside_the_form_and_announces_it(
    asgi_server, new_device, lang
):
    # A device of its own for each mode (a form posted, unlike the other tests here).
    for _lang, theme, size, viewport in [m for m in MODES if m[0] == lang]:
        page = themed_page(new_device, asgi_server, None, lang, theme, viewport)
        page.goto(f"{asgi_server.url}/arenas/")
        page.locator("#create-arena").evaluate("form => { form.noValidate = true; }")
        page.fill("#arena-name", "Too long")
        page.fill("#arena-minutes", "500")  # past the 120 minutes an arena may last
        page.locator("#create-arena button[type=submit]").click()
        error = page.locator("#arena-error")
        expect(error).to_contain_text("120")
        expect(error).to_have_attribute("role", "alert")
        assert page.locator("#create-arena #arena-error").count() == 1  # in the form
        expect(error).to_be_focused()
        assert on_screen(page, error)
        expect(page.locator("#arena-name")).to_have_value("Too long")  # kept for a retry
        shoot(page, f"arenas-refused-{lang}-{theme}-{size}")
        page.context.close()


# --- an arena's table: your own row stands out, in the dark theme too ----------------------
def channels(css: str) -> tuple[float, float, float]:
    """A computed colour, "rgb(r, g, b)" or "color(srgb r g b)", as 0–1 channels."""
    numbers = [float(n) for n in re.findall(r"[\d.]+", css)]
    if css.startswith("color("):
        return tuple(numbers[:3])
    return tuple(n / 255 for n in numbers[:3])


def luminance(css: str) -> float:
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels(css)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


OWN_ROW = """() => {
  // The colour one sees behind an element: every painted layer under it composited, the
  // page's first, on a 1×1 canvas.
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 1;
  const paint = canvas.getContext("2d", { willReadFrequently: true });
  const behind = (el) => {
    const layers = [];
    for (; el; el = el.parentElement) layers.unshift(getComputedStyle(el).backgroundColor);
    paint.fillStyle = "#fff";
    paint.fillRect(0, 0, 1, 1);
    for (const layer of layers) { paint.fillStyle = layer; paint.fillRect(0, 0, 1, 1); }
    const [r, g, b] = paint.getImageData(0, 0, 1, 1).data;
    return `rgb(${r}, ${g}, ${b})`;
  };
  const cell = document.querySelector("#table-rows tr.me td.name");
  const other = document.querySelector("#table-rows tr:not(.me) td.name");
  const first = document.querySelector("#table-rows tr.me td");
  return {
    text: getComputedStyle(cell).color, background: behind(cell), other: behind(other),
    page: behind(document.documentElement), bar: getComputedStyle(first).boxShadow,
  };
}"""


def test_your_own_row_of_an_arena_table_stands_out_in_both_themes(asgi_server, new_device):
    arena, ana, _over = server_side(arenas_with_results)
    for page, lang, theme, size in lang_modes(new_device, asgi_server, ana, ["en", "es"]):
        page.goto(f"{asgi_server.url}/arenas/{arena.code}/")
        expect(page.locator("#table-rows tr.me")).to_contain_text("Ana")
        seen = page.evaluate(OWN_ROW)
        assert contrast(seen["text"], seen["background"]) >= 4.5, seen
        assert contrast(seen["background"], seen["other"]) >= 1.4, (theme, seen)  # a tint one sees
        bar = re.match(r"(rgb\([^)]*\)|color\([^)]*\))", seen["bar"])
        assert bar and contrast(bar.group(1), seen["page"]) >= 3, (theme, seen)  # and a bar
        shoot(page, f"arena-own-row-{lang}-{theme}-{size}")


# --- a ghost race against your own replay (docs/RULES.md §Ghost races) -----------------------
OWN_GHOST = {
    "en": ("Your ghost, best 0:59", r"You beat your ghost by \d+ s"),
    "es": ("Tu fantasma, mejor 0:59", r"Le ganaste a tu fantasma por \d+ s"),
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_racing_your_own_ghost_calls_it_yours_in_its_row_and_at_the_end(
    asgi_server, new_device, lang
):
    row, end = OWN_GHOST[lang]
    ghost_url = f"{asgi_server.url}/replays/game/{{}}/ghost/"
    for _lang, theme, size, viewport in [m for m in MODES if m[0] == lang]:
        # Each its own Ana: a closed window pauses its game.
        source = server_side(anas_won_game)  # her won game: 17 pairs, the last at 59.5 s
        page = themed_page(new_device, asgi_server, source.player, lang, theme, viewport)
        page.goto(ghost_url.format(source.pk))
        expect(page.locator("#ghost-rows li[data-who='ghost']")).to_contain_text(row)
        shoot(page, f"own-ghost-{lang}-{theme}-{size}")
        page.context.close()
    source = server_side(anas_won_game)
    url = ghost_url.format(source.pk)
    page = themed_page(new_device, asgi_server, source.player, lang, "dark", PHONE)
    page.goto(url)
    last = server_side(ghost_race_near_its_end, source.player, source, 30_000)
    page.goto(url)  # the race goes on, one pair from its end
    for index in last:
        tile(page, BEGINNER_CODE, index).click()
    expect(page.locator("#won-ghost-end")).to_have_text(re.compile(end))
    shoot(page, f"own-ghost-won-{lang}-dark-phone")
    page.locator("#won-dialog button").last.click()
    expect(page.locator("#ghost-end")).to_have_text(re.compile(end))
    shoot(page, f"own-ghost-end-{lang}-dark-phone")


# --- a past leaderboard period offers no play of today's challenge --------------------------
def test_a_past_week_or_month_offers_no_play_of_todays_challenge(asgi_server, new_device):
    from datetime import UTC

    from records import periods

    today = timezone.now().astimezone(UTC).date()
    last_week = periods.preceding(periods.containing(periods.Kind.WEEK, today))
    last_month = periods.preceding(periods.containing(periods.Kind.MONTH, today))
    past = {
        "week": f"/leaderboards/week/{periods.format(last_week)}/",
        "month": f"/leaderboards/month/{periods.format(last_month)}/",
    }
    for page, lang, theme, size in lang_modes(new_device, asgi_server, None, ["en", "es"]):
        for kind, url in past.items():
            page.goto(f"{asgi_server.url}{url}")
            expect(page.locator("#daily h2")).to_be_visible()
            expect(page.locator("#play-daily")).to_have_count(0)
            expect(page.locator("#past-days")).to_have_attribute(
                "href", re.compile(r"/leaderboards/daily/\d{4}-\d{2}-\d{2}/$")
            )
            shoot(page, f"leaderboard-past-{kind}-{lang}-{theme}-{size}")
        page.goto(f"{asgi_server.url}/leaderboards/")
        expect(page.locator("#play-daily")).to_be_visible()  # all time: today's is on
