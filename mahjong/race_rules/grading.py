"""How hard a deal is, measured by playing it (pure: no database).

Two measures a player feels: how many of the opening pairs still lead to a win (few
means an early wrong choice is fatal), and how often a player who picks any visible
pair at random walks into a dead end before clearing the board.
"""

import random
from dataclasses import dataclass

from mahjong.engine.deal import Deal
from mahjong.engine.position import Position
from mahjong.engine.solver import Solver

PLAYOUTS = 24
SOLVE_TIME_LIMIT_SECONDS = 0.5


@dataclass(frozen=True)
class Grade:
    first_pairs: int  # pairs playable at the start
    winning_first_pairs: int  # of those, how many keep a winning line
    dead_end_rate: float  # share of random playouts that end blocked

    @property
    def score(self) -> float:
        """0 (forgiving) .. 1 (punishing): the sort key of a pool."""
        trap = 1 - self.winning_first_pairs / self.first_pairs if self.first_pairs else 1
        return round(0.7 * self.dead_end_rate + 0.3 * trap, 4)


def grade(deal: Deal, rng: random.Random) -> Grade:
    start = deal.start()
    solver = Solver(deal.layout, deal.faces)
    first = start.playable_pairs()
    winning = sum(1 for pair in first if _still_wins(solver, start.remove(*pair)))
    blocked = sum(_random_playout_blocks(start, rng) for _ in range(PLAYOUTS))
    return Grade(len(first), winning, blocked / PLAYOUTS)


def _still_wins(solver: Solver, position: Position) -> bool:
    return bool(solver.solve(position.alive, time_limit=SOLVE_TIME_LIMIT_SECONDS).solvable)


def _random_playout_blocks(position: Position, rng: random.Random) -> bool:
    while position.alive:
        pairs = position.playable_pairs()
        if not pairs:
            return True
        position = position.remove(*rng.choice(pairs))
    return False
