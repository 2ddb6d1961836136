"""The layout editor (/layouts/edit/): its page and the three things it asks the server.

The page does the drawing (layouts/static/layouts/editor.js); the server is the referee
of what a layout is. Test, Export and Save each post the same JSON,
`{"positions": [[x, y, z], ...], "name": "..."}` in half-tile units
(mahjong/engine/layout.py), which `_layout_from_body` checks in full before the engine
sees it: a refused request changes nothing and says why (docs/LAYOUTS.md §The editor).
Only Save writes, through the app's one write path `layouts.actions.store_layout`.
"""

import functools
import json
import re
import time
import unicodedata

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from accounts.identity import ensure_player
from layouts import actions, throttle
from layouts.library import builtin_title
from layouts.models import TITLE_MAX_LENGTH, StoredLayout
from mahjong.engine.catalog import BY_NAME, layout_by_number
from mahjong.engine.deal import NoSolvableDeal, new_deal
from mahjong.engine.layout import (
    Layout,
    LayoutError,
    layout_from_positions,
    layout_to_text,
    parse_layout,
)

# The editor's grid, in half-tile cells: a tile's top-left corner goes at x 0..COLS-2,
# y 0..ROWS-2, on layers 0..LAYERS-1. KMahjongg's classic 32x16x5 board fits with room.
COLS, ROWS, LAYERS = 40, 24, 8
MAX_TILES = actions.MAX_TILES  # what the store takes (two whole tile sets)
MAX_BODY_BYTES = 16 * 1024  # 288 tiles written loosely are ~5 KB


class Refused(ValueError):
    """A request the editor refuses; the message is for the player."""


def editor_page(request, layout_id=None, name=None):
    """The editor, empty or holding a copy of a layout's tiles to start from: a stored
    layout's (by id, not hidden) or a built-in one's (by catalog name)."""
    positions, title = [], ""
    if layout_id is not None:
        stored = get_object_or_404(StoredLayout, pk=layout_id, hidden=False)
        positions = _fitting(_stored_positions(stored))
        title = stored.title(request.LANGUAGE_CODE) if positions else ""
    elif name is not None:
        if name not in BY_NAME:
            raise Http404(name)
        positions = _fitting(layout_by_number(BY_NAME[name].number).positions)
        title = builtin_title(BY_NAME[name], request.LANGUAGE_CODE) if positions else ""
    context = {
        "start": {
            "positions": positions,
            "name": title,
            "grid": {"cols": COLS, "rows": ROWS, "layers": LAYERS, "max_tiles": MAX_TILES},
        },
        "strings": page_strings(),
        "name_max": TITLE_MAX_LENGTH,
        "from_layout": (layout_id is not None or name is not None) and not positions,
    }
    return render(request, "layouts/editor.html", context)


def _stored_positions(stored: StoredLayout):
    try:
        return parse_layout(stored.text).positions
    except LayoutError:  # stored by an older, stricter reader than today's: none
        return ()


def _fitting(positions) -> list[list[int]]:
    """The tiles as the page takes them, or none when they do not fit the editor's grid."""
    if any(_out_of_grid(x, y, z) for x, y, z in positions):
        return []
    return [list(p) for p in positions]


def _out_of_grid(x: int, y: int, z: int) -> bool:
    return not (0 <= x <= COLS - 2 and 0 <= y <= ROWS - 2 and 0 <= z < LAYERS)


