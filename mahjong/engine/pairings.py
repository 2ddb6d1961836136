"""Decide a position by choosing how each class pairs up, not which move comes next.

Once every class is split into fixed pairs, the game is monotone: removing a pair only
frees tiles, so a pair whose two tiles are free stays removable, and removing whatever
pairs are free, round after round, clears the table exactly when some order does. So a
position is solvable if and only if some way of pairing up every class passes that
greedy pass; and a plan is read off the passing rounds.

A partial choice is checked with the relaxed game of relaxed.py, where the classes still
open follow the relaxed rule (a tile leaves when free with a classmate free or gone) and
the chosen pairs the real one. A stall proves that no completion of the choice works.
The search prunes every open class's pairings against the current choice (a class left
with one is fixed without branching) and branches on the class with the fewest left per
past conflict (dom/wdeg), then the one whose tiles leave the pass latest.

This needs no memo and does not care in which order independent moves are played, which
is what makes the hard deals hard for the move search: deals it cannot decide in
minutes are often decided here in a few hundred choices.

The solver runs it as a PairingRace: when this full pruning has taken a few thousand
trials, a second search that prunes each class only until one of its pairings passes
joins it, turn about, and the first to decide gives the answer (both are complete).
The solver also hands over the deepest line its move search reached (the *phase*): for
each class that line broke, the matching it implies is tried first; the first attempt to
complete the choice at the root repairs that line a few classes at a time (a short local
search), and the full search restarts now and then, keeping its conflict counts. All of
that only orders the search; it stays complete.
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
    def __init__(
        self,
        grid: _Grid,
        class_masks,
        alive: int,
        out_of_time,
        support_only: bool = False,
        phase=(),
        repair_steps: int = 0,
    ) -> None:
        self.grid = grid
        self.out_of_time = out_of_time  # called now and then; True stops the search
        # Pruning: every pairing of every open class again after each choice, or (support
        # only) each class only until one of its pairings passes; see `_check`.
        self.support_only = support_only
        self.cell = [1 << c for c in grid.cell_of_tile]
        self.tile_at = {c: i for i, c in enumerate(grid.cell_of_tile)}
        self.table = grid.to_cells(alive)
        self.spans = grid.spans_for(self.table)  # every trial's table is reached from it
        # Groups: tiles that count on each other as classmates. An open class is one group;
        # a chosen pairing makes each pair its own group.
        # Per grid cell c at index c + 1, as relaxed.py's class_at.
        self.group_at = [0] * (grid.cells_total + 1)
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
                for matching in self.options[k]:
                    for pair in matching:
                        self._group(pair, pair)
        self.checks = 0
        self.trial_end = 0  # the table the last passing trial (`_try`) ended with
        self.conflicts: dict[int, int] = {}  # per class: prunings that left it no pairing
        self.last_conflict: int | None = None  # the class the last failed pruning ended on
        self._snaps: list | None = None
        self._leaves: dict[int, list] = {}  # per class: _leave_rounds in the current pass
        self._pair_info: dict[tuple, list] = {}  # per matching: see _pairs_of
        self.class_gid = {k: self.group_ids[(k,)] for k in self.options}
        self.class_cells = {k: self.group_cells[gid] for k, gid in self.class_gid.items()}
        self.preferred = self._phases(class_masks, phase)
        self.repair_steps = repair_steps  # for the first `_complete` (at the root) only

    def _phases(self, class_masks, phase) -> dict[int, tuple]:
        """Per open class, the matching a sequence of pairs (`phase`: the deepest line
        the move search reached, see Solver) gives it: the first of its pairs there, and
        the rest of the class. Branching tries it first (`_search`)."""
        class_of = {t: k for k, mask in enumerate(class_masks) for t in bits(mask)}
        preferred: dict[int, tuple] = {}
        for a, b in phase:
            k = class_of.get(a)
            if k in self.options and k not in preferred:
                pair = (min(a, b), max(a, b))
                preferred[k] = next(m for m in self.options[k] if pair in m)
        return preferred

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
            self.group_at[self.grid.cell_of_tile[t] + 1] = gid

    def _apply(self, k: int, matching) -> None:
        self._snaps = None
        for pair in matching:
            self._set_group(pair, self._group(pair, pair))

    def _undo(self, k: int, matching) -> None:
        self._snaps = None
        tiles = [t for pair in matching for t in pair]
        self._set_group(tiles, self.group_ids[(k,)])

    def solve(self) -> tuple[tuple[int, int], ...] | None:
        """A plan if some pairing works, None if none does (_OutOfTime when stopped)."""
        steps = self.steps()
        while True:
            if self.out_of_time():
                raise _OutOfTime
            try:
                next(steps)
            except StopIteration as done:
                return done.value

    def steps(self):
        """The search as a generator: it pauses once per choice (so that two searches can
        take turns, see PairingRace) and returns what `solve` returns."""
        if self._rounds(self.table) is None:
            return None
        chosen: dict[int, tuple] = {}
        open_ = self._untried()
        if not (yield from self._search(open_, chosen)):
            return None
        return self._plan()

    def repair_phase(self) -> tuple[tuple[int, int], ...] | None:
        """Without any search: every open class paired as the phase says (as the first of
        its matchings when the phase does not name it), repaired up to `repair_steps`
        times (`_repair`); a plan if the pass then clears the table, else None (which
        proves nothing)."""
        open_ = self._untried()
        if not self._complete(open_, {}):
            return None
        return self._plan()

    def _untried(self) -> dict[int, list]:
        """Every open class with all its pairings, none tried yet (entries as below)."""
        return {k: [(0, m, None) for m in options] for k, options in self.options.items()}

    # An open class's pairings are kept as (rounds, matching, end): rounds is how long its
    # trial took, and `end` the table the trial ended with when that trial holds under the
    # current choice (fresh), else None (stale: rounds then only orders the pairings, the
    # trial must be run again to count). Choosing class j cannot change a trial in which
    # no tile of j left: j's pairing only decides when j's own tiles may leave, and a more
    # constrained game removes no more at any round. So a trial stays fresh while its
    # `end` still holds every tile of the class chosen (`_choose`).

    def _search(self, open_: dict[int, list], chosen: dict[int, tuple]) -> bool:
        """Whether the open classes can be paired on top of `chosen` (which passes);
        on success `chosen` and the groups hold a full passing choice."""
        yield
        fixed: list = []
        ranked = self._prune(open_, chosen, fixed)
        if ranked == () or (ranked is not None and self._complete(open_, chosen)):
            return True
        if ranked is not None:
            k, options = ranked
            phase = self.preferred.get(k)
            if phase is not None and options[0][1] != phase:
                options = sorted(options, key=lambda e: e[1] != phase)  # stable: then by rounds
            for _, matching, end in options:
                # Pruning on support only may leave pairings untried under this choice.
                if end is None and self._try(k, matching) is None:
                    continue
                # Each branch prunes its own copy: its pruning holds only under its choice.
                child = {c: o for c, o in open_.items() if c != k}
                self._choose(k, matching, chosen, child)
                if (yield from self._search(child, chosen)):
                    return True
                del chosen[k]
                self._undo(k, matching)
        for k, matching in reversed(fixed):
            del chosen[k]
            self._undo(k, matching)
        return False

    def _choose(self, k: int, matching, chosen, open_: dict[int, list]) -> None:
        """Choose `matching` for class k; mark the trials it may change as stale (those in
        which a tile of k left). (Marking every trial that ended after k's first leave in
        the full pass, as before, took 0.7% more trials on 487 deals that reached this
        search, and 1.8% more instructions on 8 of them.)"""
        self._apply(k, matching)
        chosen[k] = matching
        cells = self.class_cells[k]
        for c, entries in open_.items():
            open_[c] = [
                (r, m, end if end is not None and end & cells == cells else None)
                for r, m, end in entries
            ]

    def _complete(self, open_: dict[int, list], chosen: dict[int, tuple]) -> bool:
        """Try every open class's best pairing at once (one pass), or the phase's when it
        still has it: once the classes left do not matter, this ends the search without
        branching on each of them (on a traced deal it succeeded with 7 of 36 classes still
        open). The first time (at the root) a few repairs may follow (`_repair`)."""
        pick = {}
        for k, entries in open_.items():
            matching = entries[0][1]
            phase = self.preferred.get(k)
            if phase is not None and any(e[1] == phase for e in entries):
                matching = phase
            pick[k] = matching
            self._apply(k, matching)
        steps, self.repair_steps = self.repair_steps, 0
        if self._repair(pick, open_, steps):
            chosen.update(pick)
            return True
        for k, matching in pick.items():
            self._undo(k, matching)
        return False

    def _repair(self, pick: dict[int, tuple], open_: dict[int, list], steps: int) -> bool:
        """Whether the pass clears the table with every open class paired as in `pick`
        (applied), after up to `steps` changes of one class each (`pick` follows them).

        A local search: where the pass stalls, each open class with a free tile there may
        take another of its pairings left; the change that leaves fewest tiles is made, and
        that class then waits REPAIR_TABU steps before it may change again. Starting from
        the move search's deepest line (right for ~80% of the classes it reached), it
        finds a full pairing for about a third of the solvable deals that reach this search,
        in a few passes, where the search itself takes a few thousand trials."""
        tabu: dict[int, int] = {}
        for step in range(steps + 1):
            stall: list = []
            # The rounds are kept when a change may follow: each candidate starts from them.
            snaps: list | None = [] if step < steps else None
            seen = [0] * len(self.group_cells)
            if self._run(self.table, self.table, 0, 0, seen, 0, snaps, stall) is not None:
                return True
            if step == steps:
                return False
            change = self._best_change(pick, open_, snaps, stall[1], tabu, step)
            if change is None:
                return False
            k, matching = change
            self._apply(k, matching)
            pick[k] = matching
            tabu[k] = step + REPAIR_TABU
        raise AssertionError("unreachable: the last step returns")

    def _best_change(self, pick, open_, snaps: list, stalled_free: int, tabu, step: int):
        """The change of one open class's pairing (with a free tile where the pass `snaps`
        stalled, not waiting in `tabu`) after which the pass leaves fewest tiles: (class,
        matching), or None when no class may change."""
        best = None
        for k, entries in open_.items():
            if not stalled_free & self.class_cells[k] or tabu.get(k, -1) >= step:
                continue
            for _, matching, _ in entries:
                if matching == pick[k]:
                    continue
                stall: list = []
                if self._changed_pass(k, pick[k], matching, snaps, stall) is not None:
                    return k, matching
                left = stall[0].bit_count()
                if best is None or left < best[0]:
                    best = (left, k, matching)
        return None if best is None else best[1:]

    def _changed_pass(self, k: int, old, new, snaps: list, stall: list) -> int | None:
        """The pass with class k paired as `new` instead of `old` (applied, with `snaps` the
        rounds of its pass, which stalled), as `_rounds`. It is the old pass up to the
        first round in which a tile of k free in both could leave in one and not in the
        other (`_divergence`), so it starts from that round's snapshot: a third of the
        repair's rounds are not run again."""
        start = self._divergence(k, old, new, snaps)
        self._apply(k, new)
        try:
            if start is None:
                return self._rounds(self.table, stall=stall)
            table, reach, ready, seen = self._regrouped(snaps[start], k, self._pairs_info(new))
            return self._run(table, table, reach, ready, seen, start, stall=stall)
        finally:
            self._apply(k, old)

    def _divergence(self, k: int, old, new, snaps: list) -> int | None:
        """The first round of the pass `snaps` (class k paired as `old`) whose state could
        differ with k paired as `new`, or None to start from the beginning. A tile of k
        leaves in the round it is free (reached, still on the table) with its partner
        reached; until a round where that differs for some tile, the passes are the same.
        (The rounds are checked up to the last one kept: the pass may start there.)"""
        if not snaps:
            return None
        cell, at = self.cell, self.grid.cell_of_tile
        mates = {}  # per tile of k, by its grid cell + 1: its partners' cells (old, new)
        for a, b in old:
            mates[at[a] + 1] = [cell[b]]
            mates[at[b] + 1] = [cell[a]]
        for a, b in new:
            mates[at[a] + 1].append(cell[b])
            mates[at[b] + 1].append(cell[a])
        cells = self.class_cells[k]
        for r in range(len(snaps) - 1):
            reached = snaps[r + 1][1]
            free = snaps[r][0] & reached & cells
            while free:
                low = free & -free
                free ^= low
                was, now = mates[low.bit_length()]
                if bool(reached & was) != bool(reached & now):
                    return r
        return len(snaps) - 1

    def _prune(self, open_: dict[int, list], chosen, fixed):
        """Try again every stale pairing of every open class against the current choice and
        drop those that fail, fixing classes left with one; then the class to branch on
        with its pairings (best first), () when every class is chosen, None when some
        class has none left."""
        while True:
            fixed_one = False
            best = None
            for k in self._fail_first(open_):
                scored = self._check(k, open_[k])
                if not scored:
                    self.conflicts[k] = self.conflicts.get(k, 0) + 1
                    self.last_conflict = k
                    return None
                del open_[k]
                if len(scored) == 1:
                    self._choose(k, scored[0][1], chosen, open_)
                    fixed.append((k, scored[0][1]))
                    fixed_one = True
                    continue
                open_[k] = scored
                # Branch where it matters most: fewest pairings left for the conflicts the
                # class was in (dom/wdeg: refutes in tenths of a second deals that took
                # over 5 s without it); then the class whose tiles leave latest (fewer
                # trials go stale: 25% less time on 20 hard deals); then the widest spread
                # between its best and worst pairing (far fewer choices than the first).
                key = (
                    len(scored) / (1 + self.conflicts.get(k, 0)),
                    -scored[0][0],
                    scored[0][0] - scored[-1][0],
                )
                if best is None or key < best[0]:
                    best = (key, k, scored)
            if not fixed_one:
                return best[1:] if best is not None else ()
            # A class was fixed: trials it may change are stale; go round again.

    def _fail_first(self, open_: dict[int, list]) -> list[int]:
        """The open classes in the order `_prune` checks them: the class that was last
        left with no pairing first, then fewest pairings per past conflict (as branching
        ranks them). A pruning that fails stops at the first class left with none, so
        checking likely failures first saves trials (a third of all trials went to
        prunings that failed): 11% fewer trials on 487 deals that reached this search,
        18% fewer on those with no win. A pruning that passes checks every class
        in any order."""
        last, conflicts = self.last_conflict, self.conflicts
        return sorted(open_, key=lambda k: (k != last, len(open_[k]) / (1 + conflicts.get(k, 0))))

    def _check(self, k: int, entries: list) -> list:
        """Class k's pairings that pass under the current choice, best first, trying again
        those that are not fresh. With `support_only`, stale ones are tried (best first)
        only until one passes and the rest are kept untried: enough to find a class with
        none left, for a third of the trials, but it does not see classes left with one
        and ranks on old trial lengths, so it searches differently: much better on some
        deals, worse on others (see PairingRace). The first one kept has passed."""
        kept = []
        if self.support_only:
            supported = False
            for rounds, matching, end in sorted(entries, key=lambda e: e[0]):
                if end is None and not supported:
                    rounds = self._try(k, matching)
                    if rounds is None:
                        continue
                    end = self.trial_end
                supported = True
                kept.append((rounds, matching, end))
            return kept
        for rounds, matching, end in entries:
            if end is None:
                rounds = self._try(k, matching)
                end = self.trial_end
            if rounds is not None:
                kept.append((rounds, matching, end))
        kept.sort(key=lambda e: e[0])
        return kept

    def _try(self, k: int, matching) -> int | None:
        """The round by which class k's tiles have left with `matching` chosen on top of the
        current (passing) choice; None if the relaxed game stalls first.

        The trial and the current pass are the same until a tile of k leaves the pass before
        its partner under `matching` has: in the pass, once two of k were reached (its first
        leave), a tile of k leaves in the round it is first free, so before that round every
        tile of k that left had its partner free (both leave in the trial too), and a tile
        that stayed had its partner still unreached (it stays in the trial too). So the trial
        starts from the pass's state at that round; with no such round, the trial is the
        pass itself, which clears k after its last leave, and is not run."""
        snaps = self._current_pass()
        info = self._pairs_info(matching)
        leaves = self._leaves.get(k)
        if leaves is None:
            leaves = self._leave_rounds(k)
        left = 0
        start = None
        for r, gone in leaves:
            left |= gone
            for _, pair_cells, _, _ in info:
                if gone & pair_cells and left & pair_cells != pair_cells:
                    start = r
                    break
            if start is not None:
                break
        else:
            self.checks += 1  # a trial all the same (the race takes turns by trials)
            rounds = leaves[-1][0] + 1
            self.trial_end = snaps[rounds][0] if rounds < len(snaps) else 0
            return rounds
        table, reach, ready, seen = self._regrouped(snaps[start], k, info)
        group_at = self.group_at
        for gid, _, a, b in info:
            group_at[a] = group_at[b] = gid
        rounds = self._run(table, self.class_cells[k], reach, ready, seen, start)
        gid = self.class_gid[k]
        for _, _, a, b in info:
            group_at[a] = group_at[b] = gid
        return rounds

    def _regrouped(self, snap, k: int, info) -> tuple:
        """A pass's state at the start of a snapshot's round (table, reach, ready, seen),
        with class k counted as paired the way `info` describes: each pair's cells reached
        so far, and the pair ready when both were (a pass may go on from there)."""
        table, reach, ready, seen, _ = snap
        ready ^= ready & self.class_cells[k]
        seen = seen[:]
        for gid, pair_cells, _, _ in info:
            seen[gid] = n = (reach & pair_cells).bit_count()
            if n == 2:
                ready |= pair_cells
        return table, reach, ready, seen

    def _leave_rounds(self, k: int) -> list:
        """The rounds of the current pass in which tiles of class k leave, with those tiles'
        cells, in order (kept with the pass)."""
        snaps = self._current_pass()
        out = self._leaves.get(k)
        if out is None:
            out = self._leaves[k] = []
            cells = self.class_cells[k]
            for r, snap in enumerate(snaps):
                gone = snap[4] & cells
                if gone:
                    out.append((r, gone))
                    cells ^= gone
                    if not cells:
                        break
        return out

    def _pairs_info(self, matching) -> list:
        """Per pair of a matching: its group, its cells, and its tiles' places in group_at
        (their grid cells + 1)."""
        info = self._pair_info.get(matching)
        if info is None:
            info = self._pair_info[matching] = self._pairs_of(matching)
        return info

    def _pairs_of(self, matching) -> list:
        at = self.grid.cell_of_tile
        return [
            (
                self.group_ids[pair],
                self.group_cells[self.group_ids[pair]],
                at[pair[0]] + 1,
                at[pair[1]] + 1,
            )
            for pair in matching
        ]

    def _current_pass(self) -> list:
        """The full pass under the current choice, as (table, reach, ready, seen, gone) at
        the start of each round; kept until the choice changes."""
        if self._snaps is None:
            self._snaps = []
            self._leaves = {}
            seen = [0] * len(self.group_cells)
            assert self._run(self.table, self.table, 0, 0, seen, 0, self._snaps) is not None
        return self._snaps

    def _rounds(self, table: int, goal: int | None = None, stall=None) -> int | None:
        """The relaxed greedy pass with the current groups from the start: rounds until
        `goal` (default: everything) has left, or None on a stall (then `stall`, a list,
        gets the table and its free cells at that point)."""
        seen = [0] * len(self.group_cells)
        return self._run(table, table if goal is None else goal, 0, 0, seen, 0, stall=stall)

    def _run(self, table, goal, reach, ready, seen, rounds, snaps=None, stall=None) -> int | None:
        """Go on with a relaxed greedy pass from the given state (see `_rounds`). (The
        grid's free test and its per-group counting written out, as in
        relaxed._Grid.greedy: this is the search's hot loop.)"""
        self.checks += 1
        group_at, group_cells = self.group_at, self.group_cells
        grid = self.grid
        row, layer, spans, below = grid.row, grid.layer, self.spans, grid.below
        while table & goal:
            rows = table | table << row | table >> row
            above = rows >> layer
            if spans:  # (none on most tables: see spans_for; a test costs less than a loop)
                for span in spans:
                    above |= above >> span
            above |= above << 1 | above >> 1
            # (a ^ (a & b) rather than a & ~b: a negative operand costs twice as much.)
            free = table ^ (table & (above | rows << 2 & rows >> 2))
            # Cells free for the first time, but for those of ready groups (no count needed).
            fresh = free ^ (free & (reach | ready))
            if snaps is not None:
                snap = [table, reach, ready, seen[:], 0]
            reach |= free
            while fresh:
                top = fresh.bit_length()  # its highest cell is top - 1
                fresh &= below[top]
                k = group_at[top]
                if seen[k]:  # the second reached (groups not ready have seen 0 or 1)
                    ready |= group_cells[k]
                else:
                    seen[k] = 1
            gone = free & ready
            if not gone:
                if stall is not None:
                    stall += (table, free)
                return None
            if snaps is not None:
                snap[4] = gone
                snaps.append(snap)
            table ^= gone  # (gone is on the table)
            rounds += 1
        self.trial_end = table
        return rounds

    def _plan(self) -> tuple[tuple[int, int], ...]:
        """With every class paired, the passing rounds are a plan: each round's pairs are
        all free at its start, and removing one pair never blocks another."""
        self._snaps = None
        plan = []
        for *_, gone in self._current_pass():
            while gone:
                low = gone & -gone
                tile = self.tile_at[low.bit_length() - 1]
                group = self.group_cells[self.group_at[low.bit_length()]]
                mate = self.tile_at[(group & ~low).bit_length() - 1]
                plan.append((tile, mate))
                gone &= ~group
        return tuple(plan)


