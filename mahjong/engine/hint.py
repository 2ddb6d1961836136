"""Hints (docs/RULES.md §Playing a board): the next pair of a winning plan when one exists,
else any playable pair."""

from __future__ import annotations

from dataclasses import dataclass

from .position import Position
from .solver import Solver

WINNING = "winning"  # the pair starts a winning plan from here
PLAYABLE = "playable"  # no win was found (none exists, or the time limit ran out)
NONE = "none"  # blocked: no pair can be played

DEFAULT_TIME_LIMIT = 1.0


@dataclass(frozen=True)
class Hint:
    pair: tuple[int, int] | None
    kind: str  # WINNING, PLAYABLE or NONE

    @property
    def winning(self) -> bool:
        return self.kind == WINNING


def hint(
    position: Position, time_limit: float | None = DEFAULT_TIME_LIMIT, solver: Solver | None = None
) -> Hint:
    """Pass the deal's `solver` to reuse what it learnt on earlier positions of the deal."""
    if not position.alive:
        return Hint(None, NONE)
    playable = position.playable_pairs()
    if not playable:
        return Hint(None, NONE)
    solver = solver or Solver(position.layout, position.faces)
    result = solver.solve(position.alive, time_limit)
    if result.solvable and result.plan:
        return Hint(tuple(sorted(result.plan[0])), WINNING)
    return Hint(playable[0], PLAYABLE)