def page_strings() -> dict:
    """The words editor.js shows, translated here ({n} {x} {y} {z} are filled in there)."""
    return {
        "tiles_one": _("1 tile"),
        "tiles_many": _("{n} tiles"),
        "odd": _("odd: add or remove one"),
        "layer": _("Layer {z} of {layers}"),
        "placed": _("Placed a tile at column {x}, row {y}, layer {z}."),
        "removed": _("Removed the tile at column {x}, row {y}, layer {z}."),
        "overlap": _("A tile there would overlap another on layer {z}."),
        "nothing": _("No tile there to remove."),
        "too_many": _("A layout holds at most {n} tiles."),
        "cursor": _("Column {x}, row {y}, layer {z}"),
        "cursor_on": _("Column {x}, row {y}, layer {z}: a tile"),
        "undone": _("Undone."),
        "nothing_to_undo": _("Nothing to undo."),
        "cleared": _("Cleared every tile (Undo brings them back)."),
        "testing": _("Testing…"),
        "saving": _("Saving…"),
        "failed": _("The server did not answer. Try again."),
        "need_tiles": _("Place some tiles first."),
        "copied": _("Link copied"),
        "copy_failed": _("Select the link and copy it."),
    }


def _body(request) -> dict:
    # The declared length first: a body past Django's own cap (2.5 MB) would not even
    # be read, and would get a bare 400 instead of this sentence.
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > MAX_BODY_BYTES or len(request.body) > MAX_BODY_BYTES:
        raise Refused(
            _("The layout is too large to send (at most %(n)d KB).") % {"n": MAX_BODY_BYTES // 1024}
        )
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, RecursionError):
        raise Refused(_("The request is not valid JSON.")) from None
    if not isinstance(body, dict):
        raise Refused(_("The request must be a JSON object."))
    return body


def _positions(body: dict) -> list[tuple[int, int, int]]:
    """The body's tile positions, each three whole numbers on the grid, none twice."""
    raw = body.get("positions")
    if not isinstance(raw, list):
        raise Refused(_("The request has no list of tile positions."))
    if not raw:
        raise Refused(_("The layout has no tiles."))
    if len(raw) > MAX_TILES:
        raise Refused(_("A layout holds at most %(n)d tiles.") % {"n": MAX_TILES})
    positions = []
    for item in raw:
        if not (
            isinstance(item, list)
            and len(item) == 3
            and all(type(v) is int for v in item)  # not bool, not 1.5
        ):
            raise Refused(_("Each tile position must be three whole numbers [x, y, z]."))
        if _out_of_grid(*item):
            raise Refused(
                _("The tile at x=%(x)d y=%(y)d z=%(z)d is off the grid.")
                % dict(zip("xyz", item, strict=True))
            )
        positions.append(tuple(item))
    return positions


def _layout_from_body(body: dict) -> Layout:
    """The engine's layout of the posted tiles; Refused names the first fault."""
    positions = _positions(body)
    try:
        return layout_from_positions(positions, name="editor")
    except LayoutError as fault:
        raise Refused(_engine_fault(str(fault), len(positions))) from None


def _engine_fault(message: str, count: int) -> str:
    """The engine's reason (plain English, mahjong/engine/layout.py) in the page's words."""
    overlap = re.search(r"overlapping tiles at x=(\d+) y=(\d+) z=(\d+)", message)
    if overlap:
        x, y, z = overlap.groups()
        return _("The tile at x=%(x)s y=%(y)s z=%(z)s overlaps another on its layer.") % {
            "x": x,
            "y": y,
            "z": z,
        }
    if message.startswith("odd tile count"):
        return _odd(count)
    return message


def _odd(count: int) -> str:
    return ngettext(
        "%(n)d tile cannot all be paired: add or remove one.",
        "%(n)d tiles cannot all be paired: add or remove one.",
        count,
    ) % {"n": count}


def _name(body: dict) -> str:
    name = body.get("name", "")
    if not isinstance(name, str):
        raise Refused(_("The name must be text."))
    name = " ".join(name.split())
    if len(name) > TITLE_MAX_LENGTH:
        raise Refused(_("The name is longer than %(n)d characters.") % {"n": TITLE_MAX_LENGTH})
    return name


