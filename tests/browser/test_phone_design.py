"""The screenshot review's defects (issue 32), each measured where a player would see it,
on a 390 px phone unless said: tables that show their last column or fade at the edge
they scroll to, finger-sized rows for checkboxes, summaries and listed links, a chart's
scale that stays readable, one side margin, one-row toolbars whose icons are captioned,
a leaders strip that keeps each player whole, a paused cover that reads, the main
action as the primary button, one table heading style, layout names unbroken."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from records.leaderboards import daily_code, today
from rooms import sweeper
from rooms.lobby import actions as lobby
from rooms.race import actions as races
from rooms.race import end as race_end
from rooms.ranked import actions as ranked
from tests.arenas.arena_helpers import new_arena
from tests.browser.browser_helpers import DESKTOP, PHONE, open_game, page_for, server_side
from tests.browser.test_board_phone import toolbar_rows
from tests.browser.test_race_screens import luminance, rgba
from tests.browser.test_site_map import wide_data
from tests.rooms.rooms_helpers import room_with

pytestmark = pytest.mark.usefixtures("fresh_check_counts", "fresh_deal_caches")

# Each table box: its last column inside the box, or the box scrolls and fades at its end
# (and scrolled to its end, the last column shows and the fade has gone).
TABLES = """async () => {
    const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50)));
    await frame();  // as drawn: the boxes' marks follow their sizes at the next frame
    const out = [];
    for (const box of document.querySelectorAll(".table-scroll")) {
        if (!box.checkVisibility()) continue;
        const table = box.querySelector("table");
        const last = table.querySelector("tr:first-child > :last-child:not([hidden])")
            || [...table.querySelectorAll("tr:first-child > :not([hidden])")].pop();
        const name = table.id || table.className || "table";
        const right = (el) => el.getBoundingClientRect().right;
        const inside = (el) => right(el) <= right(box) + 1;
        if (inside(last)) continue;
        const mask = getComputedStyle(box).maskImage || getComputedStyle(box).webkitMaskImage;
        if (!(box.dataset.more || "").includes("end") || mask === "none") {
            out.push(`${name}: last column cut, no cue`);
            continue;
        }
        box.scrollLeft = box.scrollWidth;
        await frame();
        if (!inside(last)) out.push(`${name}: last column out of reach`);
        if ((box.dataset.more || "").includes("end")) out.push(`${name}: still fades at its end`);
    }
    return out;
}"""


def ranked_results_room() -> tuple[str, Player]:
    players = [Player.objects.create() for _ in range(2)]
    for player, name in zip(players, ("Ana", "Bartholomew-Featherstone"), strict=True):
        ranked.join_queue(player, "beginner", name)
    (code,) = ranked.form_groups("beginner")
    race_end.end_race_by_staff(code)
    return code, players[1]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_on_a_phone_every_table_shows_its_last_column_or_fades_where_it_scrolls(
    asgi_server, new_device, settings, lang
):
    settings.DEBUG = True  # /style/
    settings.RACE_COUNTDOWN_SECONDS = 0
    settings.RANKED_WAIT_SECONDS = 0
    data = server_side(wide_data)
    code, bo = server_side(ranked_results_room)
    page = page_for(new_device, asgi_server, data["player"], PHONE, lang)
    cut = {}
    for path in (
        "/records/",
        "/me/",
        f"/players/{data['player'].pk}/",
        "/leaderboards/",
        "/style/",
    ):
        page.goto(f"{asgi_server.url}{path}")
        page.wait_for_load_state("networkidle")
        if found := page.evaluate(TABLES):
            cut[path] = found
    page = page_for(new_device, asgi_server, bo, PHONE, lang)
    page.goto(f"{asgi_server.url}/rooms/{code}/")
    expect(page.locator("#rating-head")).to_be_visible()
    expect(page.locator("#results-rows tr")).to_have_count(2)
    if found := page.evaluate(TABLES):
        cut["ranked results"] = found
    assert cut == {}


# A finger's rows: a checkbox's or radio's label, a <summary>, a link that is a list's
# item or a card's action (not a link inside a sentence), a link in a table's cell.
SMALL_ROWS = """() => [...document.querySelectorAll(
        "label:has(> input[type=checkbox]), label:has(> input[type=radio]), summary, "
        + "li > a:first-child, .panel-link > a, .ed-links > a, td a")]
    .filter((el) => el.checkVisibility() && !el.closest(".site-header, .board"))
    .map((el) => [el.textContent.trim().slice(0, 24), el.getBoundingClientRect().height])
    .filter(([, height]) => height < 44)
    .map(([name, height]) => `${name}: ${Math.round(height)} px`)"""


def test_on_a_phone_every_checkbox_label_summary_and_listed_link_is_a_44_px_row(
    asgi_server, new_device, settings
):
    data = server_side(wide_data)
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    arena = server_side(new_arena, name="Evening sprint", public=True)
    page = page_for(new_device, asgi_server, data["player"], PHONE)
    small = {}
    paths = [
        "/",
        "/rooms/",
        "/play/daily/",
        "/layouts/edit/",
        "/leaderboards/",
        "/records/",
        "/arenas/",
        f"/arenas/{arena.code}/",
        "/replays/race/1/",
    ]
    paths[-1] = next(p for p in data["paths"] if p.startswith("/replays/race/"))
    for path in paths:
        page.goto(f"{asgi_server.url}{path}")
        page.wait_for_load_state("networkidle")
        if found := page.evaluate(SMALL_ROWS):
            small[path] = found
    owner = page_for(new_device, asgi_server, ana, PHONE)
    owner.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(owner.locator("#owner-tools")).to_be_visible()
    owner.locator("#layout-rule summary").click()
    if found := owner.evaluate(SMALL_ROWS):
        small["room lobby"] = found
    assert small == {}


# Every text of an SVG chart as drawn: its font size times the picture's scale; and the
# HTML numbers over a chart's corners.
CHART_TEXT = """() => {
    const sizes = [];
    for (const svg of document.querySelectorAll("svg.chart, .chart svg")) {
        if (!svg.checkVisibility()) continue;
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        for (const text of svg.querySelectorAll("text")) {
            sizes.push([text.textContent, parseFloat(getComputedStyle(text).fontSize) * scale]);
        }
    }
    for (const label of document.querySelectorAll(".line-chart :is(.chart-high, .chart-low)")) {
        sizes.push([label.textContent, parseFloat(getComputedStyle(label).fontSize)]);
    }
    return sizes;
}"""


def test_on_a_phone_the_charts_axis_numbers_read_at_11_px_or_more(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 0
    settings.RANKED_WAIT_SECONDS = 0
    data = server_side(wide_data)
    code, bo = server_side(ranked_results_room)
    page = page_for(new_device, asgi_server, bo, PHONE)
    page.goto(f"{asgi_server.url}/players/{bo.pk}/")
    rating = page.evaluate(CHART_TEXT)
    assert len(rating) == 2  # the rating chart's highest and lowest
    page.goto(f"{asgi_server.url}/rooms/{code}/")
    expect(page.locator("#progress-chart text").first).to_be_attached()
    progress = page.evaluate(CHART_TEXT)
    assert data and [size for size in rating + progress if size[1] < 11] == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_on_a_phone_every_page_keeps_the_same_side_margin_for_its_words(
    asgi_server, new_device, settings, lang
):
    settings.RACE_COUNTDOWN_SECONDS = 0
    data = server_side(wide_data)
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    page = page_for(new_device, asgi_server, ana, PHONE, lang)
    lefts = {}
    replays = [p for p in data["paths"] if p.startswith("/replays/")]
    for path in ["/", "/rooms/", "/learn/", "/layouts/edit/", *replays]:
        page.goto(f"{asgi_server.url}{path}")
        page.wait_for_load_state("networkidle")
        lefts[path] = round(page.locator("main h1").first.bounding_box()["x"])
        if path == "/layouts/edit/":  # and the editor's tools end at the right-hand gutter
            tools = page.locator(".ed-tools > *").evaluate_all(
                "(groups) => Math.max(...groups.map((g) => g.getBoundingClientRect().right))"
            )
            assert tools <= PHONE["width"] - 16 + 0.5, f"the editor's tools end at {tools} px"
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    lefts["room"] = round(page.locator("main h1").first.bounding_box()["x"])
    server_side(races.start_race, ana, room.code, seed=3)
    expect(page.locator(".tile[data-face]").first).to_be_visible()
    lefts["race toolbar"] = round(page.locator("#play-area .toolbar").bounding_box()["x"])
    page.goto(f"{asgi_server.url}/play/")
    expect(page.locator(".tile").first).to_be_attached()
    lefts["practice toolbar"] = round(page.locator(".toolbar").bounding_box()["x"])
    assert set(lefts.values()) == {16}, lefts


def test_on_a_phone_the_race_toolbar_is_one_row_of_captioned_icons_and_the_leaders_stay_whole(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 0
    room, (ana, bo, cy) = server_side(room_with, "Ana", "Bo", "Cyrielle-Longname")
    race = server_side(races.start_race, ana, room.code, seed=3)
    for lang, words in (
        ("en", ["Hint", "Give up", "Numbers"]),
        ("es", ["Pista", "Abandonar", "Números"]),
    ):
        page = page_for(new_device, asgi_server, ana, PHONE, lang)
        page.goto(f"{asgi_server.url}/rooms/{room.code}/")
        expect(page.locator(".tile[data-face]").first).to_be_visible()
        if lang == "en":  # Bo and Cyrielle away: stand-ins named on the strip
            later = race.go_at + timedelta(seconds=31)
            for player in (ana,):
                seat = server_side(lambda p=player: room.seats.get(player=p).pk)
                server_side(lobby.seat_seen, seat, now=later)
            server_side(sweeper.sweep, now=later)
            expect(page.locator("#leaders")).to_contain_text("CPU standing in")
        assert toolbar_rows(page) == 1
        for word in words:
            button = page.get_by_role("button", name=re.compile(f"^{word}"))
            expect(button).to_be_visible()  # the accessible name is the word
            caption = button.locator(".label")
            expect(caption).to_be_visible()  # and the word shows, under the icon
            shown = caption.bounding_box()
            assert shown["height"] >= 11 and shown["width"] >= 2 * len(word)  # not clipped away
            assert caption.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)") >= 11
        box = page.locator("#race-page, .race-page").first.bounding_box()
        assert box["width"] <= PHONE["width"]
        lines = page.locator("#leaders li").evaluate_all(
            """(items) => items.map((li) => li.getBoundingClientRect().height
                  / parseFloat(getComputedStyle(li).lineHeight || 20))"""
        )
        assert lines and max(lines) < 1.5, "a player's entry wraps inside itself"


def toolbar_right(page) -> float:
    """Where the toolbar's last shown part ends."""
    return page.locator(".toolbar").evaluate(
        """(bar) => Math.max(...[...bar.children].filter((el) => el.checkVisibility())
        .map((el) => el.getBoundingClientRect().right))"""
    )


