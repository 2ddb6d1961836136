"""The site's own pages: the home page (pages/front_door.py reads what it shows), the
rules page (its local-rules table read from the live site defaults) and the "learn on
the board" tutorial, a small fixed board played in the browser alone."""

from dataclasses import dataclass

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy
from django.views.decorators.http import require_GET

from arenas import queries as arena_queries
from mahjong.board_strings import strings as board_strings
from mahjong.engine.catalog import BY_NAME
from mahjong.rules import CUT_OFF, IDLE_LIMITS, SHUFFLE_PENALTIES, TIME_LIMITS, Level
from pages.front_door import front_door
from rooms.models import SiteDefaults

MAX_COUNT = 10  # shuffles and hints: 0 to 10 (the validators of rooms.models.Rules)

# What each local rule means; its default and choices are read when the page is drawn.
MEANINGS = {
    "players": gettext_lazy(
        "Everyone who joins the room gets a seat; the owner may add CPU opponents."
    ),
    "level": gettext_lazy("How many tiles the deal has: more tiles, more layers."),
    "flowers": gettext_lazy(
        "Adds four flowers and four seasons: a flower pairs with any flower, "
        "a season with any season."
    ),
    "shuffles": gettext_lazy("How often you may shuffle the tiles left when no pair is free."),
    "shuffle_penalty_seconds": gettext_lazy(
        "A pause after each shuffle during which you cannot take a tile."
    ),
    "hints": gettext_lazy("How often the Hint button may light up a pair you can play."),
    "handicap": gettext_lazy(
        "The winner of the last race gets a deal one level harder; each win in a row "
        "adds a level. Places are still decided by time."
    ),
    "show_matches": gettext_lazy(
        "A helper: when you select a tile, the free tiles that match it light up."
    ),
    "time_limit_minutes": gettext_lazy(
        "The target time. You may play on after it, but a late finish scores no points."
    ),
    "idle_limit_seconds": gettext_lazy(
        "How long you may go without a move before a CPU plays for you."
    ),
    "cut_off": gettext_lazy(
        "The race ends this long after the start; whoever has not finished is ranked by progress."
    ),
    "grace": gettext_lazy("How long a lost connection may last before a CPU plays the seat."),
}


@dataclass(frozen=True)
class RuleRow:
    key: str
    name: str
    default: str
    choices: str

    @property
    def meaning(self) -> str:
        return MEANINGS[self.key]


# By rule: in Spanish "on" and "off" agree with the rule's noun (flores: activadas;
# desventaja: activada).
ON_OFF = {
    "flowers": (pgettext_lazy("flowers", "on"), pgettext_lazy("flowers", "off")),
    "handicap": (pgettext_lazy("handicap", "on"), pgettext_lazy("handicap", "off")),
    "show_matches": (pgettext_lazy("highlight", "on"), pgettext_lazy("highlight", "off")),
}


def on_off(value: bool, rule: str) -> str:
    on, off = ON_OFF[rule]
    return str(on if value else off)


def switch_row(rule: str, label: str, value: bool) -> RuleRow:
    """An on/off rule: its default and its choices in the words that agree with its noun."""
    return RuleRow(rule, label, on_off(value, rule), ", ".join(str(w) for w in ON_OFF[rule]))


def up_to(n: int) -> str:
    return ngettext("up to %(n)d", "up to %(n)d", n) % {"n": n} if n else pgettext("count", "none")


def labels(pairs) -> str:
    return ", ".join(str(label) for _value, label in pairs)


def zero_to_max() -> str:
    return _("0 to %(n)d") % {"n": MAX_COUNT}


def level_choices() -> str:
    return ", ".join(
        _("%(level)s (%(tiles)d tiles)") % {"level": label, "tiles": BY_NAME[value].tiles}
        for value, label in Level.choices
    )


