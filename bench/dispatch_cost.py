"""Benchmark: what channels' own `AsyncConsumer.dispatch` costs a room socket per message,
against the consumer's (docs/ARCHITECTURE.md §The event outbox). Channels' first hops to
the one shared sync thread to close old database connections; ours does not. A pair's
event reaches the 20 sockets of a full room at once, so each round dispatches one message
to 20 consumers side by side. Prints CPU and wall time per message. Not a test.

    .venv/bin/python bench/dispatch_cost.py [--rounds 500]
"""

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong.settings")

import django  # noqa: E402

django.setup()

from channels.consumer import AsyncConsumer  # noqa: E402

from rooms.consumers import RoomConsumer  # noqa: E402

SOCKETS = 20


class Counting(RoomConsumer):
    async def room_event(self, message):  # the frame's write left out: the same for both
        self.count += 1


async def rounds(dispatch, consumers, n):
    message = {"type": "room.event", "kind": "standings", "text": "{}"}
    walls, cpus = [], []
    for _ in range(n):
        wall, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(dispatch(c, message) for c in consumers))
        walls.append((time.perf_counter() - wall) * 1e6 / len(consumers))
        cpus.append((time.process_time() - cpu) * 1e6 / len(consumers))
    return statistics.median(walls), statistics.median(cpus)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=500)
    args = parser.parse_args()
    consumers = [Counting() for _ in range(SOCKETS)]
    for c in consumers:
        c.count = 0
    ways = {"channels' dispatch": AsyncConsumer.dispatch, "the consumer's": RoomConsumer.dispatch}
    for dispatch in ways.values():
        await rounds(dispatch, consumers, 50)  # warm up (the sync thread started)
    results = {name: [] for name in ways}
    for _ in range(3):  # interleaved
        for name, dispatch in ways.items():
            results[name].append(await rounds(dispatch, consumers, args.rounds))
    print(f"{SOCKETS} sockets, {args.rounds} rounds x 3 each, interleaved; µs per message")
    print("| dispatch | wall (median) | CPU (median) |")
    print("|---|---|---|")
    for name, runs in results.items():
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        print(f"| {name} | {wall:.1f} | {cpu:.1f} |")


if __name__ == "__main__":
    asyncio.run(main())
