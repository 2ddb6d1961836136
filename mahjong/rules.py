"""Facts of the game, each defined once (docs/RULES.md): the levels, the limits of races
and hints, the local rules' choices, the seats of a room, the grade bands of deals.
Deployment knobs (and the delays tests shorten) stay in config/settings.py.

The engine (pure Python) owns the level names; this module gives them, and the built-in
layouts, their labels in the player's language and holds the race and hint limits that
pages, races, practice and records all need.
"""

from datetime import timedelta

from django.db import models
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

from mahjong.engine.catalog import BY_NUMBER
from mahjong.engine.catalog import LEVELS as ENGINE_LEVELS
from mahjong.engine.hint import DEFAULT_TIME_LIMIT


class Level(models.TextChoices):
    """The four levels, easiest first (docs/RULES.md §Layouts and levels)."""

    BEGINNER = "beginner", gettext_lazy("Beginner")
    EASY = "easy", gettext_lazy("Easy")
    MEDIUM = "medium", gettext_lazy("Medium")
    HARD = "hard", gettext_lazy("Hard")


LEVELS: tuple[str, ...] = tuple(Level.values)
assert LEVELS == ENGINE_LEVELS, "the engine's levels and their labels must agree"

# A race is closed this long after "go" whatever its time limit (docs/RULES.md §Races).
CUT_OFF = timedelta(minutes=60)
# Once every other human of a race is done, a human who has not acted on the board for
# this long is treated as away: a CPU plays on, so one idle tab cannot hold the room
# open until the cut-off (docs/RULES.md §Leaving).
LAST_PLAYER_IDLE = timedelta(minutes=2)
# How long the solver may think for a hint, in practice and in races alike: the
# engine's own default, so its command line and the site agree.
HINT_TIME_LIMIT_SECONDS = DEFAULT_TIME_LIMIT


# A race's seats, humans and CPUs together (docs/RULES.md §Races, "Seats").
MAX_SEATS = 20
# The local rules' choices (docs/RULES.md §Local rules): (value, label).
SHUFFLE_PENALTIES = [
    (0, pgettext_lazy("shuffle penalty", "none")),
    (5, "5 s"),
    (10, "10 s"),
    (30, "30 s"),
]
TIME_LIMITS = [(m, f"{m} min") for m in (3, 5, 10, 15, 20, 30)]
IDLE_LIMITS = [(0, pgettext_lazy("idle limit", "none")), (30, "30 s"), (60, "60 s")]
# The grade bands (mahjong/race_rules/grading.py) each level's deals are drawn from:
# they overlap little, so a harder level is reliably harder to play, not only bigger.
# Measured in docs/WORKERS.md.
GRADE_BANDS = {
    "beginner": (0.0, 0.25),
    "easy": (0.05, 0.45),
    "medium": (0.25, 0.6),
    "hard": (0.4, 1.0),
}

MINUTE_MS = 60_000


def time_limit_ms(rules: dict) -> int:
    """A race's time limit in milliseconds, from its rules."""
    return rules["time_limit_minutes"] * MINUTE_MS


def layout_label(layout_number: int | None) -> str:
    """A built-in layout's name in the player's language: its level, "+ flowers"; a
    library layout's title; for None (a game on a stored layout) a word for them all."""
    if layout_number is None:
        return _("Stored layout")
    entry = BY_NUMBER[layout_number]
    if not entry.level:  # a library layout, no race level (docs/LAYOUTS.md)
        return entry.title(get_language() or "en")
    if entry.name == "turtle":
        return _("Turtle (Hard + flowers)")
    label = str(Level(entry.level).label)
    return _("%(level)s + flowers") % {"level": label} if entry.flowers else label
