"""Benchmark: every built-in layout deals solvable, and how long a deal takes (not a test).

.venv/bin/python bench/layout_deals.py [--deals 1000] [names ...]

For each layout, seeds 0..N-1 through `new_deal` (what a game code deals); a failure is a
NoSolvableDeal or a plan that does not clear the table when played by the rules (the
replay is not timed). Prints a table: failures, median / p99 / max generation time, in
CPU time of this process (time.process_time), so that other work on the machine does
not show up as slow deals.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mahjong.engine import CATALOG, IllegalMove, NoSolvableDeal, layout_by_number, new_deal


def percentile(sorted_values: list[float], share: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(share * len(sorted_values)))]


def run(number: int, deals: int) -> tuple[int, list[float]]:
    layout = layout_by_number(number)
    failures, times = 0, []
    for seed in range(deals):
        start = time.process_time()
        try:
            deal = new_deal(layout, seed)
        except NoSolvableDeal:
            failures += 1
            continue
        times.append((time.process_time() - start) * 1000)
        try:
            won = deal.start().play(deal.plan).is_won()
        except IllegalMove:
            won = False
        failures += not won
    return failures, sorted(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("names", nargs="*", help="layout names (default: every built-in)")
    args = parser.parse_args()
    entries = [e for e in CATALOG if not args.names or e.name in args.names]
    print(f"{args.deals} deals per layout, seeds 0..{args.deals - 1}, CPU time of one core")
    print(
        f"{'no':>3} {'layout':<17}{'tiles':>6}{'failures':>9}{'median ms':>11}{'p99 ms':>9}"
        f"{'max ms':>9}"
    )
    total = 0
    for entry in entries:
        failures, times = run(entry.number, args.deals)
        total += failures
        print(
            f"{entry.number:>3} {entry.name:<17}{entry.tiles:>6}{failures:>9}"
            f"{statistics.median(times):>11.2f}{percentile(times, 0.99):>9.2f}{times[-1]:>9.2f}"
        )
    print(f"failures in all: {total}")
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()
