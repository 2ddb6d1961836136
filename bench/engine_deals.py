"""Benchmark: solvable deal generation per built-in layout (not a test).

.venv/bin/python bench/engine_deals.py [--deals 1000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mahjong.engine import CATALOG, layout_by_number, new_deal


def percentile(sorted_values: list[float], share: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(share * len(sorted_values)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=1000)
    args = parser.parse_args()
    print(f"{args.deals} deals per layout, seeds 0..{args.deals - 1}, one core")
    print(f"{'layout':<18}{'tiles':>6}{'median ms':>11}{'p99 ms':>9}{'max ms':>9}{'mean ms':>9}")
    for entry in CATALOG:
        layout = layout_by_number(entry.number)
        times = []
        for seed in range(args.deals):
            start = time.perf_counter()
            new_deal(layout, seed)
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        print(
            f"{entry.name:<18}{len(layout):>6}{statistics.median(times):>11.3f}"
            f"{percentile(times, 0.99):>9.3f}{times[-1]:>9.3f}{statistics.mean(times):>9.3f}"
        )


if __name__ == "__main__":
    main()
