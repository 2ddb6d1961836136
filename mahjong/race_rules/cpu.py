"""How a CPU opponent plays (pure: no database): like a person (docs/RULES.md §CPU opponents).

A CPU looks for a pair for a while (a delay drawn per level, longer when few pairs are
open, as for a person scanning the board), then usually plays the next pair of a
winning plan and sometimes just any pair it sees, so it can walk into a dead end; then
it shuffles or gives up under the same rules as humans. It never uses a hint.
"""

import math
import random
from dataclasses import dataclass

from mahjong.engine.position import Position
from mahjong.engine.solver import Solver

PLAN_TIME_LIMIT_SECONDS = 0.3


@dataclass(frozen=True)
class Profile:
    median_seconds: float  # typical time to find a pair with plenty open
    spread: float  # sigma of the log-normal delay
    plan_share: float  # how often it plays a pair that keeps a winning line


PROFILES = {
    "relaxed": Profile(median_seconds=4.5, spread=0.45, plan_share=0.6),
    "steady": Profile(median_seconds=2.8, spread=0.4, plan_share=0.85),
    "sharp": Profile(median_seconds=1.6, spread=0.35, plan_share=0.97),
}


@dataclass(frozen=True)
class Decision:
    kind: str  # "pair", "shuffle" or "give_up"
    pair: tuple[int, int] | None = None


def think_seconds(profile: Profile, open_pairs: int, rng: random.Random) -> float:
    """Log-normal around the level's median; scarce pairs take longer to spot."""
    scarcity = 1 + 1.2 / max(1, open_pairs)
    return profile.median_seconds * scarcity * math.exp(rng.gauss(0, profile.spread))


def choose(position: Position, profile: Profile, shuffles_left: int, rng) -> Decision:
    pairs = position.playable_pairs()
    if not pairs:
        return Decision("shuffle") if shuffles_left > 0 else Decision("give_up")
    if rng.random() < profile.plan_share:
        result = Solver(position.layout, position.faces).solve(
            position.alive, time_limit=PLAN_TIME_LIMIT_SECONDS
        )
        if result.solvable and result.plan:
            return Decision("pair", tuple(sorted(result.plan[0])))
    return Decision("pair", rng.choice(pairs))
