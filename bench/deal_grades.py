"""Deal difficulty per level: raw random deals against the pools' bands.

.venv/bin/python bench/deal_grades.py [deals per level, default 30]
"""

import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong.settings")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")  # not used; no server start

import django  # noqa: E402

django.setup()

from mahjong.engine.catalog import level_layout  # noqa: E402
from mahjong.engine.deal import new_deal  # noqa: E402
from rooms.grading import grade  # noqa: E402
from rooms.pools import BANDS, graded_deal  # noqa: E402


def quartiles(values):
    values = sorted(values)
    pick = lambda q: values[min(len(values) - 1, int(q * len(values)))]  # noqa: E731
    return f"{pick(0.1):.2f} / {statistics.median(values):.2f} / {pick(0.9):.2f}"


def main(n: int) -> None:
    rng = random.Random(11)
    print(f"{n} deals per level; score 0 forgiving .. 1 punishing; p10 / median / p90")
    header = ("level", "raw deals", "pooled deals", "dead-end rate (pooled)", "ms/pooled")
    print(f"{header[0]:<9} {header[1]:>20} {header[2]:>20} {header[3]:>23} {header[4]:>10}")
    for level in ("beginner", "easy", "medium", "hard"):
        layout = level_layout(level)
        raw = [grade(new_deal(layout, seed=rng.getrandbits(30)), rng).score for _ in range(n)]
        started = time.perf_counter()
        pooled = [graded_deal(level, False, rng) for _ in range(n)]
        ms = (time.perf_counter() - started) * 1000 / n
        rates = [p.dead_end_rate for p in pooled]
        print(
            f"{level:<9} {quartiles(raw):>20} {quartiles([p.score for p in pooled]):>20}"
            f" {quartiles(rates):>23} {ms:>10.0f}   band {BANDS[level]}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
