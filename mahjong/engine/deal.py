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
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from .catalog import layout_by_number
from .codes import (
    REAL_SET_VERSION,
    VERSION,
    CodeError,
    make_code,
    make_stored_code,
    parse_versioned_code,
    random_seed,
)
from .layout import Layout, LayoutError, bits, flowers_by_count
from .position import Position
from .prng import Prng
from .tiles import FIRST_FLOWER, FIRST_SEASON, FULL_SET_SIZE, REGULAR_FACES

SEED_STRIDE = 26**7  # keeps the PRNG seeds of different layout numbers apart
# Stored layout id k seeds from (STORED_BASE + k) * SEED_STRIDE: above every L number
# (0..99), so no U deal shares its PRNG stream with an L deal; the largest id (10**9 - 1)
# still stays below 2**63.
STORED_BASE = 100
REGULAR_PAIRS = 2 * REGULAR_FACES  # 68: each regular face twice per set
BONUS_PAIRS = 4  # two pairs of flowers, two of seasons
DEFAULT_NODE_LIMIT = 2_000_000
REPORT_NODE_LIMIT = 200_000  # the editor's "test" answers within a few seconds


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


def deal_from_code(code: str, stored: Callable[[int], Layout] | None = None) -> Deal:
    """The deal a game code names; CodeError for a malformed code or unknown layout.

    A U code (a layout the site stored) asks `stored(id)` for its layout; without
    `stored`, or when it raises LookupError, the code names an unknown stored layout.
    """
    version, kind, number, seed = parse_versioned_code(code)
    if kind == "U":
        try:
            layout = stored(number) if stored is not None else None
        except LookupError:
            layout = None
        if layout is None:
            raise CodeError(f"unknown stored layout U{number} in game code {code!r}")
        return stored_deal(layout, number, seed, version)
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


def stored_code_version(tiles: int) -> str:
    """The version of new codes on a stored layout of `tiles` places: MJ2 where MJ1 drew
    more than one set of regular faces under 144 places (137..143), else MJ1."""
    return REAL_SET_VERSION if 2 * REGULAR_PAIRS < tiles < FULL_SET_SIZE else VERSION


def stored_deal(
    layout: Layout, layout_id: int, seed: int | None = None, version: str | None = None
) -> Deal:
    """A solvable deal on the site's stored layout `layout_id`, with its U code.

    The stored places alone fix the deal (docs/LAYOUTS.md §Codes): they are taken in file
    order (layer, row, column) however the caller listed them, and flowers follow the
    tile count whatever `layout.flowers` says. The deal's `layout` is that ordered one.
    `version` is the code's; a new code gets `stored_code_version` of its tile count.
    """
    if seed is None:
        seed = random_seed()
    version = version or stored_code_version(len(layout.positions))
    code = make_stored_code(layout_id, seed, version)
    places = tuple(sorted(layout.positions, key=lambda p: (p[2], p[1], p[0])))
    flowers = flowers_by_count(len(places))
    if places != layout.positions or layout.flowers != flowers or layout.number is not None:
        layout = Layout(name=layout.name, positions=places, flowers=flowers)
    rng = Prng((STORED_BASE + layout_id) * SEED_STRIDE + seed)
    faces, plan = generate(layout, rng, flowers, real_set=version != VERSION)
    return Deal(layout, faces, plan, code)


def _deal_for_seed(layout: Layout, number: int, seed: int) -> Deal:
    code = make_code(number, seed)
    faces, plan = generate(layout, Prng(number * SEED_STRIDE + seed), layout.flowers)
    return Deal(layout, faces, plan, code)


def generate(layout: Layout, rng: Prng, flowers: bool, real_set: bool = True):
    """(faces, plan) for a solvable deal on layout; `real_set` as in draw_pair_faces."""
    plan = removal_order(layout, layout.full, rng)
    if plan is None:
        raise NoSolvableDeal(
            f"layout {layout.name!r} has no solvable deal: its {len(layout)} positions can "
            "never all be removed in pairs of free tiles, whatever the faces"
        )
    pair_faces = draw_pair_faces(len(plan), flowers, rng, real_set)
    return paint(len(layout), plan, pair_faces), tuple(plan)


