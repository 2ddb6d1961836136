"""Websocket load: N players in rooms of 20 race on a running site, at a human pace.

Rooms and players are created directly through rooms.lobby.actions in the site's database;
everything after that goes through the sockets only: each owner starts the race, each
player reads its board from "go" and plays pairs the engine allows on that board (any
free matching pair, not a plan), one every PACE seconds on average. Afterwards every
acknowledged move is checked against the database: none lost, none doubled.

Start the site first (see docs/PERFORMANCE.md) with SOCKETS_PER_ADDRESS=0 (every player
here comes from one address), then, with the same DATABASE_URL and REDIS_URL as the site:

    .venv/bin/python bench/load/run.py --players 1000 --url http://127.0.0.1:8200

One file on purpose (~480 lines): a benchmark is read and run as one piece, set-up,
players, checks and the table, and the multi-host figures (bench/scale) import it whole.
"""

import argparse
import asyncio
import collections
import contextlib
import json
import os
import random
import sys
import time
import timeit
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402
import msgspec  # noqa: E402

django.setup()

import uvloop  # noqa: E402
from django.db import connections  # noqa: E402
from django.db.models import Count, Q  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402

from accounts.identity import COOKIE_NAME, signed_token  # noqa: E402
from accounts.models import Player  # noqa: E402
from bench.client_board import a_legal_pair  # noqa: E402
from mahjong.engine.layout import layout_from_positions  # noqa: E402
from mahjong.engine.position import Position  # noqa: E402
from mahjong.engine.tiles import face_id  # noqa: E402
from rooms.core import errors  # noqa: E402
from rooms.lobby import actions as lobby  # noqa: E402
from rooms.models import Entry, Move  # noqa: E402
from rooms.race import end as race_end  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cpu_use  # noqa: E402

ACK_TIMEOUT = 10.0
SPREAD = 0.3  # σ of the log-normal pause between a player's pairs
RECONNECT_SECONDS = 60.0
GO_TIMEOUT = 120.0  # a race that never starts ends this player's run, not the bench
CPU_LEVEL = "sharp"  # CPU seats' profile, when a run adds them (--cpus)


@lru_cache(maxsize=64)
def layout_of(positions: tuple) -> object:
    # Every board of a level shares its layout: build it once, not once a player.
    return layout_from_positions(positions)


def position_from_board(board: dict) -> Position:
    positions = tuple((t["x"], t["y"], t["z"]) for t in board["tiles"])
    faces = tuple(face_id(t["face"]) for t in board["tiles"])
    return Position(layout_of(positions), faces, sum(1 << i for i in board["alive"]))


def running_board(snapshot: dict) -> bool:
    """The snapshot shows this seat's board with its faces in a running race."""
    race, entry = snapshot.get("race") or {}, snapshot.get("entry") or {}
    tiles = (entry.get("board") or {}).get("tiles") or []
    return race.get("status") == "running" and bool(tiles) and "face" in tiles[0]


# --- setup, in the site's database -------------------------------------------------
def vacuum() -> None:
    """Clear the dead rows earlier runs left. Every pair rewrites its board's row; where
    autovacuum is off (as on the development machine's PostgreSQL) the dead versions pile
    up run after run and each run pays more database CPU per pair than the one before."""
    if connections["default"].vendor != "postgresql":
        return
    with connections["default"].cursor() as cursor:
        for table in ("rooms_room", "rooms_race", "rooms_seat", "rooms_entry", "rooms_move"):
            cursor.execute(f"VACUUM ANALYZE {table}")


def make_rooms(
    players: int, room_size: int, level: str, cpus: int = 0
) -> list[list[tuple[str, str]]]:
    """Rooms of `room_size` humans, and `cpus` CPU seats in each; returns per room
    [(room code, cookie)] of the humans, owner first."""
    rooms = []
    for first in range(0, players, room_size):
        people = [Player.objects.create() for _ in range(min(room_size, players - first))]
        room = lobby.create_room(people[0], "load-0")
        lobby.update_rules(people[0], room.code, {"level": level, "idle_limit_seconds": 0})
        for k, person in enumerate(people[1:], 1):
            lobby.join_room(person, room.code, f"load-{k}")
        for _ in range(cpus):
            lobby.add_cpu(people[0], room.code, CPU_LEVEL)
        cookies = [f"{COOKIE_NAME}={signed_token(p.device_token)}" for p in people]
        rooms.append([(room.code, cookie) for cookie in cookies])
    return rooms


