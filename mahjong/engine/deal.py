"""Solvable deals, built by reverse play over blank positions.

1. Remove random pairs of free *blank* positions until the table is empty, backtracking
   (with a memo of dead ends) when fewer than two positions are free. The removal order
   is a winning plan whatever faces the pairs get.
2. Paint a matching pair of faces on each pair of that plan.

If the search exhausts every removal order, no face assignment can win on that layout,
and the deal functions say so (NoSolvableDeal) instead of dealing an unwinnable game.
Everything random goes through `Prng`, so a code names the same deal forever: changing
the order of any draw below changes every pinned deal.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from itertools import combinations

from .catalog import layout_by_number
from .codes import CodeError, make_code, parse_code, random_seed
from .layout import Layout, LayoutError, bits
from .position import Position
from .prng import Prng
from .tiles import FIRST_FLOWER, FIRST_SEASON, REGULAR_FACES

SEED_STRIDE = 26**7  # keeps the PRNG seeds of different layout numbers apart
DEFAULT_NODE_LIMIT = 2_000_000


class NoSolvableDeal(ValueError):
    """No assignment of faces to these positions can be won."""


@dataclass(frozen=True)
class Deal:
    layout: Layout
    faces: tuple[int, ...]
    plan: tuple[tuple[int, int], ...]
    code: str | None = None

    def start(self) -> Position:
        return Position.start(self.layout, self.faces)


def deal_from_code(code: str) -> Deal:
    """The deal a game code names; CodeError for a malformed code or unknown layout."""
    number, seed = parse_code(code)
    try:
        layout = layout_by_number(number)
    except LayoutError:
        raise CodeError(f"unknown layout number L{number:02d} in game code {code!r}") from None
    return _deal_for_seed(layout, number, seed)


def new_deal(layout: Layout, seed: int | None = None) -> Deal:
    """A solvable deal on any layout. Built-in layouts get a game code; others don't."""
    if seed is None:
        seed = random_seed()
    if layout.number is not None:
        return _deal_for_seed(layout, layout.number, seed)
    faces, plan = generate(layout, Prng(seed), layout.flowers)
    return Deal(layout, faces, plan, None)


def _deal_for_seed(layout: Layout, number: int, seed: int) -> Deal:
    code = make_code(number, seed)
    faces, plan = generate(layout, Prng(number * SEED_STRIDE + seed), layout.flowers)
    return Deal(layout, faces, plan, code)


def generate(layout: Layout, rng: Prng, flowers: bool):
    """(faces, plan) for a solvable deal on layout."""
    plan = removal_order(layout, layout.full, rng)
    if plan is None:
        raise NoSolvableDeal(
            f"layout {layout.name!r} has no solvable deal: its {len(layout)} positions can "
            "never all be removed in pairs of free tiles, whatever the faces"
        )
    return paint(len(layout), plan, draw_pair_faces(len(plan), flowers, rng)), tuple(plan)


def paint(size: int, plan, pair_faces) -> tuple[int, ...]:
    faces = [0] * size
    for (a, b), (fa, fb) in zip(plan, pair_faces, strict=True):
        faces[a], faces[b] = fa, fb
    return tuple(faces)


def draw_pair_faces(n_pairs: int, flowers: bool, rng: Prng) -> list[tuple[int, int]]:
    """n_pairs matching face pairs, drawn at random from the tile set, in random order.

    Each regular face gives two pairs per set, so a face shows 0, 2 or 4 times; layouts
    bigger than a set draw from a fresh set once one runs out (whole pairs only).
    """
    pairs: list[tuple[int, int]] = []
    if flowers:
        if n_pairs < 4:
            raise LayoutError("flowers and seasons need at least 8 positions")
        for first in (FIRST_FLOWER, FIRST_SEASON):
            group = list(range(first, first + 4))
            rng.shuffle(group)
            pairs += [(group[0], group[1]), (group[2], group[3])]
    while len(pairs) < n_pairs:
        pool = [face for face in range(REGULAR_FACES) for _ in range(2)]
        rng.shuffle(pool)
        pairs += [(face, face) for face in pool[: n_pairs - len(pairs)]]
    rng.shuffle(pairs)
    return pairs


def removal_order(layout: Layout, alive: int, rng: Prng, node_limit: int = DEFAULT_NODE_LIMIT):
    """A random order removing every live position in pairs of free ones, or None if none.

    Depth-first: the first try at each step is one random pair; only after that subtree
    fails are the other pairs tried, in random order. Dead `alive` sets are remembered.
    """
    search = _BlankSearch(layout, rng, node_limit)
    if sys.getrecursionlimit() < len(layout) + 200:
        sys.setrecursionlimit(len(layout) + 200)
    if search.run(alive, layout.free_mask(alive)):
        return search.path
    return None


class _BlankSearch:
    def __init__(self, layout: Layout, rng: Prng, node_limit: int) -> None:
        self.layout = layout
        self.rng = rng
        self.node_limit = node_limit
        self.nodes = 0
        self.dead: set[int] = set()
        self.path: list[tuple[int, int]] = []

    def run(self, alive: int, free: int) -> bool:
        if not alive:
            return True
        if alive in self.dead:
            return False
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise NoSolvableDeal(
                f"gave up on layout {self.layout.name!r} after {self.node_limit} positions "
                "without finding a removal order"
            )
        free_list = bits(free)
        if len(free_list) >= 2:
            first = self.pick(free_list)
            if self.try_pair(alive, free, first):
                return True
            others = [p for p in combinations(free_list, 2) if p != first]
            self.rng.shuffle(others)
            for pair in others:
                if self.try_pair(alive, free, pair):
                    return True
        self.dead.add(alive)
        return False

    def try_pair(self, alive: int, free: int, pair: tuple[int, int]) -> bool:
        a, b = pair
        gone = 1 << a | 1 << b
        rest = alive & ~gone
        self.path.append(pair)
        if self.run(rest, self.layout.update_free(free, rest, gone)):
            return True
        self.path.pop()
        return False

    def pick(self, free_list: list[int]) -> tuple[int, int]:
        """A random pair of free positions, avoiding side-by-side neighbours when it can.

        Neighbours that leave together would show as identical twins side by side, the
        mark of a dull deal; one redraw makes that rare without forbidding it.
        """
        rng, n = self.rng, len(free_list)
        a = free_list[rng.below(n)]
        b = self._other(free_list, a)
        touching = self.layout.left[a] | self.layout.right[a]
        if touching >> b & 1 and n > 2:
            b = self._other(free_list, a)
        return (a, b) if a < b else (b, a)

    def _other(self, free_list: list[int], a: int) -> int:
        k = self.rng.below(len(free_list) - 1)
        b = free_list[k]
        return free_list[-1] if b == a else b


def random_faces(layout: Layout, seed: int) -> tuple[int, ...]:
    """The layout filled at random with no solvability guarantee (for solver studies).

    On a 144-tile layout with flowers this is a uniformly shuffled full tile set; other
    sizes get matching pairs drawn as for a deal, then scattered uniformly.
    """
    rng = Prng(seed)
    faces = [f for pair in draw_pair_faces(len(layout) // 2, layout.flowers, rng) for f in pair]
    rng.shuffle(faces)
    return tuple(faces)