def paint(size: int, plan, pair_faces) -> tuple[int, ...]:
    faces = [0] * size
    for (a, b), (fa, fb) in zip(plan, pair_faces, strict=True):
        faces[a], faces[b] = fa, fb
    return tuple(faces)


def draw_pair_faces(
    n_pairs: int, flowers: bool, rng: Prng, real_set: bool = True
) -> list[tuple[int, int]]:
    """n_pairs matching face pairs, drawn at random from the tile set, in random order.

    Each regular face gives two pairs per set, so a face shows 0, 2 or 4 times. Without
    `flowers`, a layout of 138..142 places takes all 136 regular tiles and then as many
    flowers, then seasons, as it needs (each once: they match within their group), as a
    real set does. A layout bigger than a set reuses faces in whole pairs, one more pair
    per face before any face gets two more, so the extra copies spread over many faces
    (docs/LAYOUTS.md §Faces). `real_set=False` is how MJ1 codes on stored layouts of
    138..142 places drew: regular faces only, some six times (docs/ENGINE.md §Game codes).
    """
    if flowers and n_pairs < BONUS_PAIRS:
        raise LayoutError("flowers and seasons need at least 8 positions")
    bonus = BONUS_PAIRS if flowers else min(BONUS_PAIRS, max(0, n_pairs - REGULAR_PAIRS))
    pairs = _bonus_pairs(rng)[:bonus] if flowers or (bonus and real_set) else []
    per_face = 2  # the first set: two pairs of each face
    while len(pairs) < n_pairs:
        pool = [face for face in range(REGULAR_FACES) for _ in range(per_face)]
        rng.shuffle(pool)
        pairs += [(face, face) for face in pool[: n_pairs - len(pairs)]]
        per_face = 1
    rng.shuffle(pairs)
    return pairs


def _bonus_pairs(rng: Prng) -> list[tuple[int, int]]:
    """Two pairs of flowers, then two of seasons, each tile once (any two of a group
    match, docs/RULES.md §Tiles)."""
    pairs = []
    for first in (FIRST_FLOWER, FIRST_SEASON):
        group = list(range(first, first + 4))
        rng.shuffle(group)
        pairs += [(group[0], group[1]), (group[2], group[3])]
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


def playable_report(layout: Layout) -> str | None:
    """Why no deal on `layout` can be won, in plain English, or None when one can.

    The layout editor's "test" button (docs/LAYOUTS.md): the cheap structural faults
    first, with words a player understands, then the blank search of a deal itself.
    """
    count = len(layout)
    if count == 0:
        return "the layout has no tiles"
    if count % 2:
        return f"it has {count} tiles: an odd number of tiles can never all be paired"
    stuck = _tower_report(layout)
    if stuck:
        return stuck
    try:
        order = removal_order(layout, layout.full, Prng(0), REPORT_NODE_LIMIT)
    except NoSolvableDeal:
        return (
            "no way to clear it was found in a long search: it may have none; try fewer "
            "layers or more tiles beside the tall stacks"
        )
    if order is None:
        return (
            "no order clears it, whatever the faces: some tiles are never free at the same "
            "time as a partner (often a stack taller than the tiles around it)"
        )
    return None


def _tower_report(layout: Layout) -> str | None:
    """A tile that holds down every other tile, or fewer than two free tiles at the start."""
    positions = layout.positions
    for i, (x, y, z) in enumerate(positions):
        if z and layout.under_all[i] | 1 << i == layout.full:
            where = f"column {x + 1}, row {y + 1}"
            if all((px, py) == (x, y) for px, py, _ in positions):
                return (
                    f"a stack of {len(positions)} tiles at {where} can never be cleared: "
                    "its top tile is never free at the same time as another tile"
                )
            return (
                f"the tile at {where} on layer {z + 1} sits on all the others: "
                "no other tile is ever free at the same time to pair with it"
            )
    free = layout.free_mask(layout.full)
    if free.bit_count() < 2:
        return "fewer than two tiles are free at the start, so no first pair can be played"
    return None