def stored_pairs(codes: list[str]) -> dict[tuple[str, str], tuple[int, set[int], set[int]]]:
    """(room, nickname) -> (pair moves the player stored, their distinct numbers, the
    numbers of every pair stored on the board). A CPU's moves are not the player's: a
    seat away too long is played by a stand-in CPU, as on the site. But an acknowledged
    pair a stand-in stored is not lost: a player's pair that the stand-in had just made
    (same tiles, same number) is acknowledged as a retry (rooms.race.actions.play_pair)."""
    result = {}
    entries = Entry.objects.filter(race__room__code__in=codes).select_related("seat", "race")
    for entry in entries:
        moves = Move.objects.filter(entry=entry, kind=Move.Kind.PAIR)
        rows = list(moves.values_list("number", "by_cpu"))
        own = [number for number, by_cpu in rows if not by_cpu]
        result[(entry.race.room.code, entry.seat.nickname)] = (
            len(own),
            set(own),
            {number for number, _ in rows},
        )
    return result


# The server writes standings frames compactly, type first (rooms/live/standings_feed.py).
STANDINGS_PREFIX = '{"type":"standings",'


# --- one player ----------------------------------------------------------------------
# The client shares the machine's cores with the site and reads every frame of hundreds of
# sockets: msgspec (a dependency already, rooms/core/messages.py) decodes JSON several
# times faster than json, so the client's own delays weigh less in the ack figures.
decode = msgspec.json.Decoder().decode


class Stats:
    def __init__(self):
        self.connect_ms, self.ack_ms, self.resync_ms = [], [], []
        self.acked_at = []  # monotonic time of each ack
        self.steady = (0.0, 0.0)  # the window in which every player plays
        self.events = 0
        self.errors = collections.Counter()
        self.acked = {}  # (room, nickname) -> acknowledged pairs
        self.sent = {}  # (room, nickname) -> pairs sent, acknowledged or not
        self.cpu_ms_per_pair = {}  # role -> CPU ms per acknowledged pair, while playing
        # Behind a balancer that names its server (bench/scale): (room, host) -> sockets
        # opened there, and the longest a socket went without a standings frame, s.
        self.sockets_on = collections.Counter()
        self.longest_silence = 0.0
        # (room, nickname) -> standings frames received, and the versions of the room's
        # events received: sockets of one room on different hosts must get the same.
        self.frames = collections.Counter()
        self.versions = collections.defaultdict(set)