# The full search alone decides most deals in a few thousand trials (median ~1,800 on 72
# deals that reached it); only past RACE_AFTER trials does the support-only search start,
# and then the two take turns, trial for trial.
RACE_AFTER = 3000
# The full search starts again from the root after RESTART_FIRST trials, then after twice
# as many each time, keeping what it learned (its conflict counts). With the move search's
# deepest line to try first, a fresh start with better-informed branching gets out of a
# wrong early choice sooner than backtracking to it: on 1,700 deals that reached the
# pairing search, 4-8% fewer trials and 7-11% less time than without (3,000 x2: about
# the same; 2,000 x1.5 and 8,000 x2: no gain). Without that line the same restarts had
# not helped (docs/ENGINE.md).
RESTART_FIRST = 5000
RESTART_GROWTH = 2
# The full search's first `_complete` may change up to REPAIR_STEPS classes' pairings
# (`_repair`). On 836 deals that reached the pairing search, run side by side: 15% fewer
# trials, 9% less time (3 steps: half the gain).
REPAIR_STEPS = 10
REPAIR_TABU = 3


class PairingRace:
    """The full search, joined by the support-only one when it runs long, until one
    decides. Each is complete, so the first answer is the answer; they differ in how long
    they take. On 72 deals that reached the pairing search the support-only one took fewer
    trials on a third of them and more on the rest (349,000 against 274,000 in all), but on
    20 of the hardest (15,000-104,000 trials with full pruning) it was often 10-50 times
    faster (364,000 against 760,000 in all). Racing them from the start, one trial of it
    for three of the full search, cost a third more on the typical deal, which is why it
    waits. The full search restarts now and then (RESTART_FIRST)."""

    def __init__(self, grid: _Grid, class_masks, alive: int, out_of_time, phase=()) -> None:
        self.out_of_time = out_of_time
        self._start = (grid, class_masks, alive, out_of_time)
        self._phase = phase
        self.searches = [
            PairingSearch(*self._start, phase=phase, repair_steps=REPAIR_STEPS),
            PairingSearch(*self._start, support_only=True, phase=phase),
        ]

    @property
    def checks(self) -> int:
        return sum(search.checks for search in self.searches)

    def _restart_full(self) -> PairingSearch:
        """A new full search in place of the old, with its conflict counts and its count
        of trials (which the race's turns and the solver's node count go by). (It does not
        repair at the root: that would find what the first one found.)"""
        old = self.searches[0]
        new = PairingSearch(*self._start, phase=self._phase)
        new.conflicts = old.conflicts
        new.last_conflict = old.last_conflict
        new.checks = old.checks
        self.searches[0] = new
        return new

    def solve(self) -> tuple[tuple[int, int], ...] | None:
        """As PairingSearch.solve."""
        full, support = self.searches
        runs = [(full, full.steps(), RACE_AFTER), (support, None, 0)]
        run_length = RESTART_FIRST
        restart_at = run_length
        while True:
            if self.out_of_time():
                raise _OutOfTime
            if full.checks >= restart_at:
                full = self._restart_full()
                runs[0] = (full, full.steps(), RACE_AFTER)
                run_length *= RESTART_GROWTH
                restart_at = full.checks + run_length
            if runs[1][1] is None and full.checks >= RACE_AFTER:
                runs[1] = (support, support.steps(), 0)
            # The one that has used fewer trials since the race began goes next.
            search, steps, head_start = min(
                (run for run in runs if run[1] is not None),
                key=lambda run: run[0].checks - run[2],
            )
            try:
                next(steps)
            except StopIteration as done:
                return done.value
