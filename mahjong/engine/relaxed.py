"""A relaxed game whose failure proves a position dead (the solver's dead-end test).

In the relaxed game tiles leave one at a time: a tile may leave when it is free and one of
its classmates (tiles of its match class on the table when the test began) is free or has
already left. Every real plan is a relaxed plan: a real pair leaves with both tiles free,
each the other's free classmate. The rule is monotone (removing tiles only frees others,
and a free-or-gone classmate stays free or gone), so greedily removing whatever may leave
decides the relaxed game: if the greedy pass stalls with tiles left, no real plan exists.

For a class with two tiles left the rule says "both free at once", so this generalises
the locked-pair test (which only knows tiles lying on top and plain rows). For a class of
four it says a tile cannot leave while it is the only reachable one of its class.

Only a move that leaves tiles of its class (with four to a class: the last two) can turn
a passing position into a failing one, as the two tiles it takes were classmates the rest
of the class could count on; any other move only removes tiles and constraints. And once
those tiles have left in the greedy pass, the rest follows the parent's own greedy order,
so the pass can stop there (`passes_after`).

The pass runs on a second encoding of the table, one bit per grid cell (x + y*row +
z*layer), where "covered", "something on the left" and "something on the right" are a
dozen shifts of the whole table at once instead of a loop over tiles. Layouts too large
for that encoding use the plain per-tile loop.
"""

from __future__ import annotations

from .layout import Layout, bits

MAX_GRID_BITS = 1 << 14  # beyond this a bit-parallel round costs more than a tile loop


class Relaxed:
    def __init__(self, layout: Layout, class_of_tile: tuple[int, ...]) -> None:
        self.layout = layout
        self.class_of_tile = class_of_tile  # per tile: the bitmask of its whole class
        self.grid = _Grid.build(layout, class_of_tile)
        # Per tile: its bit in the grid encoding (0 without one), so that callers can
        # keep the encoding of their position up to date a move at a time.
        n = len(layout)
        grid = self.grid
        self.cell_of_tile = tuple(1 << c for c in grid.cell_of_tile) if grid else (0,) * n
        # Per tile: the grid cells of its whole class (`passes_after` picks the tiles left).
        self.class_cells_of_tile = (
            tuple(grid.class_cells[grid.class_at[c + 1]] for c in grid.cell_of_tile)
            if grid
            else (0,) * n
        )
        # The layer shifts `passes_after` spreads "what lies above" with: all of them until
        # `start` names a position that lets the pass look one layer up only.
        self.spans = grid.spans if grid else ()

    def start(self, alive: int) -> None:
        """Searches from `alive` are about to call `passes_after` on positions reached from
        it by play: take the shortest layer shifts valid for all of them (see
        `_Grid.spans_for`)."""
        if self.grid is not None:
            self.spans = self.grid.spans_for(self.grid.to_cells(alive))

    def cells(self, tiles: int) -> int:
        """The grid encoding of a set of tiles (0 without a grid)."""
        return self.grid.to_cells(tiles) if self.grid else 0

    def passes(self, alive: int, free: int) -> bool:
        """The full greedy pass: False proves the position dead."""
        if self.grid is not None:
            cells = self.grid.to_cells(alive)
            return self.grid.greedy(cells, cells, self.grid.spans_for(cells))
        return self._greedy(alive, free, alive)

    def passes_after(self, alive: int, free: int, cells: int, rest: int) -> bool:
        """The pass after a move that left `rest` of its class (`cells`: the grid encoding
        of `alive`), from a position that passed: False proves the position dead."""
        if free & rest == rest:
            return True  # all free: they pair up among themselves at once
        if self.grid is not None:
            goal = cells & self.class_cells_of_tile[rest.bit_length() - 1]  # rest's cells
            return self.grid.greedy(cells, goal, self.spans)
        return self._greedy(alive, free, rest)

    def _greedy(self, alive: int, free: int, goal: int) -> bool:
        """Remove whatever may leave until every tile of `goal` has left (True) or nothing
        more can leave (False). `free` is the free mask of `alive`."""
        class_of = self.class_of_tile
        update_free = self.layout.update_free
        start = alive
        reach = free  # free or gone: what a classmate needs
        todo = free
        waiting = 0  # free tiles whose classmates are all still blocked
        while alive & goal:
            gone = 0
            while todo:
                low = todo & -todo
                todo ^= low
                if class_of[low.bit_length() - 1] & start & reach & ~low:
                    gone |= low
                else:
                    waiting |= low
            if not gone:
                return False
            alive &= ~gone
            new_free = update_free(free, alive, gone)
            todo = (new_free & ~free) | waiting
            waiting = 0
            free = new_free
            reach |= new_free | gone
        return True