class Client:
    def __init__(self, url, code, cookie, nickname, stats, pace, rng, reconnect=False):
        self.url, self.code, self.cookie, self.nickname = url, code, cookie, nickname
        self.stats, self.pace, self.rng, self.reconnect = stats, pace, rng, reconnect
        self.last_snapshot = None
        self.pending: dict[int, tuple[float, asyncio.Future]] = {}
        self.position = None
        self.went = asyncio.Event()
        self.snapshot = asyncio.Event()
        self.acked = self.sent = 0
        self.next_id = 0
        self.last_standings = None  # monotonic time of the last standings frame
        self.server = "-"

    async def open(self):
        origin = self.url.replace("ws://", "http://").split("/ws/")[0]
        started = time.perf_counter()
        self.ws = await connect(
            f"{self.url}/ws/rooms/{self.code}/",
            origin=origin,
            additional_headers={"Cookie": self.cookie},
            max_size=2**20,
            ping_interval=None,
        )
        self.reader = asyncio.create_task(self.read())
        await self.snapshot.wait()
        self.stats.connect_ms.append((time.perf_counter() - started) * 1000)
        self.server = self.ws.response.headers.get("X-Served-By", "-")
        self.stats.sockets_on[(self.code, self.server)] += 1

    async def read(self):
        try:
            async for raw in self.ws:
                if raw.startswith(STANDINGS_PREFIX):  # most frames: counted, not decoded
                    self.stats.events += 1  # (a browser decodes them on its own machine)
                    self.standings_seen()
                    continue
                self.on_message(decode(raw))
        except Exception as error:  # a dropped socket is counted, not fatal to the run
            self.stats.errors[f"socket: {type(error).__name__}"] += 1
        for _, future in self.pending.values():  # nobody will answer these now
            if not future.done():
                future.set_exception(ConnectionError("socket closed"))
        self.pending.clear()

    def standings_seen(self):
        now = time.monotonic()
        self.stats.frames[(self.code, self.nickname)] += 1
        if self.went.is_set() and self.last_standings is not None:
            silence = now - self.last_standings
            self.stats.longest_silence = max(self.stats.longest_silence, silence)
        self.last_standings = now

    def on_message(self, message):
        kind = message["type"]
        if "v" in message and "id" not in message:
            self.stats.events += 1
            if kind != "snapshot":
                self.stats.versions[(self.code, self.nickname)].add(message["v"])
        if kind == "snapshot":
            self.last_snapshot = message
            self.snapshot.set()
            if not self.went.is_set() and running_board(message):
                # Read past "go" (a late socket): no "go" follows (docs/PROTOCOL.md).
                self.position = position_from_board(message["entry"]["board"])
                self.went.set()
        elif kind == "go":
            self.position = position_from_board(message["board"])
            self.went.set()
        elif message.get("code") == "too_many_sockets":  # all players share one address
            raise SystemExit(
                f"refused by the socket cap: {message['message']} (start the site"
                " with SOCKETS_PER_ADDRESS=0 for a load run)"
            )
        waiting = self.pending.pop(message.get("id"), None)
        if waiting is not None and not waiting[1].done():  # not given up on (timeout)
            waiting[1].set_result((message, time.perf_counter() - waiting[0]))

    async def ask(self, **message):
        self.next_id += 1
        message["id"] = self.next_id
        future = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = (time.perf_counter(), future)
        try:
            await self.ws.send(json.dumps(message))
        except ConnectionClosed:  # nobody will wait for this answer
            del self.pending[self.next_id]
            raise
        return await asyncio.wait_for(future, ACK_TIMEOUT)

    async def play(self, until: float):
        try:
            await asyncio.wait_for(self.went.wait(), GO_TIMEOUT)
        except TimeoutError:
            self.stats.errors["no board within 120 s"] += 1
            return
        await asyncio.sleep(self.rng.uniform(0, self.pace))
        while time.monotonic() < until:
            sent = time.monotonic()
            if not await self.one_step():
                return
            # A pair every `pace` seconds on average, counted from send to send (the wait
            # for the ack is part of it): log-normal with mean 1, so N players make
            # N / pace pairs a second as long as the server keeps up.
            gap = self.rng.lognormvariate(-(SPREAD**2) / 2, SPREAD) * self.pace
            gap = max(gap, 0.3)  # never faster than a hand (the site's PAIR_FLOOR_MS)
            await asyncio.sleep(max(0.0, sent + gap - time.monotonic()))

    async def one_step(self) -> bool:
        """One pair (or a shuffle when blocked); False once this board is done."""
        pair = a_legal_pair(self.position)
        try:
            if pair is None:
                answer, _ = await self.ask(type="shuffle")
                if answer["type"] == "shuffled":
                    self.position = position_from_board(answer["board"])
                    return True
                self.stats.errors[answer.get("code", "?")] += 1
                return False
            self.sent = self.acked + 1
            self.stats.sent[(self.code, self.nickname)] = self.sent
            answer, seconds = await self.ask(type="move", tiles=list(pair), n=self.acked)
        except (TimeoutError, ConnectionError, ConnectionClosed) as error:
            self.stats.errors[f"no answer: {type(error).__name__}"] += 1
            return self.reconnect and await self.resync()
        if answer["type"] != "ack":
            self.stats.errors[answer["code"]] += 1
            if answer["code"] == "unavailable":  # the database is down: nothing stored
                await asyncio.sleep(0.5)  # the same pair again, as a player would
                return True
            return answer["code"] in ("penalty",)
        self.stats.ack_ms.append(seconds * 1000)
        self.stats.acked_at.append(time.monotonic())
        self.acked += 1
        self.stats.acked[(self.code, self.nickname)] = self.acked
        self.position = self.position.remove(*pair)
        return answer["status"] == "playing"

    async def resync(self) -> bool:
        """Reconnect (the server may be restarting) and take the board from the snapshot,
        as the browser does; an acknowledged pair missing from it is counted as lost."""
        dropped = time.perf_counter()
        await self.close()
        while time.perf_counter() - dropped < RECONNECT_SECONDS:
            try:
                self.snapshot.clear()
                await asyncio.wait_for(self.open(), 5)
                break
            except (OSError, TimeoutError, InvalidStatus, ConnectionClosed):
                await asyncio.sleep(0.5)
        else:
            self.stats.errors["could not reconnect"] += 1
            return False
        entry = self.last_snapshot["entry"]
        self.stats.resync_ms.append((time.perf_counter() - dropped) * 1000)
        if entry["pairs_removed"] < self.acked:
            self.stats.errors["acknowledged pair missing after resync"] += 1
        self.acked = entry["pairs_removed"]
        self.stats.acked[(self.code, self.nickname)] = self.acked
        self.position = position_from_board(entry["board"])
        return entry["status"] == "playing"

    async def close(self):
        await self.ws.close()
        self.reader.cancel()


