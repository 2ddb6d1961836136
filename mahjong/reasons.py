"""Translating the engine's refusals at the Django boundary.

The engine (mahjong/engine) stays free of Django, so its reasons are plain English
sentences of a few known shapes; each shape here maps to a translatable message."""

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


def _blocked_part(part: str) -> str:
    covered = re.fullmatch(r"covered by (.+)", part)
    if covered:
        return _("covered by %(tiles)s") % {"tiles": covered.group(1)}
    return _("blocked on both sides") if part == "blocked on both sides" else part


def _why(text: str) -> str:
    return _(" and ").join(_blocked_part(part) for part in text.split(" and "))


PATTERNS = [
    (r"no tile (?P<tile>.+) in this deal", gettext_lazy("no tile %(tile)s in this deal")),
    (r"a tile cannot pair with itself", gettext_lazy("a tile cannot pair with itself")),
    (
        r"tile (?P<tile>\d+) has already been removed",
        gettext_lazy("tile %(tile)s has already been removed"),
    ),
    (
        r"tile (?P<tile>\d+) is not free: (?P<why>.+)",
        gettext_lazy("tile %(tile)s is not free: %(why)s"),
    ),
    (r"(?P<a>\S+) does not match (?P<b>\S+)", gettext_lazy("%(a)s does not match %(b)s")),
    (
        r"malformed game code (?P<code>.+): expected like (?P<example>\S+)",
        gettext_lazy("%(code)s is not a game code: a game code looks like %(example)s"),
    ),
    (
        r"unknown game code version (?P<version>\S+) in (?P<code>.+)",
        gettext_lazy("unknown game code version %(version)s in %(code)s"),
    ),
    (
        r"unknown layout number (?P<layout>\S+) in game code (?P<code>.+)",
        gettext_lazy("unknown layout number %(layout)s in game code %(code)s"),
    ),
    (
        r"shuffle is only allowed when no pair can be played",
        gettext_lazy("you may shuffle only when no pair can be played"),
    ),
    (
        r"nothing to shuffle: the board is empty",
        gettext_lazy("nothing to shuffle: the board is empty"),
    ),
    (
        r"no solvable rearrangement exists",
        gettext_lazy("no rearrangement of these tiles can be cleared"),
    ),
]

# The layout reader's faults and warnings, and why a layout cannot be dealt
# (mahjong/engine/layout.py, mahjong/engine/deal.py playable_report): shown by the
# upload page and the editor (docs/LAYOUTS.md).
LAYOUT_PATTERNS = [
    (
        r"overlapping tiles at x=(?P<x>\d+) y=(?P<y>\d+) z=(?P<z>\d+) and "
        r"x=(?P<x2>\d+) y=(?P<y2>\d+) z=(?P<z2>\d+)",
        gettext_lazy("overlapping tiles at x=%(x)s y=%(y)s z=%(z)s and x=%(x2)s y=%(y2)s z=%(z2)s"),
    ),
    (
        r"overlapping tiles: the tile at column (?P<a>\d+) runs into the tile starting at "
        r"column (?P<b>\d+)",
        gettext_lazy(
            "overlapping tiles: the tile at column %(a)s runs into the tile starting at "
            "column %(b)s"
        ),
    ),
    (r"the layout has no tiles", gettext_lazy("the layout has no tiles")),
    (
        r"odd tile count: (?P<n>\d+) tiles cannot all be paired; the last tile starts at "
        r"column (?P<col>\d+) of layer (?P<layer>\d+)",
        gettext_lazy(
            "odd tile count: %(n)s tiles cannot all be paired; the last tile starts at "
            "column %(col)s of layer %(layer)s"
        ),
    ),
    (
        r"odd tile count: (?P<n>\d+) tiles cannot all be paired",
        gettext_lazy("odd tile count: %(n)s tiles cannot all be paired"),
    ),
    (
        r"not a KMahjongg layout: expected (?P<a>\S+) or (?P<b>\S+)",
        gettext_lazy("not a KMahjongg layout: the first line must be %(a)s or %(b)s"),
    ),
    (
        r"bad size: row has (?P<n>\d+) characters, expected (?P<w>\d+)",
        gettext_lazy("bad size: the row has %(n)s characters, expected %(w)s"),
    ),
    (
        r"unknown character (?P<ch>.+) at column (?P<col>\d+)",
        gettext_lazy("unknown character %(ch)s at column %(col)s"),
    ),
    (
        r"bad size: the tile at column (?P<col>\d+) runs past the grid's right edge",
        gettext_lazy("bad size: the tile at column %(col)s runs past the grid's right edge"),
    ),
    (
        r"bad size: the tile at column (?P<col>\d+) runs past the grid's bottom edge",
        gettext_lazy("bad size: the tile at column %(col)s runs past the grid's bottom edge"),
    ),
    (
        r"the tile at column (?P<col>\d+) has (?P<got>\S+) at column (?P<at>\d+) where "
        r"(?P<want>\S+) belongs; read as a whole tile, as KMahjongg does",
        gettext_lazy(
            "the tile at column %(col)s has %(got)s at column %(at)s where %(want)s belongs; "
            "read as a whole tile, as KMahjongg does"
        ),
    ),
    (
        r"(?P<ch>\S+) at column (?P<col>\d+) belongs to no tile; ignored",
        gettext_lazy("%(ch)s at column %(col)s belongs to no tile; ignored"),
    ),
    (
        r"it has (?P<n>\d+) tiles: an odd number of tiles can never all be paired",
        gettext_lazy("it has %(n)s tiles: an odd number of tiles can never all be paired"),
    ),
    (
        r"a stack of (?P<n>\d+) tiles at column (?P<col>\d+), row (?P<row>\d+) can never be "
        r"cleared: its top tile is never free at the same time as another tile",
        gettext_lazy(
            "a stack of %(n)s tiles at column %(col)s, row %(row)s can never be cleared: its "
            "top tile is never free at the same time as another tile"
        ),
    ),
    (
        r"the tile at column (?P<col>\d+), row (?P<row>\d+) on layer (?P<layer>\d+) sits on "
        r"all the others: no other tile is ever free at the same time to pair with it",
        gettext_lazy(
            "the tile at column %(col)s, row %(row)s on layer %(layer)s sits on all the "
            "others: no other tile is ever free at the same time to pair with it"
        ),
    ),
    (
        r"fewer than two tiles are free at the start, so no first pair can be played",
        gettext_lazy("fewer than two tiles are free at the start, so no first pair can be played"),
    ),
    (
        r"no way to clear it was found in a long search: .+",
        gettext_lazy(
            "no way to clear it was found in a long search: it may have none; try fewer "
            "layers or more tiles beside the tall stacks"
        ),
    ),
    (
        r"no order clears it, whatever the faces: .+",
        gettext_lazy(
            "no order clears it, whatever the faces: some tiles are never free at the same "
            "time as a partner (often a stack taller than the tiles around it)"
        ),
    ),
]


def translate(reason: str) -> str:
    """The engine's reason in the active language (unchanged when its shape is unknown)."""
    for pattern, message in PATTERNS + LAYOUT_PATTERNS:
        match = re.fullmatch(pattern, reason)
        if match:
            args = match.groupdict()
            if "why" in args:
                args["why"] = _why(args["why"])
            return str(message) % args
    return reason
