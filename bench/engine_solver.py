"""Benchmark: the solver over random turtle deals (uniform shuffles, not generated
solvable), as in de Bondt's statistics (2.95-2.96% unsolvable). Not a test.

    .venv/bin/python bench/engine_solver.py [--deals 10000] [--limit 30] [--jobs 1] [--cpu]

Deal k is the full tile set shuffled by random.Random(k). With --jobs > 1 the deals are
spread over processes (wall clock only; times are per deal, measured inside each process).
With --cpu the solver's clock (its time limit and the times reported) is the process's CPU
time, so that other load on the machine does not move the figures.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
import types
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mahjong.engine import Position, full_set, layout_by_number, solve
from mahjong.engine import solver as solver_module


def run_one(seed: int, limit: float | None):
    layout = layout_by_number(0)
    faces = full_set()
    random.Random(seed).shuffle(faces)
    result = solve(layout, faces, time_limit=limit)
    if result.solvable:  # every plan is checked against the rules
        assert Position.start(layout, faces).play(result.plan).is_won()
    return seed, result.solvable, result.seconds, result.nodes


def run_chunk(args):
    seeds, limit, cpu = args
    if cpu:
        solver_module.time = types.SimpleNamespace(perf_counter=time.process_time)
    return [run_one(seed, limit) for seed in seeds]


def pct(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, int(share * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=10000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--limit", type=float, default=30.0, help="seconds per deal")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cpu", action="store_true", help="time by CPU, not wall clock")
    args = parser.parse_args()
    seeds = list(range(args.first, args.first + args.deals))
    started = time.perf_counter()
    if args.jobs > 1:
        chunks = [(seeds[k :: args.jobs], args.limit, args.cpu) for k in range(args.jobs)]
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = [row for chunk in pool.map(run_chunk, chunks) for row in chunk]
    else:
        rows = run_chunk((seeds, args.limit, args.cpu))
    wall = time.perf_counter() - started
    n = len(rows)
    unsolvable = sum(1 for r in rows if r[1] is False)
    undecided = [r[0] for r in rows if r[1] is None]
    share = unsolvable / n
    error = 1.96 * math.sqrt(share * (1 - share) / n)
    times = sorted(r[2] * 1000 for r in rows)
    nodes = sorted(r[3] for r in rows)
    clock = "CPU" if args.cpu else "wall clock"
    print(
        f"{n} random turtle deals (seeds {seeds[0]}..{seeds[-1]}), "
        f"limit {args.limit} s/deal ({clock})"
    )
    print(f"{'unsolvable':<22}{unsolvable} = {share:.2%} ± {error:.2%} (95%)")
    print(f"{'undecided (limit hit)':<22}{len(undecided)} {undecided[:20]}")
    print(f"{'':<12}{'mean':>10}{'median':>10}{'p99':>10}{'max':>12}")
    print(
        f"{'ms / deal':<12}{statistics.mean(times):>10.2f}{statistics.median(times):>10.2f}"
        f"{pct(times, 0.99):>10.1f}{times[-1]:>12.1f}"
    )
    print(
        f"{'nodes':<12}{statistics.mean(nodes):>10.0f}{statistics.median(nodes):>10.0f}"
        f"{pct(nodes, 0.99):>10.0f}{nodes[-1]:>12}"
    )
    print(f"wall clock {wall:.1f} s with {args.jobs} process(es)")


if __name__ == "__main__":
    main()
