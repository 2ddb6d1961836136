"""What a stored layout costs the site: the checks of an upload (read, playable) and a
deal dealt on demand for a race on it, per size (docs/LAYOUTS.md).

.venv/bin/python bench/stored_layouts.py [deals per layout, default 200]

No database: the upload's checks are layouts.actions.read_layout_text without the
counts, a deal is the engine's stored_deal, as mahjong.deals.deal_for makes it.
"""

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")  # not used; no server start

import django  # noqa: E402

django.setup()

from layouts.actions import read_layout_text  # noqa: E402
from mahjong.engine.catalog import layout_by_number  # noqa: E402
from mahjong.engine.deal import stored_deal  # noqa: E402
from mahjong.engine.layout import layout_from_positions, layout_to_text  # noqa: E402


def twin(number: int):
    """A built-in layout twice, side by side: the biggest uploads allowed."""
    positions = layout_by_number(number).positions
    shift = max(x for x, _, _ in positions) + 4
    return layout_from_positions([*positions, *((x + shift, y, z) for x, y, z in positions)])


def timed_ms(call, n: int) -> tuple[float, float]:
    times = []
    for i in range(n):
        start = time.perf_counter()
        call(i)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(0.99 * len(times)))]


def main(n: int) -> None:
    shapes = [
        ("Beginner (L01)", layout_by_number(1)),
        ("Turtle (L00)", layout_by_number(0)),
        ("Hard (L04) twice", twin(4)),
        ("Turtle twice", twin(0)),
    ]
    print(f"{n} runs each; milliseconds, median / p99")
    print(f"{'layout':<18} {'tiles':>5} {'text KB':>8} {'upload checks':>16} {'deal':>16}")
    for name, layout in shapes:
        text = layout_to_text(layout)
        check = timed_ms(lambda _i, t=text: read_layout_text(t), max(10, n // 10))
        deal = timed_ms(lambda i, lay=layout: stored_deal(lay, 1, seed=i), n)
        print(
            f"{name:<18} {len(layout):>5} {len(text) / 1024:>8.1f} "
            f"{check[0]:>7.1f} / {check[1]:>6.1f} {deal[0]:>7.1f} / {deal[1]:>6.1f}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