def test_on_a_phone_the_practice_toolbar_is_one_row_online_offline_and_paused(
    asgi_server, new_device
):
    from tests.browser.browser_helpers import tile
    from tests.browser.test_offline_browser import controlled, plan_of

    for lang in ("en", "es"):
        page = page_for(new_device, asgi_server, server_side(Player.objects.create), PHONE, lang)
        code = daily_code(today())
        open_game(asgi_server, page, code)
        assert toolbar_rows(page) == 1
        controlled(page)
        page.context.set_offline(True)
        for index in plan_of(code)[0]:
            tile(page, code, index).click()
        expect(page.locator("#connection")).to_be_visible()
        assert toolbar_rows(page) == 1
        # Within the gutters, each caption whole inside its button.
        assert toolbar_right(page) <= PHONE["width"] - 16 + 0.5
        clipped = page.locator(".toolbar .tool-captioned").evaluate_all(
            """(buttons) => buttons.filter((b) => b.scrollWidth > b.clientWidth + 1)
                .map((b) => b.textContent.trim())"""
        )
        assert clipped == []
        page.context.set_offline(False)
        # Paused: the on/off button keeps its word (a Spanish "Continuar" once pushed the
        # row 15 px past the right-hand gutter).
        page.get_by_role("button", name=re.compile("^(Pause|Pausa)$")).click()
        expect(page.locator("#pause")).to_have_attribute("aria-pressed", "true")
        assert toolbar_rows(page) == 1
        assert toolbar_right(page) <= PHONE["width"] - 16 + 0.5, lang


