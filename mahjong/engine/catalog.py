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
The library, L20 and up, is listed with its names and measured difficulty in
docs/LAYOUTS.md; its files are drawn by tools/make_layouts.py.
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
    # The race levels (docs/RULES.md §Layouts and levels).
    CatalogEntry(0, "turtle", 144, True, "hard", "Turtle", "Tortuga", "hard"),
    CatalogEntry(1, "beginner", 34, False, "beginner", "Beginner", "Principiante", "beginner"),
    CatalogEntry(2, "easy", 68, False, "easy", "Easy", "Fácil", "easy"),
    CatalogEntry(3, "medium", 94, False, "medium", "Medium", "Medio", "medium"),
    CatalogEntry(4, "hard", 136, False, "hard", "Hard", "Difícil", "hard"),
    CatalogEntry(
        11,
        "beginner-flowers",
        42,
        True,
        "beginner",
        "Beginner + flowers",
        "Principiante + flores",
        "easy",
    ),
    CatalogEntry(12, "easy-flowers", 76, True, "easy", "Easy + flowers", "Fácil + flores", "easy"),
    CatalogEntry(
        13, "medium-flowers", 102, True, "medium", "Medium + flowers", "Medio + flores", "hard"
    ),
    # The library (docs/LAYOUTS.md): shapes of our own, drawn by tools/make_layouts.py;
    # no race level. Flowers follow the tile count (layout.flowers_by_count).
    CatalogEntry(20, "pyramid", 82, False, "", "Pyramid", "Pirámide", "medium"),
    CatalogEntry(21, "bridge", 76, False, "", "Bridge", "Puente", "medium"),
    CatalogEntry(22, "cat", 90, False, "", "Cat", "Gato", "medium"),
    CatalogEntry(23, "fish", 118, False, "", "Fish", "Pez", "hard"),
    CatalogEntry(24, "butterfly", 70, False, "", "Butterfly", "Mariposa", "beginner"),
    CatalogEntry(25, "heart", 102, False, "", "Heart", "Corazón", "hard"),
    CatalogEntry(26, "star", 60, False, "", "Star", "Estrella", "easy"),
    CatalogEntry(27, "house", 102, False, "", "House", "Casa", "easy"),
    CatalogEntry(28, "fortress", 94, False, "", "Fortress", "Fortaleza", "medium"),
    CatalogEntry(29, "tower", 94, False, "", "Tower", "Torre", "medium"),
    CatalogEntry(30, "cross", 68, False, "", "Cross", "Cruz", "medium"),
    CatalogEntry(31, "diamond", 58, False, "", "Diamond", "Rombo", "easy"),
    CatalogEntry(32, "hourglass", 108, False, "", "Hourglass", "Reloj de arena", "medium"),
    CatalogEntry(33, "arrow", 36, False, "", "Arrow", "Flecha", "beginner"),
    CatalogEntry(34, "spider", 46, False, "", "Spider", "Araña", "beginner"),
    CatalogEntry(35, "owl", 96, False, "", "Owl", "Búho", "medium"),
    CatalogEntry(36, "rocket", 50, False, "", "Rocket", "Cohete", "beginner"),
    CatalogEntry(37, "pine", 100, False, "", "Pine tree", "Pino", "hard"),
    CatalogEntry(38, "crescent", 34, False, "", "Crescent moon", "Luna creciente", "beginner"),
    CatalogEntry(39, "ring", 44, False, "", "Ring", "Anillo", "beginner"),
    CatalogEntry(40, "checkers", 74, False, "", "Checkerboard", "Tablero", "easy"),
    CatalogEntry(41, "sailboat", 82, False, "", "Sailboat", "Velero", "medium"),
    CatalogEntry(42, "crown", 76, False, "", "Crown", "Corona", "medium"),
    CatalogEntry(43, "flower", 42, False, "", "Flower", "Flor", "easy"),
    CatalogEntry(44, "snake", 72, False, "", "Snake", "Serpiente", "medium"),
    CatalogEntry(45, "temple", 156, True, "", "Temple", "Templo", "hard"),
    CatalogEntry(46, "windmill", 74, False, "", "Windmill sails", "Aspas de molino", "beginner"),
    CatalogEntry(47, "honeycomb", 60, False, "", "Honeycomb", "Panal", "beginner"),
    CatalogEntry(48, "stairs", 44, False, "", "Staircase", "Escalera", "easy"),
    CatalogEntry(49, "spiral", 78, False, "", "Spiral", "Espiral", "medium"),
    CatalogEntry(50, "ziggurat", 144, True, "", "Ziggurat", "Zigurat", "hard"),
    CatalogEntry(51, "dragon", 118, False, "", "Dragon", "Dragón", "medium"),
    CatalogEntry(52, "great-wall", 108, False, "", "Great Wall", "Gran Muralla", "hard"),
    CatalogEntry(53, "city", 196, True, "", "City", "Ciudad", "hard"),
    CatalogEntry(54, "mountains", 166, True, "", "Mountains", "Montañas", "hard"),
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


# Mean grade score of a layout's deals (mahjong/race_rules/grading.py: 0 forgiving .. 1 punishing)
# -> its difficulty label; measured offline by bench/deal_grades.py --layouts and
# written into CATALOG (docs/LAYOUTS.md §Difficulty).
DIFFICULTY_BANDS = ((0.08, "beginner"), (0.2, "easy"), (0.32, "medium"), (1.01, "hard"))


def difficulty_label(mean_score: float) -> str:
    for upper, label in DIFFICULTY_BANDS:
        if mean_score < upper:
            return label
    return DIFFICULTY_BANDS[-1][1]
