"""The two tile sets and the board backgrounds in Chromium (docs/TILES.md): the choice in
Settings switches the faces on every page that shows tiles and survives a reload; every
face of the Clear set, drawn at 24 px, differs from every other one for a normal eye, in
grey levels alone (what high contrast and a dim screen leave), and as Chromium shows it to
someone with deuteranopia or protanopia (DevTools' Emulation.setEmulatedVisionDeficiency)."""

import base64
import itertools

import pytest
from playwright.sync_api import expect

from mahjong.engine.catalog import CATALOG
from mahjong.engine.codes import make_code
from mahjong.engine.tiles import FACES
from rooms.models import Entry
from rooms.race import actions as races
from tests.browser.browser_helpers import DESKTOP, PHONE, page_for, server_side, shoot
from tests.browser.test_solo_flow import BEGINNER_CODE
from tests.replays.test_replays import a_finished_race
from tests.rooms.rooms_helpers import room_with

TURTLE = make_code(next(entry.number for entry in CATALOG if entry.name == "turtle"), 11)

# --- rasterising the faces ------------------------------------------------------------
TILE_W, TILE_H, GAP = 24, 32, 4  # a tile of the turtle on a 390 px phone
PER_ROW = 9
# Two faces read as different when at least MIN_PIXELS of their 24 x 32 pixels differ by
# at least MIN_STEP levels of 255. 64 is a quarter of the range: a step an eye sees at
# once (an ink stroke on the ivory face differs by 150 or more; anti-aliased edges of the
# same stroke, drawn at the same place, differ by 0). 12 pixels is a stroke 2 px wide and
# 6 px long, the least a digit changes between two numbers (3 and 8 share their right
# half). The Clear set's closest pairs clear it several times over (the assertion says
# by how much when it fails).
MIN_STEP, MIN_PIXELS = 64, 12

# The site's CSP forbids a <style> element: the sheet is adopted through the CSSOM.
GRID_CSS = """
  body { margin: 0; background: #fff; }
  #grid { display: grid; grid-template-columns: repeat(%(per_row)d, %(w)dpx); gap: %(gap)dpx;
          padding: %(gap)dpx; width: max-content; }
  .t { position: relative; width: %(w)dpx; height: %(h)dpx; background: #fbf7ea; }
  .t svg { position: absolute; inset: 4%%; width: 92%%; height: 92%%; }
"""

DECODE = """async (png) => {
  const img = new Image();
  img.src = "data:image/png;base64," + png;
  await img.decode();
  const canvas = document.createElement("canvas");
  [canvas.width, canvas.height] = [img.naturalWidth, img.naturalHeight];
  const ctx = canvas.getContext("2d");
  ctx.drawImage(img, 0, 0);
  const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
  let text = "";
  for (let i = 0; i < data.length; i += 8192) {
    text += String.fromCharCode(...data.subarray(i, i + 8192));
  }
  return [canvas.width, btoa(text)];
}"""