def fixed_rows() -> list[RuleRow]:
    cut_off = _("%(minutes)d min after the start") % {"minutes": CUT_OFF.total_seconds() // 60}
    grace = _("%(seconds)d s") % {"seconds": settings.DISCONNECT_GRACE_SECONDS}
    return [
        RuleRow("cut_off", _("Hard cut-off"), cut_off, _("fixed")),
        RuleRow("grace", _("Disconnect grace"), grace, _("fixed")),
    ]


def rule_rows(d: SiteDefaults) -> list[RuleRow]:
    """docs/RULES.md §Local rules and site defaults as a table: each local rule, its site
    default now, and its choices."""
    penalty = dict(SHUFFLE_PENALTIES)[d.shuffle_penalty_seconds]
    idle = dict(IDLE_LIMITS)[d.idle_limit_seconds]
    time_limit = dict(TIME_LIMITS)[d.time_limit_minutes]
    return [
        RuleRow("players", _("Players"), _("1 to 20, by who joins"), _("1 to 20 seats")),
        RuleRow("level", _("Level"), Level(d.level).label, level_choices()),
        switch_row("flowers", _("Flowers and seasons"), d.flowers),
        RuleRow("shuffles", _("Shuffles"), up_to(d.shuffles), zero_to_max()),
        RuleRow(
            "shuffle_penalty_seconds", _("Shuffle penalty"), penalty, labels(SHUFFLE_PENALTIES)
        ),
        RuleRow("hints", _("Hints"), up_to(d.hints), zero_to_max()),
        switch_row("handicap", _("Winner handicap"), d.handicap),
        switch_row("show_matches", _("Highlight matching tiles"), d.show_matches),
        RuleRow("time_limit_minutes", _("Time limit"), time_limit, labels(TIME_LIMITS)),
        RuleRow("idle_limit_seconds", _("Idle limit"), idle, labels(IDLE_LIMITS)),
        *fixed_rows(),
    ]


@require_GET
def rules_page(request):
    return render(request, "pages/rules.html", {"rows": rule_rows(SiteDefaults.load())})


# The tutorial's board, in the KMahjongg grid (a tile covers 2 x 2 cells). Tile 1 is
# blocked on both sides, tile 4 lies on tile 3, and the bottom row (10-13) ends up
# blocked until the tutorial's shuffle swaps two of its faces. The steps in learn.js
# refer to these indices.
TUTORIAL_TILES = [
    {"x": 2, "y": 0, "z": 0, "face": "3D"},
    {"x": 4, "y": 0, "z": 0, "face": "R"},
    {"x": 6, "y": 0, "z": 0, "face": "3D"},
    {"x": 4, "y": 2, "z": 0, "face": "N"},
    {"x": 4, "y": 2, "z": 1, "face": "R"},
    {"x": 0, "y": 2, "z": 0, "face": "F1"},
    {"x": 8, "y": 2, "z": 0, "face": "F3"},
    {"x": 0, "y": 4, "z": 0, "face": "S2"},
    {"x": 8, "y": 4, "z": 0, "face": "S4"},
    {"x": 4, "y": 4, "z": 0, "face": "N"},
    {"x": 1, "y": 6, "z": 0, "face": "7C"},
    {"x": 3, "y": 6, "z": 0, "face": "2B"},
    {"x": 5, "y": 6, "z": 0, "face": "7C"},
    {"x": 7, "y": 6, "z": 0, "face": "2B"},
]


def tutorial_steps() -> dict:
    return {
        "blocked": _(
            "Only free tiles can be taken. Tap the red dragon in the middle of the top row."
        ),
        "why": _(
            "A tile is free when nothing lies on it and its left or right side is open. "
            "Tap the two free 3 of dots, one after the other, to remove the pair."
        ),
        "pair": _(
            "The red dragon in the top row is free now. Pair it with the red dragon "
            "lying on top of the stack."
        ),
        "flowers": _(
            "Flowers pair with any flower, even with a different picture. Tap the two flowers."
        ),
        "seasons": _("Seasons pair with any season. Tap the two seasons."),
        "hint": _("Not sure what to take? Press Hint: it lights up a pair you can play."),
        "hinted": _("Remove the pair that lit up."),
        "shuffle": _(
            "The two free tiles do not match: you are blocked. Press Shuffle to mix the "
            "tiles that are left (in a race, shuffles are limited)."
        ),
        "finish": _("Now clear the board: remove the last pairs."),
        "done": _("Well done, the board is clear! You know the rules: practise or race."),
    }


def tutorial_strings() -> dict:
    return {
        "steps": tutorial_steps(),
        "step_of": _("Step {n} of {total}"),
        "wrong": _("Not that pair yet: follow the step above."),
        "not_now": _("Not yet: follow the step above."),
    }


@require_GET
def learn_page(request):
    context = {"tiles": TUTORIAL_TILES, "strings": {**board_strings(), **tutorial_strings()}}
    return render(request, "pages/learn.html", context)


@require_GET
def home(request):
    """The front door: a board preview, Play now, today's challenge, open rooms, and the
    visitor's record and streak once they have played (pages/front_door.py)."""
    return render(
        request,
        "pages/home.html",
        {**front_door(request), "next_arena": arena_queries.next_arena()},
    )


@require_GET
def style_page(request):
    """The design system's components on one page (docs/DESIGN-SYSTEM.md), with DEBUG on
    only: a page for whoever works on the site, not for players (in their language too)."""
    if not settings.DEBUG:
        raise Http404("Only with DEBUG on.")
    # The standings' places as the race page writes them (rooms.views.ordinal_strings).
    ordinals = {
        1: pgettext("ordinal of a place: 1st, 21st", "{n}st").replace("{n}", "1"),
        2: pgettext("ordinal of a place: 2nd, 22nd", "{n}nd").replace("{n}", "2"),
        3: pgettext("ordinal of a place: 3rd, 23rd", "{n}rd").replace("{n}", "3"),
    }
    return render(request, "pages/style.html", {"ordinals": ordinals})
