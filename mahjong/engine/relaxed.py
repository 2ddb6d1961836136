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

Only a move that leaves the last two tiles of a class can turn a passing position into a
failing one: any other move only removes tiles and constraints. And once that new last
pair has left in the greedy pass, the rest follows the parent's own greedy order, so the
pass can stop there (`passes_after`). That keeps the test to a few tiles on most calls.
"""

from __future__ import annotations

from .layout import Layout


class Relaxed:
    def __init__(self, layout: Layout, class_of_tile: tuple[int, ...]) -> None:
        self.layout = layout
        self.class_of_tile = class_of_tile  # per tile: the bitmask of its whole class

    def passes(self, alive: int, free: int) -> bool:
        """The full greedy pass: False proves the position dead."""
        return self._greedy(alive, free, alive)

    def passes_after(self, alive: int, free: int, pair: int) -> bool:
        """The pass after a move that left `pair` as its class's last two tiles, from a
        position that passed: False proves the position dead."""
        if free & pair == pair:
            return True
        return self._greedy(alive, free, pair)

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
