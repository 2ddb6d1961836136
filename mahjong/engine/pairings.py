"""Decide a position by choosing how each class pairs up, not which move comes next.

Once every class is split into fixed pairs, the game is monotone: removing a pair only
frees tiles, so a pair whose two tiles are free stays removable, and removing whatever
pairs are free, round after round, clears the table exactly when some order does. So a
position is solvable if and only if some way of pairing up every class passes that
greedy pass; and a plan is read off the passing rounds.

A partial choice is checked with the relaxed game of relaxed.py, where the classes still
open follow the relaxed rule (a tile leaves when free with a classmate free or gone) and
the chosen pairs the real one. A stall proves that no completion of the choice works.
The search picks, after pruning every open class's pairings against the current choice,
the class with the fewest left (and a class with one left is fixed without branching).

This needs no memo and does not care in which order independent moves are played, which
is what makes the hard deals hard for the move search: deals it cannot decide in
minutes are often decided here in a few hundred choices.
"""

from __future__ import annotations

from .layout import bits
from .relaxed import _Grid


class _OutOfTime(Exception):
    pass


def matchings(tiles: list[int]) -> list[tuple[tuple[int, int], ...]]:
    """Every way to split an even number of tiles into pairs (3 for four tiles)."""
    if not tiles:
        return [()]
    first, rest = tiles[0], tiles[1:]
    out = []
    for k, other in enumerate(rest):
        for tail in matchings(rest[:k] + rest[k + 1 :]):
            out.append(((first, other), *tail))
    return out


