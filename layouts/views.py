"""Layout pages: the picker (`/layouts/`), play a layout file (`/layouts/new/`), a stored
layout's share page and picture (docs/LAYOUTS.md). Stores go through
layouts/actions.py; every other view only reads."""

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from accounts.identity import ensure_player, player_for_request
from layouts import actions, library, throttle
from layouts.models import StoredLayout
from layouts.preview import layout_svg, stored_svg
from mahjong import reasons
from mahjong.engine.layout import LayoutWarning

SHOWN_LINE_CHARS = 80  # of the line at fault, shown under the error


def index(request):
    """The layout picker as a page: every layout, with a filter by name."""
    player = player_for_request(request)
    choices = library.choices(player, get_language())
    return render(request, "layouts/index.html", {"choices": choices})


def new(request):
    """Upload or paste a KMahjongg file: check it (picture, warnings, the error's line),
    then store it and go to its share page."""
    context = {"text": "", "title": "", "max_kb": actions.MAX_BYTES // 1024}
    if request.method == "POST" and not throttle.may_check(request):
        context["error"] = _(
            "You checked many layouts in a short time: try again in a few minutes."
        )
        context["text"] = request.POST.get("text", "")[: actions.MAX_BYTES]  # kept, not lost
        return render(request, "layouts/new.html", context, status=429)
    if request.method == "POST":
        text, problem = _posted_text(request)
        context["text"] = text
        context["title"] = request.POST.get("title", "")[:200]
        if problem:
            context["error"] = problem
        elif request.POST.get("action") in ("store", "share"):
            return _store(request, context, then=request.POST["action"])
        else:
            _check(context)
    status = 400 if context.get("error") else 200
    return render(request, "layouts/new.html", context, status=status)


def _posted_text(request) -> tuple[str, str]:
    """The layout text from the uploaded file (preferred) or the text box; an error."""
    upload = request.FILES.get("file")
    if upload is None:
        return request.POST.get("text", ""), ""
    if upload.size > actions.MAX_BYTES:
        return "", _("The file is too big: a layout file may have at most %(kb)d KB.") % {
            "kb": actions.MAX_BYTES // 1024
        }
    try:
        return upload.read().decode("utf-8-sig"), ""
    except UnicodeDecodeError:
        return "", _("This file is not a text file (UTF-8): is it a KMahjongg .layout file?")


def _check(context) -> None:
    try:
        layout, warnings = actions.read_layout_text(context["text"])
    except actions.LayoutRejected as refused:
        _refusal(context, refused)
        return
    context["preview"] = mark_safe(layout_svg(layout.positions))  # numbers only
    context["tiles"] = len(layout)
    context["warnings"] = [LayoutWarning(w.line, reasons.translate(w.message)) for w in warnings]


def _refusal(context, refused: actions.LayoutRejected) -> None:
    context["error"] = refused.message
    lines = context["text"].splitlines()
    if refused.line and 0 < refused.line <= len(lines):
        # The page says "Line N:" itself (translated), then the reader's words and the line.
        context["error"] = refused.message.removeprefix(f"line {refused.line}: ")
        context["error_line"] = refused.line
        context["error_text"] = lines[refused.line - 1][:SHOWN_LINE_CHARS]


def _store(request, context, then: str):
    """Store the checked text under its name, then open a board on it ("store") or its
    share page ("share"). Without a name nothing is stored: the name is what players
    see in the picker and in a room's rules (the key "U7" says nothing)."""
    if not context["title"].strip():
        _check(context)  # a fault of the text first; else its picture stays on the page
        context.setdefault("error", _("Give the layout a name to store it."))
        return render(request, "layouts/new.html", context, status=400)
    if not throttle.may_store(request):
        context["error"] = str(throttle.STORED_ENOUGH)
        return render(request, "layouts/new.html", context, status=429)
    try:
        stored = actions.store_layout(context["text"], ensure_player(request), context["title"])
    except actions.LayoutRejected as refused:
        _refusal(context, refused)
        return render(request, "layouts/new.html", context, status=400)
    if then == "share":
        return redirect("layouts-detail", stored.pk)
    return redirect("layouts-play", f"U{stored.pk}")


def _visible(layout_id: int) -> StoredLayout:
    row = StoredLayout.objects.filter(pk=layout_id, hidden=False).first()
    if row is None:
        raise Http404(_("No such layout"))
    return row


def detail(request, layout_id: int):
    """A stored layout's share page: its picture, name, size and a Play button."""
    row = _visible(layout_id)
    player = player_for_request(request)
    context = {
        "layout": row,
        "title": row.title(get_language()),
        "mine": player is not None and row.owner_id == player.pk,
        "share_url": request.build_absolute_uri(),
        "key": f"U{row.pk}",
    }
    return render(request, "layouts/detail.html", context)


@require_GET
def play(request, key: str):
    """A new practice game on a layout: a fresh code on it, opened in practice."""
    if not library.is_known(key):
        raise Http404(_("No such layout"))
    return redirect("play-code", library.new_code(key))


@require_GET
@cache_control(public=True, max_age=24 * 3600)
def preview(request, layout_id: int):
    """A stored layout's picture (its shape never changes); hidden ones too, since rooms
    and games made before the hiding still show it."""
    try:
        svg = stored_svg(layout_id)
    except LookupError:  # no such layout
        raise Http404(_("No such layout")) from None
    return HttpResponse(svg, content_type="image/svg+xml")
