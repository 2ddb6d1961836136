"""The 144-tile set: 42 faces, their labels (docs/RULES.md §Tiles) and which faces match.

Faces are small integers (0..41) everywhere inside the engine; labels are only for
people and JSON. The order of FACES is part of the game-code contract: never reorder it.
"""

from __future__ import annotations

SUITS = ("B", "C", "D")
HONOURS = ("N", "S", "E", "W", "R", "G", "Wh")
FLOWERS = ("F1", "F2", "F3", "F4")
SEASONS = ("S1", "S2", "S3", "S4")

FACES: tuple[str, ...] = (
    tuple(f"{rank}{suit}" for suit in SUITS for rank in range(1, 10)) + HONOURS + FLOWERS + SEASONS
)
FACE_INDEX: dict[str, int] = {label: i for i, label in enumerate(FACES)}

# Faces 0..33 come four of a kind; 34..37 are the flowers and 38..41 the seasons.
FIRST_FLOWER = FACE_INDEX["F1"]
FIRST_SEASON = FACE_INDEX["S1"]
REGULAR_FACES = FIRST_FLOWER  # 34 faces with four copies each
FLOWER_CLASS = FIRST_FLOWER  # match class shared by all flowers
SEASON_CLASS = FIRST_FLOWER + 1  # match class shared by all seasons
MATCH_CLASSES = REGULAR_FACES + 2  # 36 classes of four interchangeable tiles

FULL_SET_SIZE = 144


def face_label(face: int) -> str:
    return FACES[face]


def face_id(label: str) -> int:
    """The face number of a label such as '5B', 'Wh' or 'F3'; ValueError if unknown."""
    try:
        return FACE_INDEX[label]
    except KeyError:
        raise ValueError(f"unknown face {label!r}") from None


def match_class(face: int) -> int:
    """Faces match exactly when their classes are equal (any flower with any flower)."""
    if face < FIRST_FLOWER:
        return face
    return FLOWER_CLASS if face < FIRST_SEASON else SEASON_CLASS


def faces_match(a: int, b: int) -> bool:
    return match_class(a) == match_class(b)


def full_set() -> list[int]:
    """All 144 faces of one set, in face order."""
    return [f for f in range(REGULAR_FACES) for _ in range(4)] + list(range(FIRST_FLOWER, 42))