def editor_api(handler, limited: bool = False):
    """A POST the editor makes: the handler's answer, or 400 and why it was refused; a
    `limited` one (a test, a save: the engine deals) counts against the address's checks
    (layouts/throttle.py), 429 past them."""

    @require_POST
    def view(request):
        if limited and not throttle.may_check(request):
            message = _("You checked many layouts in a short time: try again in a few minutes.")
            return JsonResponse({"ok": False, "error": message}, status=429)
        try:
            return handler(request, _body(request))
        except Refused as refused:
            return JsonResponse({"ok": False, "error": str(refused)}, status=400)

    view.__name__ = handler.__name__
    view.__doc__ = handler.__doc__
    return view


@functools.partial(editor_api, limited=True)
def test_layout(request, body):
    """Can these tiles be stored and dealt solvable? The store's own checks
    (layouts.actions.read_layout_text) and one deal to show it; stores nothing."""
    layout = _layout_from_body(body)
    try:
        actions.read_layout_text(layout_to_text(layout))
    except actions.LayoutRejected as rejected:
        return _cannot_play(rejected.message)
    started = time.perf_counter()
    try:
        new_deal(layout)
    except NoSolvableDeal:  # the check above searched too, with another seed
        return _cannot_play(_("No deal on it can be cleared."))
    elapsed_ms = round((time.perf_counter() - started) * 1000)
    message = _("Playable: %(tiles)s, and a deal that can be cleared was found in %(time)s.") % {
        "tiles": ngettext("%(n)d tile", "%(n)d tiles", len(layout)) % {"n": len(layout)},
        "time": _dealing_time(elapsed_ms),
    }
    return JsonResponse({"ok": True, "tiles": len(layout), "ms": elapsed_ms, "message": message})


def _dealing_time(ms: int) -> str:
    if ms < 1:  # "0 ms" reads as if nothing was tried
        return _("under a millisecond")
    return ngettext("%(ms)d millisecond", "%(ms)d milliseconds", ms) % {"ms": ms}


def _cannot_play(message: str) -> JsonResponse:
    """Answered 200: the request was fine, the layout is what cannot be played."""
    return JsonResponse({"ok": False, "unplayable": True, "error": message})


@editor_api
def export_layout(request, body):
    """The tiles as a KMahjongg v1.1 file, to download."""
    layout = _layout_from_body(body)
    name = _name(body)
    comment = f"{name}\nmade in the Mahjong races layout editor" if name else ""
    text = layout_to_text(layout, comment=comment)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    filename = _file_name(name)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _file_name(name: str) -> str:
    """The layout's name as a plain file name: "Pirámide del Sol" -> piramide-del-sol.layout
    (accents dropped, not the letters that carry them)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    stem = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:40]
    return f"{stem or 'layout'}.layout"


@functools.partial(editor_api, limited=True)
def save_layout(request, body):
    """Stores the layout as this device's player's and answers its share and play links."""
    layout = _layout_from_body(body)
    name = _name(body)
    if not name:  # the name is what players see in the picker; "U7" says nothing
        try:  # a fault of the tiles is said first, as when a name is given
            actions.read_layout_text(layout_to_text(layout))
        except actions.LayoutRejected as rejected:
            raise Refused(rejected.message) from None
        raise Refused(_("Give the layout a name to save it."))
    if not throttle.may_store(request):
        return JsonResponse({"ok": False, "error": str(throttle.STORED_ENOUGH)}, status=429)
    try:
        stored = actions.store_layout(layout_to_text(layout), ensure_player(request), name)
    except actions.LayoutRejected as rejected:  # unplayable, or a limit reached
        raise Refused(rejected.message) from None
    share_url = request.build_absolute_uri(reverse("layouts-detail", args=[stored.pk]))
    return JsonResponse(
        {
            "ok": True,
            "id": stored.pk,
            "share_url": share_url,
            "play_url": _play_url(stored),
            "message": _("Saved. Anyone with the link can play it."),
        }
    )


def _play_url(stored: StoredLayout) -> str:
    """A new practice game on the stored layout (layouts/views.py `play`)."""
    return reverse("layouts-play", args=[f"U{stored.pk}"])