# --- the run -------------------------------------------------------------------------
async def run(
    rooms, url, pace, seconds, connect_at_once, reconnect, fault=None
) -> tuple[Stats, float]:
    """`fault`, if given, is awaited beside the players once they play, with the clients
    and the time play began (bench/scale/drill.py breaks a host with it)."""
    stats, rng = Stats(), random.Random(1)
    clients = [
        Client(url, code, cookie, f"load-{k}", stats, pace, random.Random(rng.random()), reconnect)
        for room in rooms
        for k, (code, cookie) in enumerate(room)
    ]
    gate = asyncio.Semaphore(connect_at_once)

    async def open_one(client):
        async with gate:
            await client.open()

    await asyncio.gather(*(open_one(c) for c in clients))
    owners = [c for c in clients if c.nickname == "load-0"]
    for owner in owners:
        answer, _ = await owner.ask(type="start")
        if answer["type"] != "ack":  # waiting for "go" would never end
            raise SystemExit(f"room {owner.code} refused to start: {answer}")
    try:
        await asyncio.wait_for(asyncio.gather(*(c.went.wait() for c in clients)), 30)
    except TimeoutError:
        late = collections.Counter(c.code for c in clients if not c.went.is_set())
        raise SystemExit(f"no 'go' within 30 s for sockets of rooms {dict(late)}") from None
    started, cpu_before = time.monotonic(), cpu_use.snapshot()
    progress(f"playing for {seconds:g} s")  # a cue for profilers
    faults = [fault(clients, started)] if fault else []
    await asyncio.gather(*(c.play(started + seconds) for c in clients), *faults)
    elapsed = time.monotonic() - started
    stats.steady = (started + pace, started + seconds)  # every player has begun
    stats.cpu_ms_per_pair = cpu_use.per_pair(cpu_before, cpu_use.snapshot(), len(stats.ack_ms))
    await asyncio.sleep(1)  # the last events
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    return stats, elapsed


def machine_speed_ms() -> float:
    """A fixed piece of pure Python, best of five: machines (and one shared machine from
    hour to hour) differ, so each report says how fast this one ran Python just then."""
    return min(timeit.repeat("sum(range(10**6))", number=1, repeat=5)) * 1000


def progress(what: str) -> None:
    print(time.strftime("%H:%M:%S"), what, file=sys.stderr, flush=True)


def percentile(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q / 100 * len(values)))]


def lost_and_doubled(stats: Stats, codes) -> tuple[int, int]:
    lost = doubled = 0
    for key, (moves, numbers, on_board) in stored_pairs(codes).items():
        # Lost: acknowledged (numbers 0 .. acked-1) but not stored. Doubled: a number
        # stored twice, or more stored than were ever sent (a move whose ack timed out
        # may be stored: that is neither).
        lost += len(set(range(stats.acked.get(key, 0))) - on_board)
        doubled += (moves - len(numbers)) + max(0, len(numbers) - stats.sent.get(key, 0))
    return lost, doubled


def half_written(codes) -> int:
    """Boards whose stored parts disagree: pairs counted on the board against pair moves
    stored, and tiles left on the table against pairs removed."""
    # One statement, so each board and its moves are read in one snapshot: a pair still
    # being committed (acks run late under overload) cannot look half-written.
    pair_moves = Count("moves", filter=Q(moves__kind=Move.Kind.PAIR))
    entries = Entry.objects.filter(race__room__code__in=codes).annotate(pair_moves=pair_moves)
    torn = 0
    for entry in entries:
        left = int(entry.alive, 16).bit_count()
        torn += (
            entry.pair_moves != entry.pairs_removed
            or left != entry.tile_count - 2 * entry.pair_moves
        )
    return torn


