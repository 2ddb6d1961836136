"""How fast each CPU level clears each race level, by simulation (no server, no clock).

The CPU's own decision and delay functions (mahjong/race_rules/cpu.py) play solvable deals with the
race defaults (3 shuffles); time is the sum of the drawn thinking delays.

    .venv/bin/python bench/cpu_finish_times.py [games per cell, default 40]
"""

import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mahjong.engine.catalog import level_layout  # noqa: E402
from mahjong.engine.deal import new_deal  # noqa: E402
from mahjong.engine.shuffle import shuffle  # noqa: E402
from mahjong.race_rules import cpu  # noqa: E402

SHUFFLES = 3


def play(deal, profile, rng) -> tuple[float | None, int]:
    """(seconds to clear, or None when out of moves; shuffles used)."""
    position, seconds, used = deal.start(), 0.0, 0
    while position.alive:
        decision = cpu.choose(position, profile, SHUFFLES - used, rng)
        seconds += cpu.think_seconds(profile, len(position.playable_pairs()), rng)
        if decision.kind == "pair":
            position = position.remove(*decision.pair)
        elif decision.kind == "shuffle":
            position = shuffle(position, seed=rng.getrandbits(48)).position
            used += 1
        else:
            return None, used
    return seconds, used


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main(games: int) -> None:
    rng = random.Random(2026)
    print(f"{games} games per cell; time in seconds (simulated thinking time)")
    print(f"{'level':<9} {'cpu':<8} {'cleared':>8} {'median':>7} {'p90':>6} {'shuffles':>9}")
    for level in ("beginner", "easy", "medium", "hard"):
        layout = level_layout(level)
        deals = [new_deal(layout, seed=rng.getrandbits(30)) for _ in range(games)]
        for name, profile in cpu.PROFILES.items():
            results = [play(deal, profile, rng) for deal in deals]
            times = [t for t, _ in results if t is not None]
            cleared = len(times) / games
            shuffles = statistics.mean(u for _, u in results)
            median = statistics.median(times) if times else float("nan")
            p90 = percentile(times, 0.9) if times else float("nan")
            print(
                f"{level:<9} {name:<8} {cleared:>7.0%} {median:>7.0f} {p90:>6.0f} {shuffles:>9.2f}"
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