def face_rasters(page, sprite_url: str, deficiency: str = "none") -> dict:
    """{face: [(r, g, b) for each pixel]} of every face at 24 px, as Chromium paints it for
    an eye with `deficiency`."""
    tiles = "".join(
        f'<div class="t"><svg viewBox="0 0 60 80"><use href="{sprite_url}#tile-{face}"/>'
        "</svg></div>"
        for face in FACES
    )
    css = GRID_CSS % {"per_row": PER_ROW, "w": TILE_W, "h": TILE_H, "gap": GAP}
    page.evaluate(
        """([css, tiles]) => {
            const sheet = new CSSStyleSheet();
            sheet.replaceSync(css);
            document.adoptedStyleSheets = [sheet];
            document.body.innerHTML = `<div id="grid">${tiles}</div>`;
        }""",
        [css, tiles],
    )
    page.evaluate(
        """(url) => fetch(url).then(() => document.fonts.ready)""", sprite_url
    )  # the sprite is in the cache
    page.wait_for_function(
        "() => [...document.querySelectorAll('#grid use')].every((u) => u.getBBox().width > 0)"
    )
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": deficiency})
    box = page.locator("#grid").bounding_box()
    png = page.screenshot(clip=box)
    cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": "none"})
    width, data = page.evaluate(DECODE, base64.b64encode(png).decode())
    data = base64.b64decode(data)
    rasters = {}
    for n, face in enumerate(FACES):
        left = GAP + (n % PER_ROW) * (TILE_W + GAP)
        top = GAP + (n // PER_ROW) * (TILE_H + GAP)
        pixels = []
        for y in range(top, top + TILE_H):
            row = (y * width + left) * 4
            pixels += [tuple(data[i : i + 3]) for i in range(row, row + TILE_W * 4, 4)]
        rasters[face] = pixels
    return rasters


def grey(pixel) -> float:
    r, g, b = pixel
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def pixels_apart(a, b, measure) -> int:
    return sum(1 for p, q in zip(a, b, strict=True) if measure(p, q) >= MIN_STEP)


def colour_step(p, q) -> float:
    return max(abs(x - y) for x, y in zip(p, q, strict=True))


def grey_step(p, q) -> float:
    return abs(grey(p) - grey(q))


def closest_pairs(rasters, measure, count=3):
    apart = sorted(
        (pixels_apart(rasters[a], rasters[b], measure), a, b)
        for a, b in itertools.combinations(FACES, 2)
    )
    return apart[:count]


def sprite_urls(page) -> dict:
    return page.evaluate(
        "() => ({classic: document.querySelector('meta[name=mj-sprite-classic]').content,"
        " clear: document.querySelector('meta[name=mj-sprite-clear]').content})"
    )


@pytest.mark.parametrize("deficiency", ["none", "deuteranopia", "protanopia"])
def test_no_two_clear_faces_look_alike_at_24_px(asgi_server, new_device, deficiency):
    page = new_device(viewport=DESKTOP, device_scale_factor=1)
    page.goto(f"{asgi_server.url}/rules/")
    rasters = face_rasters(page, sprite_urls(page)["clear"], deficiency)
    blank = [(251, 247, 234)] * (TILE_W * TILE_H)
    drawn = {face: pixels_apart(pixels, blank, colour_step) for face, pixels in rasters.items()}
    assert min(drawn.values()) > 60, drawn  # every face is there and drawn
    closest = closest_pairs(rasters, colour_step)
    print(f"{deficiency}: closest in colour {closest}")  # shown with pytest -s
    assert closest[0][0] >= MIN_PIXELS, (
        f"{deficiency}: faces too alike (pixels apart, a, b): {closest}"
    )
    closest_grey = closest_pairs(rasters, grey_step)
    print(f"{deficiency}: closest in grey levels {closest_grey}")
    assert closest_grey[0][0] >= MIN_PIXELS, (
        f"{deficiency}, grey levels: faces too alike (pixels apart, a, b): {closest_grey}"
    )


def test_the_simulated_deficiencies_change_what_chromium_paints(asgi_server, new_device):
    """The emulation really reaches the screenshots the test above compares: red and green
    come out nearer each other under deuteranopia than for a normal eye."""
    page = new_device(viewport=DESKTOP, device_scale_factor=1)
    page.goto(f"{asgi_server.url}/rules/")
    clear = sprite_urls(page)["clear"]
    normal = face_rasters(page, clear)
    deutan = face_rasters(page, clear, "deuteranopia")
    # 5C (red) against 5B (green): the index digit is the same shape, only its colour differs
    digit = slice(0, TILE_W * TILE_H // 2)
    normal_gap = pixels_apart(normal["5C"][digit], normal["5B"][digit], colour_step)
    deutan_gap = pixels_apart(deutan["5C"][digit], deutan["5B"][digit], colour_step)
    assert deutan_gap < normal_gap / 2, (normal_gap, deutan_gap)


# --- the setting ------------------------------------------------------------------------


def choose(page, group: str, name: str) -> None:
    page.get_by_role("button", name="Settings").click()
    page.get_by_role("group", name=group).get_by_role("radio", name=name).check()
    page.keyboard.press("Escape")
    expect(page.locator("#settings")).to_be_hidden()


def faces_drawn_from(page, selector: str) -> set:
    """Which sprite the faces under `selector` are drawn from: {"classic"} or {"clear"}."""
    urls = sprite_urls(page)
    scoped = ", ".join(f"{part} use[href*='#tile-']" for part in selector.split(", "))
    hrefs = page.eval_on_selector_all(scoped, "(uses) => uses.map((u) => u.getAttribute('href'))")
    assert hrefs, f"no faces under {selector}"
    names = {url: name for name, url in urls.items()}
    return {names.get(href.split("#")[0], href) for href in hrefs}


def a_race_past_go():
    room, players = room_with("Ana", "Bo")
    races.start_race(players[0], room.code, seed=7)
    return room, players


def test_the_clear_set_and_a_background_apply_on_every_board_and_survive_a_reload(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 0  # "go" at once
    room, players = server_side(a_race_past_go)
    race = server_side(a_finished_race)
    page = page_for(new_device, asgi_server, players[0], DESKTOP)
    page.set_default_timeout(30_000)  # twelve page loads, the turtle-sized ones on a busy CI
    boards = {  # page -> the tiles to look at
        f"/play/{BEGINNER_CODE}/": ".board",
        f"/rooms/{room.code}/": ".board",
        f"/replays/race/{race.pk}/": ".boards, .focus-area",
        "/learn/": ".board",
        "/": "#board-preview",
    }
    entry = Entry.objects.get(race__room=room, seat__player=players[0])

    def open_board(path):
        page.goto(f"{asgi_server.url}{path}")
        if path.startswith("/rooms/"):
            expect(page.locator(".tile[data-face]")).to_have_count(entry.tile_count)
        elif path != "/":
            expect(page.locator(f"{boards[path].split(',')[0]} .tile").first).to_be_visible()

    open_board(f"/play/{BEGINNER_CODE}/")
    assert faces_drawn_from(page, ".board") == {"classic"}
    plain = page.locator(".board-wrap").evaluate("(el) => getComputedStyle(el).backgroundImage")
    assert plain == "none"
    # Chosen while a game is open: the faces on the board change at once.
    choose(page, "Tiles", "Clear (for small tiles)")
    assert faces_drawn_from(page, ".board") == {"clear"}
    choose(page, "Board", "Wood")
    wood = page.locator(".board-wrap").evaluate("(el) => getComputedStyle(el).backgroundImage")
    assert "gradient" in wood
    for path, selector in boards.items():
        open_board(path)
        assert faces_drawn_from(page, selector) == {"clear"}, path
        page.reload()
        open_board(path)
        assert faces_drawn_from(page, selector) == {"clear"}, f"{path} after a reload"
        if path != "/":
            wrap = ".replay-board" if "replays" in path else ".board-wrap"
            background = page.locator(wrap).first.evaluate(
                "(el) => getComputedStyle(el).backgroundImage"
            )
            assert background == wood, path
    shoot(page, "tiles-clear-home")
    # And back: the classic faces again, the plain board.
    open_board("/learn/")
    choose(page, "Tiles", "Classic")
    choose(page, "Board", "Plain")
    assert faces_drawn_from(page, ".board") == {"classic"}
    page.reload()
    open_board("/learn/")
    assert faces_drawn_from(page, ".board") == {"classic"}
    assert (
        page.locator(".board-wrap").evaluate("(el) => getComputedStyle(el).backgroundImage")
        == "none"
    )


def test_the_keyboard_reaches_and_works_the_tile_set_and_the_background(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None)
    page.goto(f"{asgi_server.url}/learn/")
    html = page.locator("html")
    page.get_by_role("button", name="Settings").focus()
    page.keyboard.press("Enter")
    page.get_by_role("checkbox", name="High-contrast tiles").focus()
    page.keyboard.press("Tab")  # into the tile sets: Classic is checked
    expect(page.get_by_role("radio", name="Classic")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(html).to_have_attribute("data-tiles", "clear")
    assert faces_drawn_from(page, ".board") == {"clear"}
    page.keyboard.press("Tab")  # into the backgrounds: Plain is checked
    expect(page.get_by_role("radio", name="Plain")).to_be_focused()
    page.keyboard.press("ArrowUp")  # round to the last one
    expect(html).to_have_attribute("data-board", "wood")
    page.keyboard.press("Escape")
    expect(page.locator("#settings")).to_be_hidden()


def test_the_settings_show_the_tile_set_and_background_in_spanish(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None, PHONE, lang="es")
    page.goto(f"{asgi_server.url}/learn/")
    page.get_by_role("button", name="Menú").click()
    page.locator("#settings-button").click()
    settings = page.locator("#settings")
    expect(settings.get_by_role("group", name="Fichas")).to_be_visible()
    expect(settings.get_by_role("radio", name="Clásicas")).to_be_checked()
    settings.get_by_role("radio", name="Claras (para fichas pequeñas)").check()
    expect(settings.get_by_role("group", name="Tablero")).to_be_visible()
    settings.get_by_role("radio", name="Madera").check()
    shoot(page, "tiles-settings-es-phone")
    page.keyboard.press("Escape")
    assert faces_drawn_from(page, ".board") == {"clear"}
