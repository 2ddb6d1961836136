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


def translate(reason: str) -> str:
    """The engine's reason in the active language (unchanged when its shape is unknown)."""
    for pattern, message in PATTERNS:
        match = re.fullmatch(pattern, reason)
        if match:
            args = match.groupdict()
            if "why" in args:
                args["why"] = _why(args["why"])
            return str(message) % args
    return reason