class PairingSearch:
    def __init__(self, grid: _Grid, class_masks, alive: int, out_of_time) -> None:
        self.grid = grid
        self.out_of_time = out_of_time  # called now and then; True stops the search
        self.cell = [1 << c for c in grid.cell_of_tile]
        self.tile_at = {c: i for i, c in enumerate(grid.cell_of_tile)}
        self.table = grid.to_cells(alive)
        # Groups: tiles that count on each other as classmates. An open class is one group;
        # a chosen pairing makes each pair its own group.
        self.group_at: dict[int, int] = {}
        self.group_cells: list[int] = []
        self.options: dict[int, list] = {}  # open class -> its matchings
        self.group_ids: dict[tuple, int] = {}
        for k, mask in enumerate(class_masks):
            tiles = bits(mask & alive)
            if not tiles:
                continue
            self._set_group(tiles, self._group((k,), tiles))
            if len(tiles) > 2:
                self.options[k] = matchings(tiles)
        self.checks = 0

    def _group(self, key, tiles) -> int:
        gid = self.group_ids.get(key)
        if gid is None:
            gid = self.group_ids[key] = len(self.group_cells)
            cells = 0
            for t in tiles:
                cells |= self.cell[t]
            self.group_cells.append(cells)
        return gid

    def _set_group(self, tiles, gid: int) -> None:
        for t in tiles:
            self.group_at[self.grid.cell_of_tile[t]] = gid

    def _apply(self, k: int, matching) -> None:
        for pair in matching:
            self._set_group(pair, self._group(pair, pair))

    def _undo(self, k: int, matching) -> None:
        tiles = [t for pair in matching for t in pair]
        self._set_group(tiles, self.group_ids[(k,)])

    def solve(self) -> tuple[tuple[int, int], ...] | None:
        """A plan if some pairing works, None if none does (_OutOfTime when stopped)."""
        if self._rounds(self.table) is None:
            return None
        chosen: dict[int, tuple] = {}
        if not self._search(dict(self.options), chosen):
            return None
        return self._plan()

    def _search(self, open_: dict[int, list], chosen: dict[int, tuple]) -> bool:
        """Whether the open classes can be paired on top of `chosen` (which passes);
        on success `chosen` and the groups hold a full passing choice."""
        if self.out_of_time():
            raise _OutOfTime
        fixed: list = []
        ranked = self._prune(open_, chosen, fixed)
        if ranked == () or (ranked is not None and self._complete(open_, chosen)):
            return True
        if ranked is not None:
            k, options = ranked
            for matching in options:
                self._apply(k, matching)
                chosen[k] = matching
                # Each branch prunes its own copy: its pruning holds only under its choice.
                if self._search({c: o for c, o in open_.items() if c != k}, chosen):
                    return True
                del chosen[k]
                self._undo(k, matching)
        for k, matching in reversed(fixed):
            del chosen[k]
            self._undo(k, matching)
        return False

    def _complete(self, open_: dict[int, list], chosen: dict[int, tuple]) -> bool:
        """Try every open class's best pairing at once: most classes do not matter, and on
        a solvable deal this often ends the search without branching on them."""
        for k, options in open_.items():
            self._apply(k, options[0])
        if self._rounds(self.table) is not None:
            for k, options in open_.items():
                chosen[k] = options[0]
            return True
        for k, options in open_.items():
            self._undo(k, options[0])
        return False

    def _prune(self, open_: dict[int, list], chosen, fixed):
        """Drop every open class's pairings that fail against the current choice, fixing
        classes left with one; then the class to branch on with its pairings (best
        first), () when every class is chosen, None when some class has none left."""
        while True:
            fixed_one = False
            best = None
            for k in list(open_):
                scored = []
                for matching in open_[k]:
                    rounds = self._try(k, matching)
                    if rounds is not None:
                        scored.append((rounds, matching))
                if not scored:
                    return None
                scored.sort(key=lambda s: s[0])
                options = [m for _, m in scored]
                if len(options) == 1:
                    self._apply(k, options[0])
                    chosen[k] = options[0]
                    fixed.append((k, options[0]))
                    del open_[k]
                    fixed_one = True
                    continue
                open_[k] = options
                # Branch where it matters most: fewest pairings left, then the widest
                # spread between the best and the worst of them (measured: far fewer
                # choices than taking the first such class).
                key = (len(options), scored[0][0] - scored[-1][0])
                if best is None or key < best[0]:
                    best = (key, k, options)
            if not fixed_one:
                return best[1:] if best is not None else ()
            # A class was fixed: the others were pruned against less; prune them again.

    def _try(self, k: int, matching) -> int | None:
        """Rounds until class k's tiles have left with `matching` chosen on top of the
        current (passing) choice; None if the relaxed game stalls first."""
        self._apply(k, matching)
        goal = 0
        for pair in matching:
            for t in pair:
                goal |= self.cell[t]
        rounds = self._rounds(self.table, goal)
        self._undo(k, matching)
        return rounds

    def _rounds(self, table: int, goal: int | None = None, record=None) -> int | None:
        """The relaxed greedy pass with the current groups: rounds until `goal` (default:
        everything) has left, or None on a stall. `record` collects each round's cells."""
        self.checks += 1
        goal = table if goal is None else goal
        group_at, group_cells, free_of = self.group_at, self.group_cells, self.grid.free
        seen = [0] * len(group_cells)
        ready = 0
        reach = 0
        rounds = 0
        while table & goal:
            free = free_of(table)
            fresh = free & ~reach
            reach |= fresh
            fresh &= ~ready
            while fresh:
                low = fresh & -fresh
                fresh ^= low
                g = group_at[low.bit_length() - 1]
                seen[g] += 1
                if seen[g] == 2:
                    ready |= group_cells[g]
            gone = free & ready
            if not gone:
                return None
            if record is not None:
                record.append(gone)
            table &= ~gone
            rounds += 1
        return rounds

    def _plan(self) -> tuple[tuple[int, int], ...]:
        """With every class paired, the passing rounds are a plan: each round's pairs are
        all free at its start, and removing one pair never blocks another."""
        record: list[int] = []
        assert self._rounds(self.table, None, record) is not None
        plan = []
        for gone in record:
            while gone:
                low = gone & -gone
                tile = self.tile_at[low.bit_length() - 1]
                group = self.group_cells[self.group_at[low.bit_length() - 1]]
                mate = self.tile_at[(group & ~low).bit_length() - 1]
                plan.append((tile, mate))
                gone &= ~group
        return tuple(plan)
