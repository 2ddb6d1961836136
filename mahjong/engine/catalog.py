"""Built-in layouts and their permanent numbers.

The number is the `Lnn` of a game code, so a number once published never changes
meaning: add new layouts under new numbers, never renumber or edit a shipped file
(editing a file changes every deal of its codes).

| number | name             | tiles | flowers+seasons | level    |
|--------|------------------|-------|-----------------|----------|
| 00     | turtle           | 144   | yes             | hard     |
| 01     | beginner         | 34    | no              | beginner |
| 02     | easy             | 68    | no              | easy     |
| 03     | medium           | 94    | no              | medium   |
| 04     | hard             | 136   | no              | hard     |
| 11     | beginner-flowers | 42    | yes             | beginner |
| 12     | easy-flowers     | 76    | yes             | easy     |
| 13     | medium-flowers   | 102   | yes             | medium   |
Hard with flowers and seasons is the turtle, L00 (`hard-flowers` is an alias).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .layout import Layout, LayoutError, read_layout

LAYOUT_DIR = Path(__file__).resolve().parent.parent / "layouts"


@dataclass(frozen=True)
class CatalogEntry:
    """One built-in layout. `level` is "" for a library layout that is no race level;
    `title_en`/`title_es` are its display names (the engine holds no translations);
    `difficulty` is the measured grade of its deals (docs/LAYOUTS.md), "" until measured."""

    number: int
    name: str
    tiles: int
    flowers: bool
    level: str
    title_en: str = ""
    title_es: str = ""
    difficulty: str = ""

    def title(self, language: str = "en") -> str:
        """The display name in a language ("es" or anything else for English)."""
        if language.startswith("es") and self.title_es:
            return self.title_es
        return self.title_en or self.name


CATALOG: tuple[CatalogEntry, ...] = (
    CatalogEntry(0, "turtle", 144, True, "hard"),
    CatalogEntry(1, "beginner", 34, False, "beginner"),
    CatalogEntry(2, "easy", 68, False, "easy"),
    CatalogEntry(3, "medium", 94, False, "medium"),
    CatalogEntry(4, "hard", 136, False, "hard"),
    CatalogEntry(11, "beginner-flowers", 42, True, "beginner"),
    CatalogEntry(12, "easy-flowers", 76, True, "easy"),
    CatalogEntry(13, "medium-flowers", 102, True, "medium"),
)
BY_NUMBER = {entry.number: entry for entry in CATALOG}
BY_NAME = {entry.name: entry for entry in CATALOG}
ALIASES = {"hard-flowers": "turtle"}
LEVELS = ("beginner", "easy", "medium", "hard")


@cache
def layout_by_number(number: int) -> Layout:
    entry = BY_NUMBER.get(number)
    if entry is None:
        raise LayoutError(f"unknown layout number {number:02d}")
    raw = read_layout(LAYOUT_DIR / f"{entry.name}.layout", entry.name)
    return Layout(name=entry.name, positions=raw.positions, number=number, flowers=entry.flowers)


def layout_by_name(name: str, flowers: bool = False) -> Layout:
    """A built-in layout by name; `flowers=True` picks a level's flowers-and-seasons variant."""
    name = ALIASES.get(name, name)
    if flowers and name in LEVELS:
        name = ALIASES.get(f"{name}-flowers", f"{name}-flowers")
    entry = BY_NAME.get(name)
    if entry is None:
        known = ", ".join(sorted(BY_NAME))
        raise LayoutError(f"unknown layout {name!r} (built-in layouts: {known})")
    return layout_by_number(entry.number)


def level_layout(level: str, flowers: bool = False) -> Layout:
    """The layout a race level uses (docs/RULES.md §Layouts and levels): Beginner 34 ...
    Hard 136, +8 with flowers."""
    if level not in LEVELS:
        raise LayoutError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    return layout_by_name(level, flowers)


def load_layout(name_or_path: str, flowers: bool = False) -> Layout:
    """A built-in layout name, or a path to a KMahjongg `.layout` file.

    A file deals the flowers and seasons when it has 144 places or more
    (layout.flowers_by_count, docs/LAYOUTS.md §Faces), or when `flowers` asks for them.
    """
    if ALIASES.get(name_or_path, name_or_path) in BY_NAME:
        return layout_by_name(name_or_path, flowers)
    path = Path(name_or_path)
    if path.suffix == ".layout" or path.exists():
        raw = read_layout(path)
        if flowers and not raw.flowers:
            return Layout(name=raw.name, positions=raw.positions, flowers=True)
        return raw
    return layout_by_name(name_or_path, flowers)  # raises the "unknown layout" error
