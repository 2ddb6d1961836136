"""A position: a layout, the face of every tile, and which tiles are still on the table.

Positions are immutable: `remove` and `undo` return new positions, so a caller can keep
the history it wants (a referee stores moves, a solo game keeps an undo stack).
"""

from __future__ import annotations

from dataclasses import dataclass

from .layout import Layout, bits
from .tiles import FACES, match_class


@dataclass(frozen=True)
class Blocked:
    """Why a tile cannot be taken: the tiles lying on it and/or both sides closed."""

    covered_by: tuple[int, ...]
    left: tuple[int, ...]
    right: tuple[int, ...]

    @property
    def both_sides(self) -> bool:
        return bool(self.left and self.right)

    def describe(self) -> str:
        parts = []
        if self.covered_by:
            parts.append("covered by " + ", ".join(f"#{i}" for i in self.covered_by))
        if self.both_sides:
            parts.append("blocked on both sides")
        return " and ".join(parts)


@dataclass(frozen=True)
class Position:
    layout: Layout
    faces: tuple[int, ...]
    alive: int

    @classmethod
    def start(cls, layout: Layout, faces) -> Position:
        faces = tuple(faces)
        if len(faces) != len(layout):
            raise ValueError(f"{len(faces)} faces for a layout of {len(layout)} tiles")
        return cls(layout, faces, layout.full)

    # -- reading the position -------------------------------------------------------
    def is_alive(self, i: int) -> bool:
        return bool(self.alive >> i & 1)

    def is_free(self, i: int) -> bool:
        return self.is_alive(i) and self.layout.is_free(i, self.alive)

    def free_mask(self) -> int:
        return self.layout.free_mask(self.alive)

    def free_tiles(self) -> list[int]:
        return bits(self.free_mask())

    def alive_tiles(self) -> list[int]:
        return bits(self.alive)

    def why_blocked(self, i: int) -> Blocked | None:
        """None when tile i is free; otherwise what blocks it (docs/RULES.md §Freeness)."""
        self._check_index(i)
        if not self.is_alive(i):
            raise ValueError(f"tile {i} has already been removed")
        if self.layout.is_free(i, self.alive):
            return None
        alive, lay = self.alive, self.layout
        covered = tuple(bits(alive & lay.covers[i]))
        left, right = bits(alive & lay.left[i]), bits(alive & lay.right[i])
        if left and right:
            return Blocked(covered, tuple(left), tuple(right))
        return Blocked(covered, (), ())

    def can_remove(self, i: int, j: int) -> tuple[bool, str]:
        """Whether (i, j) is a legal pair here, and if not, why (for players and referees)."""
        n = len(self.faces)
        for k in (i, j):
            if not isinstance(k, int) or not 0 <= k < n:
                return False, f"no tile {k!r} in this deal"
        if i == j:
            return False, "a tile cannot pair with itself"
        for k in (i, j):
            if not self.is_alive(k):
                return False, f"tile {k} has already been removed"
            why = self.why_blocked(k)
            if why is not None:
                return False, f"tile {k} is not free: {why.describe()}"
        if match_class(self.faces[i]) != match_class(self.faces[j]):
            return False, f"{FACES[self.faces[i]]} does not match {FACES[self.faces[j]]}"
        return True, "ok"

    def playable_pairs(self) -> list[tuple[int, int]]:
        """Every pair of free matching tiles, in index order."""
        free = self.free_tiles()
        return [
            (a, b)
            for k, a in enumerate(free)
            for b in free[k + 1 :]
            if match_class(self.faces[a]) == match_class(self.faces[b])
        ]

    def is_blocked(self) -> bool:
        """Tiles remain but no pair of free matching tiles does
        (docs/RULES.md §Playing a board)."""
        if not self.alive:
            return False
        seen = set()
        for i in self.free_tiles():
            c = match_class(self.faces[i])
            if c in seen:
                return False
            seen.add(c)
        return True

    def is_won(self) -> bool:
        return not self.alive

    def removed_count(self) -> int:
        return len(self.faces) - self.alive.bit_count()

    def progress(self) -> int:
        """Removed tiles / all tiles, as a whole percent rounded down (100 only when won)."""
        return self.removed_count() * 100 // len(self.faces)

    # -- moves -----------------------------------------------------------------------
    def remove(self, i: int, j: int) -> Position:
        ok, reason = self.can_remove(i, j)
        if not ok:
            raise IllegalMove(reason)
        return Position(self.layout, self.faces, self.alive & ~(1 << i | 1 << j))

    def undo(self, i: int, j: int) -> Position:
        """Put back the pair (i, j), which must be the last pair removed."""
        for k in (i, j):
            self._check_index(k)
            if self.is_alive(k):
                raise IllegalMove(f"tile {k} is still on the table")
        restored = Position(self.layout, self.faces, self.alive | 1 << i | 1 << j)
        if not (restored.is_free(i) and restored.is_free(j)) or not restored.can_remove(i, j)[0]:
            raise IllegalMove(f"({i}, {j}) cannot have been the last pair removed")
        return restored

    def play(self, plan) -> Position:
        position = self
        for i, j in plan:
            position = position.remove(i, j)
        return position

    def _check_index(self, i: int) -> None:
        if not isinstance(i, int) or not 0 <= i < len(self.faces):
            raise IllegalMove(f"no tile {i!r} in this deal")


class IllegalMove(ValueError):
    """A pair the rules refuse; the message says why."""
