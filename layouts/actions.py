"""The one write path for stored layouts (docs/ARCHITECTURE.md §One write path).

`store_layout` is how an upload, a paste and the editor's Save all store a layout: the
engine reads it (a refusal names its line), checks that it can be dealt solvable, and
the limits below keep one device or a flood from filling the table (docs/LAYOUTS.md
§The one write path and its limits). Nothing is stored unless every check passes.
"""

import hashlib
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import Player
from layouts.models import TITLE_MAX_LENGTH, CatalogOverride, StoredLayout
from mahjong import reasons
from mahjong.engine.deal import playable_report
from mahjong.engine.layout import LayoutError, layout_to_text, parse_layout_report

MAX_BYTES = 64 * 1024  # a 144-tile v1.1 file is about 1.5 KB; 64 KB is generous
MIN_TILES = 4
MAX_TILES = 288  # two full sets: a deal is found in well under a second
MAX_PER_PLAYER = 50  # layouts one player (one device, or one account) keeps
RATE_WINDOW = timedelta(hours=1)
MAX_PER_WINDOW = 10  # new layouts per player per hour
MAX_SITE_PER_WINDOW = 500  # new layouts per hour from everyone: a flood of fresh devices


class LayoutRejected(Exception):
    """A layout that is not stored; `message` is shown to the player, `line` (1-based)
    is the file's line at fault when there is one."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def read_layout_text(text: str):
    """(Layout, warnings) of uploaded text; LayoutRejected when it cannot be played.

    The checks of a store without storing: the upload page's preview uses it too.
    """
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise LayoutRejected(
            _("The file is too big: a layout file may have at most %(kb)d KB.")
            % {"kb": MAX_BYTES // 1024}
        )
    try:
        layout, warnings = parse_layout_report(text)
    except LayoutError as error:
        # The engine's message carries "line N: …": the line goes on its own, the rest
        # is translated.
        message = str(error).removeprefix(f"line {error.line}: ")
        raise LayoutRejected(reasons.translate(message), error.line) from None
    if not MIN_TILES <= len(layout) <= MAX_TILES:
        raise LayoutRejected(
            _("A layout needs from %(min)d to %(max)d tiles; this one has %(n)d.")
            % {"min": MIN_TILES, "max": MAX_TILES, "n": len(layout)}
        )
    problem = playable_report(layout)
    if problem:
        raise LayoutRejected(reasons.translate(problem))
    return layout, warnings


def store_layout(text: str, player: Player, title: str = "") -> StoredLayout:
    """Store a layout for `player` and return it; LayoutRejected (nothing stored) when the
    text is not a playable layout or a limit is reached. The same shape stored again by
    the same player returns the row already stored (renamed if a title is given)."""
    layout, _warnings = read_layout_text(text)
    normal = layout_to_text(layout)
    key = hashlib.sha256(normal.encode("ascii")).hexdigest()
    title = " ".join(title.split())[:TITLE_MAX_LENGTH]
    with transaction.atomic():
        # The player's row is the lock: two uploads of one device are counted one at a time.
        Player.objects.select_for_update().filter(pk=player.pk).first()
        same = StoredLayout.objects.filter(owner=player, shape_key=key).first()
        if same is not None:
            if title and not same.title_en:
                same.title_en = title
                same.save(update_fields=["title_en"])
            return same
        _check_limits(player)
        return StoredLayout.objects.create(
            text=normal, shape_key=key, tiles=len(layout), owner=player, title_en=title
        )


def _check_limits(player: Player) -> None:
    mine = StoredLayout.objects.filter(owner=player)
    if mine.count() >= MAX_PER_PLAYER:
        raise LayoutRejected(
            _("You have stored %(n)d layouts, the most one player may keep.")
            % {"n": MAX_PER_PLAYER}
        )
    since = timezone.now() - RATE_WINDOW
    if mine.filter(created_at__gte=since).count() >= MAX_PER_WINDOW:
        raise LayoutRejected(
            ngettext(
                "You stored %(n)d layout in the last hour, the most allowed: try again later.",
                "You stored %(n)d layouts in the last hour, the most allowed: try again later.",
                MAX_PER_WINDOW,
            )
            % {"n": MAX_PER_WINDOW}
        )
    if StoredLayout.objects.filter(created_at__gte=since).count() >= MAX_SITE_PER_WINDOW:
        raise LayoutRejected(_("Too many layouts were stored in the last hour: try again later."))


def take_over_layouts(device: Player, account: Player, **_signal) -> None:
    """On an account merge (accounts.signals.player_merged): the device's layouts become
    the account's."""
    StoredLayout.objects.filter(owner=device).update(owner=account)


def _clean_title(title: str) -> str:
    return " ".join(title.split())[:TITLE_MAX_LENGTH]


def edit_stored(layout: StoredLayout, title_en: str, title_es: str, hidden: bool, built_in: bool):
    """The admin's edit of a stored layout: its names and flags, never its shape (its
    codes must deal the same forever). The admin's form saves through this."""
    layout.title_en, layout.title_es = _clean_title(title_en), _clean_title(title_es)
    layout.hidden, layout.built_in = bool(hidden), bool(built_in)
    layout.save(update_fields=["title_en", "title_es", "hidden", "built_in"])
    return layout


def override_catalog(override: CatalogOverride) -> CatalogOverride:
    """The admin's names for a built-in layout, or its removal from the picker."""
    override.title_en, override.title_es = (
        _clean_title(override.title_en),
        _clean_title(override.title_es),
    )
    override.save()
    return override


def set_flags(queryset, **flags) -> int:
    """Hide, show, promote or demote stored layouts (the admin's actions); the count."""
    allowed = {"hidden", "built_in"}
    if not flags or set(flags) - allowed:
        raise ValueError(f"only {sorted(allowed)} can be set")
    return queryset.update(**flags)