def test_the_paused_cover_reads_at_4_5_to_1_over_the_lightest_board(asgi_server, new_device):
    page = page_for(new_device, asgi_server, server_side(Player.objects.create), DESKTOP)
    open_game(asgi_server, page, daily_code(today()))
    page.get_by_role("button", name="Pause").click()
    cover = page.locator("#paused-cover")
    expect(cover).to_be_visible()
    color, background = cover.evaluate(
        "el => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]"
    )
    *rgb, alpha = rgba(background)
    behind = [alpha * c + (1 - alpha) * 255 for c in rgb]  # over white, lighter than any board
    lighter, darker = sorted((luminance(rgba(color)[:3]), luminance(behind)), reverse=True)
    assert (lighter + 0.05) / (darker + 0.05) >= 4.5


def test_the_lobbys_start_and_queue_again_are_the_strongest_buttons_on_screen(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 0
    settings.RANKED_WAIT_SECONDS = 0
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    code, player = server_side(ranked_results_room)
    looks = {}
    page = page_for(new_device, asgi_server, ana)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    looks["start"] = page.locator("#start")
    looks["add a CPU"] = page.locator("#add-cpu")
    style = """(el) => { const s = getComputedStyle(el);
        return [s.backgroundColor, parseInt(s.fontWeight), s.color]; }"""
    start, add = looks["start"].evaluate(style), looks["add a CPU"].evaluate(style)
    felt = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--felt')")
    assert start[1] >= add[1] >= 600
    assert start[0] != add[0] and felt.strip()
    ranked_page = page_for(new_device, asgi_server, player)
    ranked_page.goto(f"{asgi_server.url}/rooms/{code}/")
    again = ranked_page.get_by_role("button", name="Queue again").evaluate(style)
    replay = ranked_page.locator("#replay-link").evaluate(style)
    assert again[0] == start[0] and again[1] >= replay[1]


def test_every_tables_headings_share_one_style(asgi_server, new_device, settings):
    settings.RACE_COUNTDOWN_SECONDS = 0
    settings.RANKED_WAIT_SECONDS = 0
    data = server_side(wide_data)
    code, bo = server_side(ranked_results_room)
    style = """(ths) => ths.filter((th) => th.checkVisibility()).map((th) => {
        const s = getComputedStyle(th);
        return [s.textTransform, s.fontSize, s.fontWeight, s.letterSpacing].join(" "); })"""
    page = page_for(new_device, asgi_server, data["player"])
    seen = set()
    for path in ("/records/", "/leaderboards/", f"/players/{data['player'].pk}/"):
        page.goto(f"{asgi_server.url}{path}")
        seen |= set(page.locator("thead th").evaluate_all(style))
    page = page_for(new_device, asgi_server, bo)
    page.goto(f"{asgi_server.url}/rooms/{code}/")
    expect(page.locator("#results-rows tr")).to_have_count(2)
    seen |= set(page.locator("thead th").evaluate_all(style))
    assert len(seen) == 1, seen
    assert next(iter(seen)).startswith("none ")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_no_layout_name_breaks_inside_a_word(asgi_server, new_device, size):
    page = page_for(new_device, asgi_server, None, DESKTOP if size == "desktop" else PHONE)
    page.goto(f"{asgi_server.url}/layouts/")
    broken = page.locator(".pick .choice-label").evaluate_all(
        """(labels) => labels.filter((label) => {
            const words = label.textContent.trim().split(/\\s+/).length;
            const range = document.createRange();
            range.selectNodeContents(label);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
            return lines > words;  // a line more than its words: one broke inside
        }).map((label) => label.textContent)"""
    )
    assert broken == []
    assert re.search("Checkerboard", page.locator(".picker-list").inner_text())


# Each line of the room's rules: the middle of every checkbox and select, rounded.
RULE_LINES = """() => {
    const lines = {};
    for (const control of document.querySelectorAll(
            "#rules > label > :is(select, input[type=checkbox])")) {
        const label = control.parentElement.getBoundingClientRect();
        const box = control.getBoundingClientRect();
        (lines[Math.round(label.top / 8)] ||= []).push(box.top + box.height / 2);
    }
    return Object.values(lines).filter((middles) => middles.length > 1)
        .map((middles) => Math.max(...middles) - Math.min(...middles));
}"""


def test_the_lobbys_rules_line_up_and_rooms_race_now_reads_as_one_column(asgi_server, new_device):
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    page = page_for(new_device, asgi_server, ana)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator("#rules select").first).to_be_visible()
    apart = page.evaluate(RULE_LINES)
    assert apart and max(apart) <= 2, f"checkboxes and selects of one line {apart} px apart"
    # /rooms/: Race now's words follow its title as the forms' first field follows theirs,
    # and Race now, the open rooms and the forms end at one right-hand edge.
    page.goto(f"{asgi_server.url}/rooms/")
    below = """(card) => card.querySelector("h2 + *").getBoundingClientRect().top
        - card.querySelector("h2").getBoundingClientRect().bottom"""
    race_now = page.locator("#race-now").evaluate(below)
    create = page.locator(".cards > .card").first.evaluate(below)
    assert abs(race_now - create) <= 1, (race_now, create)
    parts = [page.locator("#race-now"), page.locator("#open-rooms"), page.locator(".card").last]
    rights = {round(part.bounding_box()["x"] + part.bounding_box()["width"]) for part in parts}
    assert len(rights) == 1, rights