class _Grid:
    """The table as one bit per grid cell; see the module docstring. The geometry is
    built once per layout (`_geometry`); `class_at` and `class_cells` belong to a deal."""

    def __init__(self, geometry: dict, class_of_tile) -> None:
        self.__dict__.update(geometry)
        ids: dict[int, int] = {}
        cells = self.cell_of_tile
        # Per grid cell c, at index c + 1: the bit length of a table whose highest cell is
        # c, so that the pass's innermost step indexes with bit_length() as it comes (a
        # list, not a dict, for the same reason).
        self.class_at = [0] * (self.cells_total + 1)
        for i, cell in enumerate(cells):
            self.class_at[cell + 1] = ids.setdefault(class_of_tile[i], len(ids))
        self.class_cells = [0] * len(ids)
        for mask, k in ids.items():
            self.class_cells[k] = self.to_cells(mask)

    @classmethod
    def build(cls, layout: Layout, class_of_tile) -> _Grid | None:
        geometry = _geometry(layout)
        return None if geometry is None else cls(geometry, class_of_tile)

    def to_cells(self, tiles: int) -> int:
        out = 0
        for table in self.byte_tables:
            if tiles & 255:
                out |= table[tiles & 255]
            tiles >>= 8
        return out

    def free(self, table: int, spans: tuple[int, ...] | None = None) -> int:
        """Cells of free tiles: nothing on any higher layer overlapping, and one side open.
        (`spans`: as `spans_for` answers for a table this one was reached from.)"""
        row = self.row
        # The table spread one row up and down: a tile overlaps a cell of the layer below,
        # or stands beside a cell, when its cell is within one row of it. Spread once, it
        # serves both tests (the spread bits that land outside the tile grid, where a
        # shift runs off a row or a layer, fall on empty guard cells).
        rows = table | table << row | table >> row
        above = rows >> self.layer
        for span in self.spans if spans is None else spans:  # any higher layer
            above |= above >> span
        above |= above << 1 | above >> 1
        # Something on the left of a cell = a tile two cells left, in its row or the next
        # one up or down; on the right the same, two cells right.
        return table ^ (table & (above | rows << 2 & rows >> 2))

    def spans_for(self, table: int) -> tuple[int, ...]:
        """The layer shifts that spread "what lies one layer up" to "what lies any layer
        up" in the free test, for `table` and every table reached from it by removing free
        tiles: none when the layout is `stacked` and the table holds every tile lying under
        one of its tiles (then, while a tile lies two or more layers over another, a tile
        right above the lower one lies under it and is on the table too; and removing free
        tiles keeps the table so). Saves a third of a round of the pass."""
        if self.stacked and not self.all_cells & self._under(table) & ~table:
            return ()
        return self.spans

    def _under(self, table: int) -> int:
        """Cells lying under some tile of the table, on any lower layer."""
        above = table >> self.layer
        for span in self.spans:
            above |= above >> span
        above |= above << 1 | above >> 1
        return above | above << self.row | above >> self.row

    def greedy(self, table: int, goal_cells: int, spans: tuple[int, ...] | None = None) -> bool:
        """As Relaxed._greedy, on cells, a whole round of removals at a time. (The free
        test is written out: this is the pass's hot loop.) Each round counts the cells
        reached for the first time per class; a class with two reached becomes ready, all
        its cells at once (highest bit first, each dropped with one mask from `below`).
        `spans`: as `spans_for` answers for `table` or a table it was reached from."""
        class_at, class_cells, below = self.class_at, self.class_cells, self.below
        row, layer = self.row, self.layer
        if spans is None:
            spans = self.spans
        seen = [0] * len(class_cells)  # per class: 1 once one of its tiles was reached
        ready = 0  # cells of classes with two tiles reached: those may leave when free
        reach = 0
        while table & goal_cells:
            # free = self.free(table)
            rows = table | table << row | table >> row
            above = rows >> layer
            if spans:  # (none on most tables: see spans_for; a test costs less than a loop)
                for span in spans:
                    above |= above >> span
            above |= above << 1 | above >> 1
            # (a ^ (a & b) rather than a & ~b: a negative operand costs twice as much.)
            free = table ^ (table & (above | rows << 2 & rows >> 2))
            # Cells free for the first time, but for those of ready classes (no count needed).
            fresh = free ^ (free & (reach | ready))
            reach |= free
            while fresh:
                top = fresh.bit_length()  # its highest cell is top - 1
                fresh &= below[top]
                k = class_at[top]
                if seen[k]:  # the second reached: the class is ready
                    ready |= class_cells[k]
                else:
                    seen[k] = 1
            gone = free & ready
            if not gone:
                return False
            table ^= gone  # (gone is on the table)
        return True


