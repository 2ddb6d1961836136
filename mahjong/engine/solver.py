"""Decide any position with full information, and find a winning plan when there is one.

Depth-first search over pairs of free matching tiles, memoised on the `alive` bitmask
(a dead set of tiles is dead however it was reached). What keeps it fast:

* Safe closure: when every remaining tile of a match class is free, removing them all
  loses nothing (removals only ever free tiles, and those tiles only match each other),
  so they go without branching.
* Locked pairs: when a move leaves the last two tiles of a class, they must leave
  together, after every tile lying on them (even through others) and, for two tiles in
  one plain row, after every tile beyond them on both sides. Following that "must leave
  before" relation through the classes whose last pair is known, coming back to the pair
  means none of them can ever go: such a move is never tried.
* Relaxed game (relaxed.py): a move that leaves the last two tiles of a class is only
  tried if a relaxed game, in which a tile may leave whenever it is free and a classmate
  is free or gone, can still be cleared. Greedy decides that game, so a stall is a proof
  of death; it catches what the locked-pair test cannot (rows, and classes of four).
* Ordering: moves that free more tiles first, then tiles that hold more down (under
  them, or behind them in their row), and last pairs that would be left deep in the heap
  last.
* Restarts: a wrong early choice can hide a win behind a huge dead subtree, so the
  search restarts a few times with short node budgets and noise in the order. Once,
  part way, the deepest line so far is tried as a pairing of every class and repaired
  a few classes at a time (no search; see pairings.py): that wins a third of the deals that
  get there.
* Pairings (pairings.py): what the short rounds leave undecided goes to a complete
  search over how each class pairs up, for which the order of moves does not matter
  (once every class is paired, greedy decides the game). It decides in tenths of a
  second most deals the move search cannot decide in minutes; on the hardest, a second
  pairing search with lighter pruning races it. The deepest line the short rounds
  reached goes with it: the matchings that line gave its classes are tried first (a
  fifth fewer trials on the deals that get there). (Layouts too large for the relaxed
  test's grid encoding keep searching moves with no budget instead.)

All pruning is provably safe, so "unsolvable" is a proof, not a guess.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from itertools import combinations

from .layout import Layout, bits
from .pairings import PairingRace, PairingSearch
from .pairings import _OutOfTime as _PairingsOutOfTime
from .prng import Prng
from .relaxed import Relaxed
from .tiles import MATCH_CLASSES, match_class


@dataclass(frozen=True)
class SolveResult:
    solvable: bool | None  # None: the time limit ran out first
    plan: tuple[tuple[int, int], ...] | None
    nodes: int
    seconds: float


class _OutOfTime(Exception):
    pass


class _OutOfBudget(Exception):
    pass


GAIN = 32  # order: tiles freed by a move, against how much the tiles hold down
REST_PENALTY = 8  # order: a last pair left deep in the heap waits long
NOISE = 700  # order noise on restarts: measured best among 96..3000 on hard deals
# The noise is read from a fixed table (a Prng call a move cost ~2 us, a tenth of a node);
# each restart round starts at its own place in it.
NOISE_MASK = (1 << 13) - 1
NOISE_STRIDE = 2477
_NOISE_TABLE: list[tuple[int, ...]] = []


def _noise_table() -> tuple[int, ...]:
    """NOISE_MASK + 1 values below NOISE (three from each 64-bit draw), built on first use."""
    if not _NOISE_TABLE:
        rng = Prng(0x4E4F495345)
        values = []
        while len(values) <= NOISE_MASK:
            word = rng.next64()
            values += [(word >> shift & 0x1FFFFF) % NOISE for shift in (0, 21, 42)]
        _NOISE_TABLE.append(tuple(values[: NOISE_MASK + 1]))
    return _NOISE_TABLE[0]


# Node budgets of the move search's restart rounds. With the relaxed-game test a typical
# deal takes ~50 nodes, so the rounds are short (40 measured better than 150 and 30).
# What they leave undecided (~10% of random turtle deals) goes to the pairing search,
# which takes ~0.1 s on a typical deal and decides most hard ones within a second.
# Deals 0..299 at 1 s CPU, mean ms: 10x40 64.7, 15x40 64.4, 25x40 66.9, 60x40+10x150 85.7.
RESTART_BUDGETS = (40,) * 15
# Before round REPAIR_ROUND the deepest line so far is tried as a pairing of every class,
# repaired up to EARLY_REPAIR_STEPS times (Solver._repaired_line). Deals 0..1999: it wins
# 179 of the 551 deals that reach round 5 (59 of them would have gone to the pairing
# search), the mean 20.85 -> 20.09 ms in simulation from per-deal figures (before round 3
# or 8: 20.15, 20.24; 10 steps: 21.09 against 21.80; with the pairing search's pruning
# first, 3 steps: 20.85 against 21.16).
REPAIR_ROUND = 5
EARLY_REPAIR_STEPS = 4
FREED_MEMO = 200_000  # misses of the per-layout "what a tile frees" memo before it starts afresh


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
        self.relaxed = Relaxed(layout, tuple(by_class[match_class(f)] for f in self.faces))
        self.precedence = _precedence(layout)
        self.weight = self._weights()
        self.dead: set[int] = set()
        # The tiles around each tile whose presence decides what removing it alone frees:
        # the key of the move generator's memo (`_Precedence.freed_by`).
        self._hood = _hoods(layout)
        # Per number of free tiles in a class: the pairs of their positions (Solver._moves).
        most = max((m.bit_count() for m in self.class_masks), default=0)
        self._index_pairs = [tuple(combinations(range(n), 2)) for n in range(most + 1)]
        self.nodes = 0
        self._deadline: float | None = None
        self._budget_end: int | None = None
        self._noise: int | None = None  # on restarts: the next place to read in the noise table
        self._deepest: tuple = ()  # the longest line of play the move search reached

    def _weights(self) -> tuple[int, ...]:
        """How much a tile holds back: tiles lying under it, and the longer side of its row
        (a row's end tile stands between the player and every tile behind it)."""
        lay, pre = self.layout, self.precedence
        return tuple(
            lay.under_all[i].bit_count() * 4
            + 2 * max((pre.left_all[i] & ~pre.above[i]).bit_count(), pre.right_all[i].bit_count())
            for i in range(len(lay))
        )

    def is_hopeless(self, alive: int) -> bool:
        """A static proof of death: a class with an odd count, or one that cannot be paired
        without a tile lying on its own partner."""
        under = self.layout.under_all
        for m in self.class_masks:
            left = bits(alive & m)
            if len(left) % 2 or (len(left) in (2, 4) and not _can_pair(left, under)):
                return True
        fixed, union = self._fixed(alive)
        locked, class_of = self.precedence.locked, self.relaxed.class_of_tile
        if any(locked(p, union, class_of) for p in fixed):
            return True
        if not self.relaxed.passes(alive, self.layout.free_mask(alive)):
            return True
        for m in self.class_masks:
            left = bits(alive & m)
            if len(left) == 4 and all(
                locked(p, union | q, class_of) or locked(q, union | p, class_of)
                for p, q in _pairings(left)
            ):
                return True
        return False

    def solve(self, alive: int | None = None, time_limit: float | None = None) -> SolveResult:
        start = time.perf_counter()
        if alive is None:
            alive = self.layout.full
        nodes_before = self.nodes
        self._deadline = None if time_limit is None else start + time_limit
        self._deepest = ()
        path: list[tuple[int, int]] = []
        if sys.getrecursionlimit() < len(self.layout) + 200:
            sys.setrecursionlimit(len(self.layout) + 200)
        try:
            ok = not self.is_hopeless(alive) and self._restarts(alive, path)
        except _OutOfTime:
            return SolveResult(None, None, self.nodes - nodes_before, time.perf_counter() - start)
        plan = tuple(path) if ok else None
        return SolveResult(ok, plan, self.nodes - nodes_before, time.perf_counter() - start)

    def _restarts(self, alive: int, path: list) -> bool:
        """Depth-first search, restarted with a node budget and varied order, then the
        complete pairing search (or, without it, a last move round with no budget).

        A wrong early choice can hide a win behind a huge dead subtree; restarting with a
        slightly different order finds one of the many wins of a typical deal sooner. What
        was proved dead stays in the memo.
        """
        free = self.layout.free_mask(alive)
        cells = self.relaxed.cells(alive)
        self.relaxed.start(alive)
        pairs = self._fixed(alive)[1]
        pairings = self.relaxed.grid is not None and all(
            (alive & m).bit_count() <= 4 for m in self.class_masks
        )
        for round_number, budget in enumerate(RESTART_BUDGETS):
            if round_number == REPAIR_ROUND and pairings and self._repaired_line(alive, path):
                return True
            self._noise = round_number * NOISE_STRIDE if round_number else None
            self._budget_end = self.nodes + budget
            try:
                return self._search(alive, free, cells, pairs, path)
            except _OutOfBudget:
                del path[:]
        if pairings:
            return self._by_pairings(alive, path)
        self._noise = len(RESTART_BUDGETS) * NOISE_STRIDE
        self._budget_end = None
        return self._search(alive, free, cells, pairs, path)

    def _repaired_line(self, alive: int, path: list) -> bool:
        """Whether the deepest line so far, taken as a pairing of every class and repaired
        a few classes at a time (PairingSearch.repair_phase), wins; if so `path` is its plan.
        Cheap (no search), so it is tried once before the later, longer part of the move
        rounds: it wins about a third of the deals that get there."""
        search = PairingSearch(
            self.relaxed.grid,
            self.class_masks,
            alive,
            lambda: False,
            phase=self._deepest,
            repair_steps=EARLY_REPAIR_STEPS,
        )
        plan = search.repair_phase()
        self.nodes += search.checks
        return _extended(path, plan)

    def _by_pairings(self, alive: int, path: list) -> bool:
        """The complete search over how classes pair up (pairings.py), for the deals the
        move search did not decide in its short rounds. (Only with at most four tiles to a
        class, as in every real deal: six or eight make 15 or 105 pairings a class.)"""
        deadline = self._deadline
        search = PairingRace(
            self.relaxed.grid,
            self.class_masks,
            alive,
            lambda: deadline is not None and time.perf_counter() > deadline,
            phase=self._deepest,
        )
        try:
            plan = search.solve()
        except _PairingsOutOfTime:
            raise _OutOfTime from None
        finally:
            self.nodes += search.checks
        return _extended(path, plan)

    def _search(
        self, alive: int, free: int, cells: int, pairs: int, path: list, check: int = -1
    ) -> bool:
        """Whether `alive` (with free mask `free`, `cells` its grid encoding for the relaxed
        test, `pairs` the tiles of the classes with two left) can be cleared; if so `path`
        ends with a plan. Only the classes of the tiles in `check` can have become all free
        since the parent (the tiles the move freed, and the rest of its class)."""
        self.nodes += 1
        if self._budget_end is not None and self.nodes > self._budget_end:
            raise _OutOfBudget
        deadline = self._deadline
        if deadline is not None and not self.nodes & 255 and time.perf_counter() > deadline:
            raise _OutOfTime
        if not alive:
            return True
        if len(path) > len(self._deepest):
            self._deepest = tuple(path)
        dead = self.dead
        if alive in dead:  # most revisits end here, before any work
            return False
        entry_alive = alive
        mark = len(path)
        layout = self.layout
        relaxed = self.relaxed
        class_of = relaxed.class_of_tile
        while True:  # safe closure
            gone = 0
            check &= alive
            while check:
                m = class_of[(check & -check).bit_length() - 1]
                check &= ~m
                left = alive & m
                if free & left == left:
                    gone |= left
                    tiles = bits(left)
                    for k in range(0, len(tiles), 2):
                        path.append((tiles[k], tiles[k + 1]))
            if not gone:
                break
            alive &= ~gone
            if not alive:
                return True
            before = free
            free = layout.update_free(free, alive, gone)
            check = free & ~before  # only their classes can be all free now
            cells &= ~relaxed.cells(gone)
            pairs &= ~gone
        if alive in dead:
            del path[mark:]
            dead.add(entry_alive)
            return False
        cell = relaxed.cell_of_tile
        for _, a, b, child_free, rest in self._moves(alive, free, pairs):
            child = alive ^ (1 << a | 1 << b)  # x ^ y, not x & ~y (y in x): cheaper
            child_cells = cells ^ (cell[a] | cell[b])  # both on the table
            # Only a move leaving tiles of its class can fail the relaxed test (see relaxed.py);
            # a child already proved dead returns at once, so it needs no test.
            if (
                rest
                and child not in dead
                and not relaxed.passes_after(child, child_free, child_cells, rest)
            ):
                dead.add(child)
                continue
            path.append((a, b))
            child_pairs = pairs ^ (pairs & class_of[a])
            if rest and rest.bit_count() == 2:
                child_pairs |= rest
            check = child_free ^ (child_free & free) | rest
            if self._search(child, child_free, child_cells, child_pairs, path, check):
                return True
            path.pop()
        dead.add(alive)
        dead.add(entry_alive)
        del path[mark:]
        return False

    def _moves(self, alive: int, free: int, pairs: int) -> list[tuple[int, ...]]:
        """Playable pairs worth trying, best first, as (score, a, b, the free mask after the
        move, the tiles it leaves of its class).

        Pairs that would lock their class are left out. Best = frees the most tiles, then
        holds the most down; on restarts a little noise varies the order among near ties.
        """
        layout = self.layout
        affects, covers, left, right = layout.affects, layout.covers, layout.left, layout.right
        locked = self.precedence.locked
        before = self.precedence.before
        known = self.precedence.cache  # before() answers, looked up without the call
        weight = self.weight
        masks = self.class_masks
        noise = self._noise
        if noise is not None:
            noise_table = _noise_table()
        class_of = self.relaxed.class_of_tile
        precedence = self.precedence
        if precedence.freed_count > FREED_MEMO:
            precedence.freed_by = [{} for _ in precedence.freed_by]
            precedence.freed_count = 0
        freed_by, hood = precedence.freed_by, self._hood
        index_pairs = self._index_pairs
        moves = []
        for m in masks:
            f = free & m
            if not f & (f - 1):
                continue
            tiles = []
            gains = []  # what each tile alone would free: known for the tiles around it
            while f:
                low = f & -f
                f ^= low
                t = low.bit_length() - 1
                tiles.append(t)
                seen = freed_by[t]
                key = alive & hood[t]
                gain = seen.get(key)
                if gain is None:
                    gain = self._frees(t, alive, free)
                    seen[key] = gain
                gains.append(gain)
            rest_all = alive & m
            # One flat loop over the pairs of free tiles (mostly just one pair).
            for ka, kb in index_pairs[len(tiles)]:
                a = tiles[ka]
                b = tiles[kb]
                gone = 1 << a | 1 << b
                rest = rest_all ^ gone
                last_pair = rest and rest.bit_count() == 2
                if last_pair:
                    # Precedence.locked, its quick answers written out.
                    need = known.get(rest)
                    if need is None:
                        need = before(rest)
                    if need & rest:
                        continue
                    if need & pairs & ~rest and locked(rest, pairs, class_of):
                        continue
                child_alive = alive ^ gone
                child_free = free & child_alive
                if not affects[a] & affects[b]:
                    # No tile waits on both: what each frees alone, together.
                    gain = gains[ka] | gains[kb]
                    child_free |= gain
                    freed = gain.bit_count()
                else:
                    # The free mask after the move (as Layout.update_free, written out).
                    todo = (affects[a] | affects[b]) & child_alive & ~free
                    freed = 0
                    while todo:
                        low = todo & -todo
                        todo ^= low
                        i = low.bit_length() - 1
                        if not child_alive & covers[i] and (
                            not child_alive & left[i] or not child_alive & right[i]
                        ):
                            child_free |= low
                            freed += 1
                score = freed * GAIN + weight[a] + weight[b]
                if REST_PENALTY and last_pair:
                    # Leaving a last pair deep in the heap commits it to a long wait.
                    score -= REST_PENALTY * (need & alive).bit_count()
                if noise is not None:
                    score += noise_table[noise & NOISE_MASK]
                    noise += 1
                moves.append((score, a, b, child_free, rest))
        if noise is not None:
            self._noise = noise
        moves.sort(reverse=True)
        return moves

    def _frees(self, t: int, alive: int, free: int) -> int:
        """The tiles that removing tile t alone would free (t free in `alive`)."""
        self.precedence.freed_count += 1
        # Only on a miss of the memo (`freed_by`), so the shared free-mask update serves.
        return self.layout.update_free(free, alive & ~(1 << t), 1 << t) & ~free

    def _fixed(self, alive: int) -> tuple:
        """The last pairs of the classes with two tiles left, and their union."""
        pairs = [p for q in self.class_masks if (p := alive & q).bit_count() == 2]
        union = 0
        for p in pairs:
            union |= p
        return pairs, union


def _extended(path: list, plan) -> bool:
    """Whether a pairing search found a plan; if so `path` ends with it."""
    if plan is None:
        return False
    path.extend(plan)
    return True


def _hoods(layout: Layout) -> tuple[int, ...]:
    """Per tile t: the tiles whose presence decides what removing t frees (the tiles it
    covers or touches, and every tile that could still hold those down)."""
    return _precedence(layout).hoods


def _hoods_of(layout: Layout) -> tuple[int, ...]:
    covers, left, right, affects = layout.covers, layout.left, layout.right, layout.affects
    out = []
    for t in range(len(layout)):
        hood = affects[t]
        for i in bits(affects[t]):
            hood |= 1 << i | covers[i] | left[i] | right[i]
        out.append(hood)
    return tuple(out)


def _pairings(tiles: list[int]):
    """The three ways to split four tiles into two pairs, as bitmasks."""
    a, b, c, d = (1 << t for t in tiles)
    return ((a | b, c | d), (a | c, b | d), (a | d, b | c))


def _can_pair(tiles: list[int], under) -> bool:
    def ok(a: int, b: int) -> bool:
        return not (under[a] >> b & 1 or under[b] >> a & 1)

    if len(tiles) == 2:
        return ok(*tiles)
    a, b, c, d = tiles
    return (ok(a, b) and ok(c, d)) or (ok(a, c) and ok(b, d)) or (ok(a, d) and ok(b, c))


class _Precedence:
    """Which tiles must leave before a given pair can, from the layout alone.

    A pair (x, y) can only leave after every tile lying on x or y (even through others).
    And when x and y sit in one plain row with only row tiles between them, the tiles
    between cannot leave first, so x's right side stays closed and x needs every tile
    left of it gone, and y every tile right of it (with whatever lies on those).
    Following "must leave before" through the classes whose last pair is known: if it
    comes back to the pair itself, no order can ever remove them (`locked`).
    """

    def __init__(self, layout: Layout) -> None:
        n = len(layout)
        self.layout = layout
        order = sorted(range(n), key=lambda i: -layout.positions[i][2])
        above = [0] * n
        for i in order:  # higher layers first
            acc = layout.covers[i]
            for j in bits(layout.covers[i]):
                acc |= above[j]
            above[i] = acc
        self.above = above
        self.left_all = self._side_closure(layout.left, 1)
        self.right_all = self._side_closure(layout.right, -1)
        self.hoods = _hoods_of(layout)  # for the move generator's memo (Solver._moves)
        # That memo: per tile, what removing it alone frees, keyed by the tiles of its hood
        # on the table. It depends on the layout only, not on the faces, so every deal of
        # the layout shares it: a deal's own memo started cold and missed ~0.9 times a
        # node, a shared one holds only ~1,500 entries after 500 random turtle deals.
        self.freed_by: list[dict[int, int]] = [{} for _ in range(n)]
        self.freed_count = 0  # misses since it started afresh (FREED_MEMO)
        self.cache: dict[int, int] = {}

    def _side_closure(self, side, direction: int) -> list[int]:
        """Tiles reachable by stepping to one side again and again, plus what lies on them."""
        positions, above = self.layout.positions, self.above
        closure = [0] * len(positions)
        for i in sorted(range(len(positions)), key=lambda i: direction * positions[i][0]):
            acc = 0
            for j in bits(side[i]):
                acc |= 1 << j | above[j] | closure[j]
            closure[i] = acc
        return closure

    def _in_plain_row(self, x: int, y: int) -> bool:
        positions, left, right = self.layout.positions, self.layout.left, self.layout.right
        if positions[x][1:] != positions[y][1:]:
            return False
        if positions[x][0] > positions[y][0]:
            x, y = y, x
        t = x
        while t != y:
            step = right[t]
            if step.bit_count() != 1:
                return False
            nxt = step.bit_length() - 1
            if positions[nxt][1:] != positions[x][1:] or left[nxt] != 1 << t:
                return False
            t = nxt
        return True

    def before(self, pair: int) -> int:
        found = self.cache.get(pair)
        if found is None:
            x, y = bits(pair)
            found = self.above[x] | self.above[y]
            if self._in_plain_row(x, y):
                if self.layout.positions[x][0] > self.layout.positions[y][0]:
                    x, y = y, x
                found |= self.left_all[x] | self.right_all[y]
            self.cache[pair] = found
        return found

    def locked(self, pair: int, union: int, class_of) -> bool:
        """Whether `pair` can never leave, given the last pairs known: `union` holds them
        (each is its tiles in one class; `class_of[t]`: the class mask of tile t), `pair`
        may be one of them. Follows "must leave before" from the pair through them, one
        last pair per tile that has to leave first, each once; coming back to the pair is
        a cycle. (A tile's last pair is read off `union`, so no list of pairs is needed.)"""
        need = self.before(pair)
        if need & pair:
            return True
        done = pair
        todo = need & union & ~done
        while todo:
            p = union & class_of[todo.bit_length() - 1]  # a last pair that must go first
            done |= p
            need |= self.before(p)
            if need & pair:
                return True
            todo = need & union & ~done
        return False


_PRECEDENCE_CACHE: dict[int, _Precedence] = {}


def _precedence(layout: Layout) -> _Precedence:
    """One table per layout object (built-in layouts are shared, so this is built once)."""
    table = _PRECEDENCE_CACHE.get(id(layout))
    if table is None or table.layout is not layout:
        if len(_PRECEDENCE_CACHE) > 64:
            _PRECEDENCE_CACHE.clear()
        table = _PRECEDENCE_CACHE[id(layout)] = _Precedence(layout)
    return table


def solve(layout: Layout, faces, alive: int | None = None, time_limit: float | None = None):
    """Decide the position (layout, faces, alive); see SolveResult."""
    return Solver(layout, faces).solve(alive, time_limit)