def test_the_status_pages_parts_have_one_marker_each(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None, PHONE, "es")
    page.goto(f"{asgi_server.url}/status/")
    expect(page.locator("#parts li").first).to_be_visible()
    markers = page.locator("#parts li").evaluate_all(
        "(items) => items.map((li) => getComputedStyle(li).listStyleType)"
    )
    assert set(markers) == {"none"}  # the coloured dot alone, no bullet beside it


# The form's fields narrower than its inside: a bare browser-width box on a phone.
NARROW_FIELDS = """(form) => {
    const style = getComputedStyle(form);
    const inside = form.clientWidth - parseFloat(style.paddingLeft)
        - parseFloat(style.paddingRight);
    return [...form.querySelectorAll("input:not([type=hidden]):not([type=checkbox])")]
        .filter((field) => field.getBoundingClientRect().width < inside - 1)
        .map((field) => field.name);
}"""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_account_forms_are_cards_whose_fields_take_their_width(asgi_server, new_device, lang):
    page = page_for(new_device, asgi_server, None, PHONE, lang)
    card = None
    for path in ("/accounts/login/", "/accounts/signup/", "/accounts/password-reset/"):
        page.goto(f"{asgi_server.url}{path}")
        form = page.locator("main form.form")
        assert form.evaluate(NARROW_FIELDS) == [], path
        looks = form.evaluate("(el) => getComputedStyle(el).backgroundColor")
        assert card in (None, looks) and looks != "rgba(0, 0, 0, 0)", path  # one card
        card = looks
    # Sign-up's password rules read as the help they are, like the other fields' help.
    page.goto(f"{asgi_server.url}/accounts/signup/")
    sizes = page.evaluate(
        """() => [...document.querySelectorAll("main form :is(ul:not(.errorlist), .helptext)")]
            .map((el) => getComputedStyle(el).fontSize + " " + getComputedStyle(el).color)"""
    )
    assert len(sizes) > 1 and len(set(sizes)) == 1, sizes