_GEOMETRY_CACHE: dict[int, tuple[Layout, dict | None]] = {}


def _geometry(layout: Layout) -> dict | None:
    """Grid sizes, each tile's cell, and byte lookup tables that turn a tile mask into
    cells; None when the grid would be too large. Built once per layout object."""
    cached = _GEOMETRY_CACHE.get(id(layout))
    if cached is not None and cached[0] is layout:
        return cached[1]
    xs, ys, zs = zip(*layout.positions, strict=True)
    x0, y0, z0 = min(xs), min(ys), min(zs)
    # Guards: two empty columns right of the widest row, one empty row under each layer,
    # so that no shift carries a tile's bit onto another tile's cell.
    row = max(xs) - x0 + 3
    layer = row * (max(ys) - y0 + 2)
    depth = max(zs) - z0 + 1
    geometry = None
    if layer * depth <= MAX_GRID_BITS:
        cells = [(x - x0) + (y - y0) * row + (z - z0) * layer for x, y, z in layout.positions]
        n = len(cells)
        byte_tables = []  # converting a tile mask: one table lookup per byte of it
        for base in range(0, n, 8):
            table = [0] * 256
            for value in range(1, 256):
                low = value & -value
                k = base + low.bit_length() - 1
                table[value] = table[value ^ low] | (1 << cells[k] if k < n else 0)
            byte_tables.append(table)
        geometry = {
            "row": row,
            "layer": layer,
            "depth": depth,
            "cells_total": layer * depth,
            "cell_of_tile": cells,
            "all_cells": sum(1 << c for c in cells),
            "stacked": _stacked(layout),
            "byte_tables": byte_tables,
            # Shifts that spread "one layer up" to "any layer up": 1, 2, 4... layers.
            "spans": tuple(layer << k for k in range(max(0, depth - 2).bit_length())),
            # below[n]: the cells under cell n - 1, the highest of a table of bit length n,
            # to drop it in one step.
            "below": [0] + [(1 << c) - 1 for c in range(layer * depth)],
        }
    if len(_GEOMETRY_CACHE) > 64:
        _GEOMETRY_CACHE.clear()
    _GEOMETRY_CACHE[id(layout)] = (layout, geometry)
    return geometry


def _stacked(layout: Layout) -> bool:
    """Whether every tile lying two or more layers over a tile i also lies, directly or
    through others, on a tile of the layer right above i that overlaps i. Then, on a table
    that holds every tile under one of its tiles, "nothing overlapping on the layer right
    above" is the whole "nothing overlapping above" (true of every built-in layout)."""
    positions, covers, under_all = layout.positions, layout.covers, layout.under_all
    for i, (_, _, z) in enumerate(positions):
        right_above = 0
        for j in bits(covers[i]):
            if positions[j][2] == z + 1:
                right_above |= 1 << j
        for k in bits(covers[i]):
            if positions[k][2] > z + 1 and not under_all[k] & right_above:
                return False
    return True
