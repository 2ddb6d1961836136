"""Benchmark: the server's own cost of one pair in a full room (20 seats), without
sockets: `rooms.race.actions.play_pair` called as the socket handler calls it
(`rooms.live.socket_db.run_action`: in a worker thread under an event loop, then its outbox
sent from the loop: the standings' paced send scheduled, any event published).
Prints wall and CPU time per pair (median, p99) and the SQL statements it runs. Not a test.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mahjong_load \\
        .venv/bin/python bench/pair_cost.py [--pairs 400]

Each pair's event goes to the channel layer after commit as on the site, so REDIS_URL
should name a Redis (default: the site's).
"""

import argparse
import asyncio
import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from channels.db import database_sync_to_async  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import Player  # noqa: E402
from bench.client_board import a_legal_pair  # noqa: E402
from rooms.core.boards import position_of  # noqa: E402
from rooms.live.socket_db import run_action  # noqa: E402
from rooms.lobby import actions as lobby  # noqa: E402
from rooms.models import Entry  # noqa: E402
from rooms.race import actions as races  # noqa: E402
from rooms.race import end as race_end  # noqa: E402

SEATS = 20
PAIR_SPACING_MS = 20  # a seat's pairs 400 ms apart: above the pace floor (PAIR_FLOOR_MS)


def full_room():
    people = [Player.objects.create() for _ in range(SEATS)]
    room = lobby.create_room(people[0], "bench-0")
    lobby.update_rules(people[0], room.code, {"level": "hard", "idle_limit_seconds": 0})
    for k, person in enumerate(people[1:], 1):
        lobby.join_room(person, room.code, f"bench-{k}")
    race = races.start_race(people[0], room.code, seed=k)
    return room.code, people, race.go_at + timedelta(seconds=1)


@database_sync_to_async
def next_pair(code, player):
    entry = Entry.objects.get(race__room__code=code, seat__player=player)
    pair = a_legal_pair(position_of(entry))
    return (list(pair), entry.pairs_removed) if pair else None


def play(code, player, pair, n, now):
    before = backend_cpu()
    with CaptureQueriesContext(connection) as queries:
        races.play_pair(player, code, pair, n, now=now)
    return len(queries), backend_cpu() - before


def backend_cpu() -> float:
    """CPU seconds so far of this thread's PostgreSQL backend process (clock ticks, so
    only a sum over many pairs means anything)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def one_pair(code, player, now):
    chosen = await next_pair(code, player)
    if chosen is None:
        return None
    wall, cpu = time.perf_counter(), time.process_time()  # CPU of every thread
    statements, database = await run_action(play, code, player, *chosen, now)
    return time.perf_counter() - wall, time.process_time() - cpu, statements, database


def table(rows):
    print("| per pair | median | p99 | mean |")
    print("|---|---|---|---|")
    for name, values in rows:
        q = statistics.quantiles(values, n=100)
        median, p99, mean = statistics.median(values), q[98], statistics.fmean(values)
        print(f"| {name} | {median:.2f} | {p99:.2f} | {mean:.2f} |")


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=400)
    args = parser.parse_args()
    code, people, now = await database_sync_to_async(full_room)()
    walls, cpus, statements, database = [], [], [], 0.0
    for k in range(args.pairs):
        at = now + timedelta(milliseconds=PAIR_SPACING_MS * k)
        measured = await one_pair(code, people[k % SEATS], at)
        if measured is None:
            continue
        walls.append(measured[0] * 1000)
        cpus.append(measured[1] * 1000)
        statements.append(measured[2])
        database += measured[3]
    # Left running, its seats would soon be "away" and played by CPUs on the site's worker.
    await database_sync_to_async(race_end.end_race_by_staff)(code)
    print(f"{len(walls)} pairs in one room of {SEATS}, {timezone.now():%Y-%m-%d %H:%M} UTC")
    table([("wall ms", walls), ("CPU ms", cpus), ("SQL statements", statements)])
    per_pair = database * 1000 / len(walls)
    print(f"PostgreSQL CPU per pair (mean, its backend process): {per_pair:.2f} ms")


if __name__ == "__main__":
    asyncio.run(main())
