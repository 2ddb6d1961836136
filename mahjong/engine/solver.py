"""Decide any position with full information, and find a winning plan when there is one.

Depth-first search over pairs of free matching tiles, memoised on the `alive` bitmask
(a dead set of tiles is dead however it was reached). What keeps it fast:

* Safe closure: when every remaining tile of a match class is free, removing them all
  loses nothing (removals only ever free tiles, and those tiles only match each other),
  so they go without branching.
* Locked pairs: when a move leaves the last two tiles of a class, they must leave
  together, after every pair lying on them (even through other tiles). If following
  "must leave after" through the classes whose last pair is known comes back to the
  pair, none of them can ever go: that move is never tried.
* Ordering: pairs that hold more tiles down go first.

All pruning is provably safe, so "unsolvable" is a proof, not a guess.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from .layout import Layout, bits
from .tiles import MATCH_CLASSES, match_class


@dataclass(frozen=True)
class SolveResult:
    solvable: bool | None  # None: the time limit ran out first
    plan: tuple[tuple[int, int], ...] | None
    nodes: int
    seconds: float


class _OutOfTime(Exception):
    pass


class Solver:
    """A solver for one deal (layout + faces). Reuse it across positions of that deal:
    what it proved dead stays dead."""

    def __init__(self, layout: Layout, faces) -> None:
        self.layout = layout
        self.faces = tuple(faces)
        n = len(layout)
        if len(self.faces) != n:
            raise ValueError(f"{len(self.faces)} faces for a layout of {n} tiles")
        by_class = [0] * MATCH_CLASSES
        for i, face in enumerate(self.faces):
            by_class[match_class(face)] |= 1 << i
        self.class_masks = tuple(m for m in by_class if m)
        self.weight = self._weights()
        self.dead: set[int] = set()
        self.nodes = 0
        self._deadline: float | None = None

    def _weights(self) -> tuple[int, ...]:
        """How much a tile holds back: tiles lying under it, and its row neighbours."""
        lay = self.layout
        return tuple(
            lay.under_all[i].bit_count() * 4 + lay.affects[i].bit_count() for i in range(len(lay))
        )

    def is_hopeless(self, alive: int) -> bool:
        """A static proof of death: a class with an odd count, or one that cannot be paired
        without a tile lying on its own partner."""
        under = self.layout.under_all
        for m in self.class_masks:
            left = bits(alive & m)
            if len(left) % 2 or (len(left) in (2, 4) and not _can_pair(left, under)):
                return True
        fixed = [p for p in (alive & m for m in self.class_masks) if p.bit_count() == 2]
        return any(_locked(p, fixed, under) for p in fixed)

    def solve(self, alive: int | None = None, time_limit: float | None = None) -> SolveResult:
        start = time.perf_counter()
        if alive is None:
            alive = self.layout.full
        nodes_before = self.nodes
        self._deadline = None if time_limit is None else start + time_limit
        path: list[tuple[int, int]] = []
        if sys.getrecursionlimit() < len(self.layout) + 200:
            sys.setrecursionlimit(len(self.layout) + 200)
        try:
            ok = not self.is_hopeless(alive) and self._search(
                alive, self.layout.free_mask(alive), path
            )
        except _OutOfTime:
            return SolveResult(None, None, self.nodes - nodes_before, time.perf_counter() - start)
        plan = tuple(path) if ok else None
        return SolveResult(ok, plan, self.nodes - nodes_before, time.perf_counter() - start)

    def _search(self, alive: int, free: int, path: list) -> bool:
        self.nodes += 1
        deadline = self._deadline
        if deadline is not None and not self.nodes & 255 and time.perf_counter() > deadline:
            raise _OutOfTime
        dead = self.dead
        entry_alive = alive
        mark = len(path)
        layout = self.layout
        masks = self.class_masks
        while True:  # safe closure
            gone = 0
            for m in masks:
                left = alive & m
                if left and free & left == left:
                    gone |= left
                    tiles = bits(left)
                    for k in range(0, len(tiles), 2):
                        path.append((tiles[k], tiles[k + 1]))
            if not gone:
                break
            alive &= ~gone
            if not alive:
                return True
            free = layout.update_free(free, alive, gone)
        if alive in dead:
            del path[mark:]
            dead.add(entry_alive)
            return False
        for a, b in self._moves(alive, free):
            gone = 1 << a | 1 << b
            rest = alive & ~gone
            path.append((a, b))
            if self._search(rest, layout.update_free(free, rest, gone), path):
                return True
            path.pop()
        dead.add(alive)
        dead.add(entry_alive)
        del path[mark:]
        return False

    def _moves(self, alive: int, free: int) -> list[tuple[int, int]]:
        """Playable pairs worth trying, best first; pairs that lock their class are left out."""
        under = self.layout.under_all
        weight = self.weight
        masks = self.class_masks
        fixed = None  # the classes with two tiles left: their last pair is known
        moves = []
        for m in masks:
            f = free & m
            if not f & (f - 1):
                continue
            tiles = bits(f)
            rest_all = alive & m
            for k, a in enumerate(tiles):
                for b in tiles[k + 1 :]:
                    rest = rest_all & ~(1 << a | 1 << b)
                    if rest and rest.bit_count() == 2:
                        if fixed is None:
                            fixed = [p for p in (alive & q for q in masks) if p.bit_count() == 2]
                        if _locked(rest, fixed, under):
                            continue
                    moves.append((weight[a] + weight[b], a, b))
        moves.sort(reverse=True)
        return [(a, b) for _, a, b in moves]


def _locked(pair: int, fixed: list[int], under) -> bool:
    """Whether the last pair `pair` of a class can never leave the table.

    A pair must leave after every pair one of whose tiles lies (even through others) on one
    of its tiles. Following that relation from `pair` through the other classes whose last
    pair is known, coming back to `pair` is a cycle: none of them can ever go.
    """
    x, y = bits(pair)
    after = under[x] | under[y]
    if after & pair:
        return True
    pending = [p for p in fixed if p != pair]
    grew = True
    while grew:
        grew = False
        for p in pending:
            if p & after:
                a, b = bits(p)
                after |= under[a] | under[b]
                if after & pair:
                    return True
                pending.remove(p)
                grew = True
                break
    return False


def _can_pair(tiles: list[int], under) -> bool:
    def ok(a: int, b: int) -> bool:
        return not (under[a] >> b & 1 or under[b] >> a & 1)

    if len(tiles) == 2:
        return ok(*tiles)
    a, b, c, d = tiles
    return (ok(a, b) and ok(c, d)) or (ok(a, c) and ok(b, d)) or (ok(a, d) and ok(b, c))


def solve(layout: Layout, faces, alive: int | None = None, time_limit: float | None = None):
    """Decide the position (layout, faces, alive); see SolveResult."""
    return Solver(layout, faces).solve(alive, time_limit)