def report(args, stats: Stats, elapsed, lost: int, doubled: int, torn: int, speed: float) -> None:
    rows = [
        ("site CPU ms a pair (web + database + worker + Redis)", _role(stats, "site")),
        ("machine CPU ms a pair (the load client's included)", _role(stats, "machine")),
        ("players", args.players),
        ("rooms", -(-args.players // args.room_size)),
        ("connect ms p50 / p95 / max", _three(stats.connect_ms, 50, 95, 100)),
        ("pairs acknowledged", len(stats.ack_ms)),
        ("pairs per second", f"{len(stats.ack_ms) / elapsed:.0f}"),
        ("pairs per second, all playing (nominal)", _steady_rate(args, stats)),
        ("ack ms p50 / p95 / p99", _three(stats.ack_ms, 50, 95, 99)),
        ("ack ms max", f"{max(stats.ack_ms, default=float('nan')):.0f}"),
        ("events delivered per second", f"{stats.events / elapsed:.0f}"),
        ("errors", dict(stats.errors) or 0),
        ("reconnects", len(stats.resync_ms)),
        ("resync ms p50 / max", _three(stats.resync_ms, 50, 100)),
        ("moves lost / doubled", f"{lost} / {doubled}"),
        ("boards half-written", torn),
        ("CPU ms per pair while playing", _roles(stats.cpu_ms_per_pair)),
        ("sockets per web host", _hosts(stats.sockets_on)),
        ("machine speed: ms for sum(range(10**6)), best of 5", f"{speed:.1f}"),
    ]
    for name, value in rows:
        print(f"| {name} | {value} |")


def _steady_rate(args, stats: Stats) -> str:
    start, end = stats.steady
    acked = sum(start <= at <= end for at in stats.acked_at)
    return f"{acked / max(end - start, 1e-9):.0f} ({args.players / args.pace:.0f})"


def _hosts(sockets_on: collections.Counter) -> str:
    hosts = collections.Counter()
    for (_, host), count in sockets_on.items():
        hosts[host] += count
    return ", ".join(f"{host} {n}" for host, n in sorted(hosts.items()))


def _role(stats: Stats, role: str) -> str:
    return stats.cpu_ms_per_pair.get(role, "-")


def _roles(cpu: dict) -> str:
    return ", ".join(f"{role} {ms}" for role, ms in cpu.items()) or "-"


def _three(values, *qs) -> str:
    return " / ".join(f"{percentile(values, q):.0f}" for q in qs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--room-size", type=int, default=20)
    parser.add_argument("--url", default="http://127.0.0.1:8200")
    parser.add_argument("--pace", type=float, default=4.0, help="seconds per pair, per player")
    parser.add_argument("--seconds", type=float, default=60, help="how long to play after go")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--connect-at-once", type=int, default=50)
    parser.add_argument(
        "--reconnect", action="store_true", help="fault drills: reconnect and resync on a drop"
    )
    args = parser.parse_args()
    if not args.url.startswith(("http://127.0.0.1:", "http://198.18.", "http://198.19.")):
        parser.error(
            "load goes to this machine only: --url http://127.0.0.1:PORT, or a balancer"
            " of bench/scale in 198.18.0.0/15"
        )
    vacuum()
    rooms = make_rooms(args.players, args.room_size, args.level)
    ws_url = args.url.replace("http://", "ws://")
    speed = machine_speed_ms()
    stats, elapsed = asyncio.run(
        run(rooms, ws_url, args.pace, args.seconds, args.connect_at_once, args.reconnect),
        loop_factory=uvloop.new_event_loop,  # as the server's (uvicorn[standard]): less CPU
    )
    codes = [room[0][0] for room in rooms]
    connections.close_all()  # a fault drill may have restarted the database meanwhile
    lost, doubled = lost_and_doubled(stats, codes)
    torn = half_written(codes)
    end_races(codes)
    report(args, stats, elapsed, lost, doubled, torn, speed)


def end_races(codes: list[str]) -> None:
    """Close the run's races: left running, the sweeper would hand every seat of them to
    a CPU once its socket is gone, and the next run would measure those CPUs too."""
    for code in codes:
        with contextlib.suppress(errors.RoomError):  # already over
            race_end.end_race_by_staff(code)


if __name__ == "__main__":
    main()
