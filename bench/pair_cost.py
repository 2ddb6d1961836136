"""Benchmark: the server's own cost of one pair in a full room (20 seats), without
sockets, both ways a pair is stored (docs/ARCHITECTURE.md §The pair on the event loop):

- `held`: as the socket stores a pair on the board it holds (rooms/race/held_board.py
  `play`, awaited on the event loop: the one conditional statement through
  infra/async_db.py), PostgreSQL only;
- `full`: as the socket stores one it is not sure of (rooms.live.socket_db.run_action_in
  on the play lane's threads: rooms/race/actions.py `play_pair` locks the room, then its
  outbox is sent from the loop).

Prints, per way, wall and CPU time per pair (median, p99) of this process (every
thread), PostgreSQL's CPU per pair (its backends for the database, from /proc), and the
**round trips to PostgreSQL** a pair takes, counted on the wire: every connection goes
through a small proxy here that counts each time the client speaks after the server has
(BEGIN, a statement, COMMIT: one each). Not a test.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mahjong_load \\
        .venv/bin/python bench/pair_cost.py [--pairs 400] [--way held|full|both]

The standings' window (one read a room and period, not a pair's: bench/load/run.py
measures it) is set to ten minutes here, so its reads do not fall among the pairs'.
"""

import argparse
import asyncio
import os
import socket
import statistics
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "load"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("STANDINGS_FEED_MS", str(10 * 60 * 1000))

import django  # noqa: E402
from django.conf import settings  # noqa: E402


class CountingProxy(threading.Thread):
    """A TCP proxy to PostgreSQL on its own loop, counting round trips: a client's
    bytes after the server's (or first) begin one."""

    def __init__(self, host: str, port: int):
        super().__init__(daemon=True)
        self.target, self.round_trips, self.ready = (host, port), 0, threading.Event()
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()

    def run(self):
        asyncio.run(self._serve())

    async def _serve(self):
        server = await asyncio.start_server(self._link, "127.0.0.1", self.port)
        self.ready.set()
        async with server:
            await server.serve_forever()

    async def _link(self, client_reader, client_writer):
        server_reader, server_writer = await asyncio.open_connection(*self.target)
        turn = {"server_spoke": True}

        async def pipe(reader, writer, from_client: bool):
            while data := await reader.read(65536):
                if from_client and turn["server_spoke"]:
                    self.round_trips += 1
                turn["server_spoke"] = not from_client
                writer.write(data)
                await writer.drain()
            writer.close()

        await asyncio.gather(
            pipe(client_reader, server_writer, True),
            pipe(server_reader, client_writer, False),
            return_exceptions=True,
        )


def _through_proxy() -> CountingProxy:
    """DATABASE_URL's PostgreSQL behind a counting proxy, before Django reads settings."""
    url = urlparse(os.environ.get("DATABASE_URL", ""))
    if url.scheme not in ("postgres", "postgresql"):
        raise SystemExit("DATABASE_URL must name a PostgreSQL database of its own")
    proxy = CountingProxy(url.hostname or "127.0.0.1", url.port or 5432)
    proxy.start()
    proxy.ready.wait(5)
    netloc = url.netloc.rsplit("@", 1)[0] + "@" if "@" in url.netloc else ""
    os.environ["DATABASE_URL"] = url._replace(netloc=f"{netloc}127.0.0.1:{proxy.port}").geturl()
    os.environ["LOAD_DATABASE"] = url.path.lstrip("/")
    return proxy


PROXY = _through_proxy()
django.setup()

import cpu_use  # noqa: E402
from asgiref.sync import sync_to_async  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import Player  # noqa: E402
from bench.client_board import a_legal_pair  # noqa: E402
from rooms.core.boards import position_of  # noqa: E402
from rooms.live.socket_db import PLAY, run_action_in  # noqa: E402
from rooms.lobby import actions as lobby  # noqa: E402
from rooms.models import Entry  # noqa: E402
from rooms.race import actions as races  # noqa: E402
from rooms.race import end as race_end  # noqa: E402
from rooms.race import held_board  # noqa: E402

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


@sync_to_async(thread_sensitive=False)
def boards_of(code, people) -> list[held_board.HeldBoard]:
    entries = Entry.objects.select_related("race").filter(race__room__code=code)
    by_player = {e.seat.player_id: e for e in entries.select_related("seat")}
    return [held_board.held(code, by_player[p.pk]) for p in people]


async def held_pair(board: held_board.HeldBoard, player, at) -> bool:
    pair = a_legal_pair(board.position)
    return pair is not None and await held_board.play(board, tuple(pair), board.pairs_removed, at)


async def full_pair(board: held_board.HeldBoard, player, at) -> bool:
    pair = a_legal_pair(board.position)
    if pair is None:
        return False
    n = board.pairs_removed
    entry = await run_action_in(PLAY, races.play_pair, player, board.code, list(pair), n, now=at)
    board.position, board.pairs_removed = position_of(entry), entry.pairs_removed
    return entry.status == Entry.Status.PLAYING


async def measure(way, pairs: int) -> dict[str, list[float]]:
    code, people, now = await sync_to_async(full_room)()
    boards = await boards_of(code, people)
    play = held_pair if way == "held" else full_pair
    rows = {"wall ms": [], "CPU ms": [], "round trips": []}
    database, stored, before = 0.0, 0, cpu_use.snapshot()
    for k in range(pairs):
        seat = k % SEATS
        if boards[seat] is None:
            continue
        at = now + timedelta(milliseconds=PAIR_SPACING_MS * k)
        trips, wall, cpu = PROXY.round_trips, time.perf_counter(), time.process_time()
        if not await play(boards[seat], people[seat], at):
            boards[seat] = None  # its board ends (or the held copy was not sure): left out
            continue
        rows["wall ms"].append((time.perf_counter() - wall) * 1000)
        rows["CPU ms"].append((time.process_time() - cpu) * 1000)
        rows["round trips"].append(PROXY.round_trips - trips)
        stored += 1
    database = cpu_use.snapshot()["database"] - before["database"]
    # Left running, its seats would soon be "away" and played by CPUs on the site's worker.
    await sync_to_async(race_end.end_race_by_staff)(code)
    rows["PostgreSQL CPU ms (mean)"] = [database * 1000 / max(stored, 1)]
    return rows


def table(results: dict[str, dict[str, list[float]]]):
    ways = list(results)
    print("| per pair | " + " | ".join(f"{w}: median | {w}: p99" for w in ways) + " |")
    print("|---" * (1 + 2 * len(ways)) + "|")
    for name in results[ways[0]]:
        cells = []
        for way in ways:
            values = results[way][name]
            p99 = statistics.quantiles(values, n=100)[98] if len(values) > 1 else values[0]
            cells += [f"{statistics.median(values):.2f}", f"{p99:.2f}"]
        print(f"| {name} | " + " | ".join(cells) + " |")


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=400)
    parser.add_argument("--way", choices=("held", "full", "both"), default="both")
    args = parser.parse_args()
    ways = ("held", "full") if args.way == "both" else (args.way,)
    results = {way: await measure(way, args.pairs) for way in ways}
    kept = settings.DATABASES["default"]["CONN_MAX_AGE"]
    print(f"{args.pairs} pairs a way in one room of {SEATS}, {timezone.now():%Y-%m-%d %H:%M} UTC")
    print(f"(connections kept: CONN_MAX_AGE {kept}; PostgreSQL CPU: every backend of the database)")
    table(results)


if __name__ == "__main__":
    asyncio.run(main())
