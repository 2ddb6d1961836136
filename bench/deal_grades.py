"""Deal difficulty: per level, raw random deals against the pools' bands; per built-in
layout (--layouts), the measured difficulty written into the catalogue.

.venv/bin/python bench/deal_grades.py [deals per level, default 30]
.venv/bin/python bench/deal_grades.py --layouts [deals per layout, default 24] [names ...]
"""

import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")  # not used; no server start

import django  # noqa: E402

django.setup()

from mahjong.engine import catalog  # noqa: E402
from mahjong.engine.deal import new_deal  # noqa: E402
from mahjong.race_rules.grading import grade  # noqa: E402
from mahjong.rules import GRADE_BANDS  # noqa: E402
from rooms.pools.actions import graded_deal  # noqa: E402


def quartiles(values):
    values = sorted(values)
    pick = lambda q: values[min(len(values) - 1, int(q * len(values)))]  # noqa: E731
    return f"{pick(0.1):.2f} / {statistics.median(values):.2f} / {pick(0.9):.2f}"


def levels(n: int) -> None:
    rng = random.Random(11)
    print(f"{n} deals per level; score 0 forgiving .. 1 punishing; p10 / median / p90")
    header = ("level", "raw deals", "pooled deals", "dead-end rate (pooled)", "ms/pooled")
    print(f"{header[0]:<9} {header[1]:>20} {header[2]:>20} {header[3]:>23} {header[4]:>10}")
    for level in ("beginner", "easy", "medium", "hard"):
        layout = catalog.level_layout(level)
        raw = [grade(new_deal(layout, seed=rng.getrandbits(30)), rng).score for _ in range(n)]
        started = time.perf_counter()
        pooled = [graded_deal(level, False, rng) for _ in range(n)]
        ms = (time.perf_counter() - started) * 1000 / n
        rates = [p.dead_end_rate for p in pooled]
        print(
            f"{level:<9} {quartiles(raw):>20} {quartiles([p.score for p in pooled]):>20}"
            f" {quartiles(rates):>23} {ms:>10.0f}   band {GRADE_BANDS[level]}"
        )


def layouts(n: int, names: list[str]) -> None:
    """Seeds 0..n-1 of every built-in layout; the label comes from the mean score
    (catalog.difficulty_label, docs/LAYOUTS.md §Difficulty)."""
    print(f"{n} deals per layout (seeds 0..{n - 1}); score 0 forgiving .. 1 punishing")
    print(
        f"{'no':>3} {'name':<17}{'tiles':>6}{'mean score':>11}{'p10 / median / p90':>22}"
        f"{'dead ends':>10}{'ms/deal':>9}  label (catalogue)"
    )
    for entry in (e for e in catalog.CATALOG if not names or e.name in names):
        layout = catalog.layout_by_number(entry.number)
        rng = random.Random(entry.number)
        started = time.perf_counter()
        grades = [grade(new_deal(layout, seed), rng) for seed in range(n)]
        ms = (time.perf_counter() - started) * 1000 / n
        scores = [g.score for g in grades]
        mean = statistics.mean(scores)
        dead = statistics.mean(g.dead_end_rate for g in grades)
        print(
            f"{entry.number:>3} {entry.name:<17}{entry.tiles:>6}{mean:>11.3f}"
            f"{quartiles(scores):>22}{dead:>10.2f}{ms:>9.0f}  {catalog.difficulty_label(mean)}"
            f" ({entry.difficulty or '-'})"
        )


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "--layouts":
        layouts(int(args[1]) if len(args) > 1 else 24, args[2:])
    else:
        levels(int(args[0]) if args else 30)
