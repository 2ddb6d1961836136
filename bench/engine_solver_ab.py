"""Benchmark: two versions of the solver on the same random turtle deals, in one process.
Not a test.

    .venv/bin/python bench/engine_solver_ab.py OLD_CHECKOUT NEW_CHECKOUT \\
        [--deals 10000] [--first 0] [--limit 30] [--jobs 2]

Each checkout is a folder holding `mahjong/engine/` (say a `git worktree` of an older
commit). Both engines are loaded side by side under other names and every deal is solved
by both, one right after the other on the same core, which goes first alternating by
seed; time is the process's CPU time. On a shared machine whose speed drifts by a quarter
between runs, and whose two cores are not equally fast, this is the comparison to
trust: two separate runs of `engine_solver.py`, even at the same time, are not. With
--jobs 2 each process takes one half of the deals. Both must agree on every verdict.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import random
import statistics
import sys
import time
import types
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def load_engine(name: str, checkout: str):
    """The package `<checkout>/mahjong/engine`, imported as `name`, timed by CPU."""
    path = Path(checkout).resolve() / "mahjong" / "engine"
    spec = importlib.util.spec_from_file_location(
        name, path / "__init__.py", submodule_search_locations=[str(path)]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    solver = importlib.import_module(f"{name}.solver")
    solver.time = types.SimpleNamespace(perf_counter=time.process_time)
    return module


def run_range(args) -> list:
    old_checkout, new_checkout, first, stop, limit = args
    engines = (load_engine("engine_old", old_checkout), load_engine("engine_new", new_checkout))
    layouts = [engine.layout_by_number(0) for engine in engines]
    rows = []
    for seed in range(first, stop):
        faces = engines[0].full_set()
        random.Random(seed).shuffle(faces)
        results = [None, None]
        for k in (0, 1) if seed % 2 == 0 else (1, 0):
            started = time.process_time()
            result = engines[k].solve(layouts[k], faces, time_limit=limit)
            results[k] = (result.solvable, result.nodes, time.process_time() - started)
        if results[0][0] != results[1][0]:
            raise SystemExit(f"seed {seed}: verdicts differ {results[0][0]} / {results[1][0]}")
        rows.append((seed, *results))
    return rows


def pct(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, int(share * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--deals", type=int, default=10000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--limit", type=float, default=30.0, help="CPU seconds per deal")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    bounds = [args.first + args.deals * k // args.jobs for k in range(args.jobs + 1)]
    ranges = [(args.old, args.new, bounds[k], bounds[k + 1], args.limit) for k in range(args.jobs)]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = [row for chunk in pool.map(run_range, ranges) for row in chunk]
    n = len(rows)
    unsolvable = sum(1 for row in rows if row[1][0] is False)
    undecided = sum(1 for row in rows if row[1][0] is None)
    print(
        f"{n} random turtle deals (seeds {args.first}..{args.first + n - 1}), "
        f"limit {args.limit} s/deal (CPU), both versions in each process"
    )
    print(f"unsolvable {unsolvable}, undecided {undecided} (the same for both)")
    print(f"{'':<16}{'mean ms':>10}{'median':>10}{'p99':>10}{'max':>12}{'nodes':>10}")
    for label, k in (("old " + args.old, 1), ("new " + args.new, 2)):
        times = sorted(row[k][2] * 1000 for row in rows)
        nodes = statistics.mean(row[k][1] for row in rows)
        print(
            f"{label[-16:]:<16}{statistics.mean(times):>10.2f}{statistics.median(times):>10.2f}"
            f"{pct(times, 0.99):>10.1f}{times[-1]:>12.1f}{nodes:>10.0f}"
        )
    ratio = sum(row[2][2] for row in rows) / sum(row[1][2] for row in rows)
    print(f"new / old total time: {ratio:.4f}")


if __name__ == "__main__":
    main()
