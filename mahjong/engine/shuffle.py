"""Shuffle (docs/RULES.md §Playing a board): from a blocked position, a solvable
rearrangement of the same tiles.

The remaining positions are emptied in pairs by reverse play (as for a new deal) and the
remaining faces are painted pair by pair along that order, so the result comes with its
winning plan. If no order can empty the remaining positions whatever the faces (say two
tiles stacked on each other), the tiles above the ground layer move to a new row on the
ground beside the board: a single layer with an even number of tiles can always be
emptied, since its leftmost and rightmost tiles are always free.
"""

from __future__ import annotations

from dataclasses import dataclass

from .deal import removal_order
from .layout import Layout, bits, layout_from_positions
from .position import Position
from .prng import Prng
from .tiles import match_class

ROW_LENGTH = 12


@dataclass(frozen=True)
class Shuffled:
    position: Position  # same tile indices; faces (and maybe places) of live tiles changed
    plan: tuple[tuple[int, int], ...]  # a winning plan from `position`
    moved: tuple[int, ...]  # indices of tiles that changed place (usually none)


class ShuffleError(ValueError):
    pass


def shuffle(position: Position, seed: int, require_blocked: bool = True) -> Shuffled:
    if not position.alive:
        raise ShuffleError("nothing to shuffle: the board is empty")
    if require_blocked and not position.is_blocked():
        raise ShuffleError("shuffle is only allowed when no pair can be played")
    rng = Prng(seed)
    layout, moved = position.layout, ()
    order = removal_order(layout, position.alive, rng)
    if order is None:
        layout, moved = _flatten(position)
        order = removal_order(layout, position.alive, rng)
    if order is None:  # cannot happen: a single layer with an even count always empties
        raise ShuffleError("no solvable rearrangement exists")
    faces = list(position.faces)
    pairs = _face_pairs(position)
    rng.shuffle(pairs)
    for (a, b), (fa, fb) in zip(order, pairs, strict=True):
        faces[a], faces[b] = fa, fb
    new_position = Position(layout, tuple(faces), position.alive)
    return Shuffled(new_position, tuple(order), moved)


def _face_pairs(position: Position) -> list[tuple[int, int]]:
    """The live faces grouped into matching pairs (each class has an even count left)."""
    by_class: dict[int, list[int]] = {}
    for i in bits(position.alive):
        by_class.setdefault(match_class(position.faces[i]), []).append(position.faces[i])
    pairs = []
    for faces in by_class.values():
        if len(faces) % 2:
            raise ShuffleError("the remaining tiles cannot be paired: a face has an odd count")
        faces.sort()
        pairs += [(faces[k], faces[k + 1]) for k in range(0, len(faces), 2)]
    return pairs


def _flatten(position: Position) -> tuple[Layout, tuple[int, ...]]:
    """Move every live tile above the ground layer to new ground rows below the board."""
    places = list(position.layout.positions)
    lift = [i for i in bits(position.alive) if places[i][2] > 0]
    x0 = min(x for x, _, _ in places)
    y0 = max(y for _, y, _ in places) + 3  # one empty half-row: not touching the board
    for k, i in enumerate(lift):
        row, col = divmod(k, ROW_LENGTH)
        places[i] = (x0 + 2 * col, y0 + 2 * row, 0)
    layout = layout_from_positions(places, name=position.layout.name)
    # A moved layout is no longer the numbered built-in one, so it carries no number.
    layout = Layout(layout.name, layout.positions, None, position.layout.flowers)
    return layout, tuple(lift)