# A line of an open room's words that begins with its separator: a span drawn with a "·"
# before it, starting at its paragraph's left edge.
DOT_FIRST = """() => [...document.querySelectorAll(".open-meta > span")].filter((span) => {
        const dot = getComputedStyle(span, "::before").content.includes("·");
        const left = span.getClientRects()[0].left;
        return dot && Math.abs(left - span.parentElement.getBoundingClientRect().left) < 1;
    }).map((span) => span.textContent)"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_no_line_of_an_open_room_begins_with_its_separator(asgi_server, new_device, size):
    data = server_side(wide_data)  # the room of Ana-de-los-Santos-Barrio, listed
    viewport = DESKTOP if size == "desktop" else PHONE
    page = page_for(new_device, asgi_server, data["player"], viewport)
    for path in ("/", "/rooms/"):
        page.goto(f"{asgi_server.url}{path}")
        expect(page.locator(".open-meta").first).to_be_visible()
        assert page.evaluate(DOT_FIRST) == [], path


# Each leader whose percent went to a line of its own: the last word's line and the
# percent's differ.
PERCENT_ALONE = """() => [...document.querySelectorAll("#leaders li")].filter((li) => {
        const text = li.firstChild;
        const cut = Math.max(text.data.lastIndexOf(" "), text.data.lastIndexOf("\\u00a0"));
        const top = (start, end) => {
            const range = document.createRange();
            range.setStart(text, start);
            range.setEnd(text, end);
            return Math.round(range.getClientRects()[0].top);
        };
        return top(cut - 1, cut) !== top(cut + 1, text.data.length);
    }).map((li) => li.textContent)"""


def test_beside_a_desktops_board_a_leaders_percent_stays_with_their_name(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 0
    room, (ana, bo) = server_side(room_with, "Ana", "Bo", cpus=["steady"])
    server_side(races.start_race, ana, room.code, seed=4)
    page = page_for(new_device, asgi_server, ana, DESKTOP, "es")
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator("#leaders li")).to_have_count(3)
    expect(page.locator("#leaders")).to_contain_text("CPU 1 (Constante)")
    assert page.evaluate(PERCENT_ALONE) == []


def test_a_stored_layouts_card_keeps_one_rhythm_and_shows_its_link(asgi_server, new_device):
    data = server_side(wide_data)
    path = next(p for p in data["paths"] if re.fullmatch(r"/layouts/\d+/", p))
    page = page_for(new_device, asgi_server, None, DESKTOP)
    page.goto(f"{asgi_server.url}{path}")
    field = page.locator("#share-link").bounding_box()
    copy = page.locator(".code-row .button").bounding_box()
    assert abs(field["height"] - copy["height"]) <= 1, (field, copy)  # one row, one height
    count = page.locator(".layout-share > p.muted:not(.copied)").bounding_box()
    actions = page.locator(".layout-actions").bounding_box()
    assert actions["y"] - (count["y"] + count["height"]) <= 16  # no band between them
    page = page_for(new_device, asgi_server, None, PHONE)
    page.goto(f"{asgi_server.url}{path}")
    field = page.locator("#share-link")
    assert field.evaluate("(el) => el.scrollWidth <= el.clientWidth")  # the whole link shows


def test_a_finished_arenas_podium_and_table_share_one_column_on_a_desktop(asgi_server, new_device):
    from tests.browser.test_arena_screens import arenas_with_results

    _arena, ana, over = server_side(arenas_with_results)
    page = page_for(new_device, asgi_server, ana, DESKTOP)
    page.goto(f"{asgi_server.url}/arenas/{over.code}/")
    expect(page.locator("#podium-list li")).to_have_count(2)
    table = page.locator(".arena-table table").bounding_box()
    podium = page.locator("#podium-list").bounding_box()
    assert table["width"] <= 48 * 16, table  # not a desktop's whole width
    apart = (podium["x"] + podium["width"] / 2) - (table["x"] + table["width"] / 2)
    assert abs(apart) <= 2, (podium, table)  # the podium stands over it


@pytest.mark.parametrize("lang", ["en", "es"])
def test_on_a_phone_the_tutorials_toolbar_is_one_row_of_captioned_tools(
    asgi_server, new_device, lang
):
    page = page_for(new_device, asgi_server, None, PHONE, lang)
    page.goto(f"{asgi_server.url}/learn/")
    expect(page.locator(".tile").first).to_be_visible()
    assert toolbar_rows(page) == 1  # it took two rows before
    assert toolbar_right(page) <= PHONE["width"] - 16 + 0.5
    skip = {"en": "Skip the tutorial", "es": "Saltar el tutorial"}[lang]
    expect(page.get_by_role("button", name=skip)).to_be_visible()  # its name is its words
