"""Websocket load on one arena: N players race back to back for a while, at a human pace.

The arena and its joined players are made directly through arenas.actions in the site's
database; everything after that goes through the sockets, as the pages do: each player's
arena socket says "ready", waits for the state naming its new race, plays it on the room
socket with bench/load/run.py's client (any legal pair, one every PACE seconds on
average) until its board is done, waits for the race's end, and says ready again, until
SECONDS have passed. Afterwards every acknowledged pair is checked against the database
(none lost, none doubled), every player's arena races are checked (nobody in two races at
once, every race scored once), and the time from each race's end (its "race_finished"
event on the room socket) to the arena state that counts it in the table is reported.

Start the site as for bench/load/run.py (docs/PERFORMANCE.md: `manage.py serve`, which
runs the scheduler's arena tick too) with SOCKETS_PER_ADDRESS=0, then:

    .venv/bin/python bench/arena_load.py --players 200 --seconds 300 --url http://127.0.0.1:8200
"""

import argparse
import asyncio
import collections
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "load"))
import run as load  # noqa: E402  (sets Django up)
from websockets.asyncio.client import connect  # noqa: E402

from accounts.identity import COOKIE_NAME, signed_token  # noqa: E402
from accounts.models import Player  # noqa: E402
from arenas import actions  # noqa: E402
from arenas.models import ArenaRace, ArenaResult  # noqa: E402
from rooms.models import Entry  # noqa: E402

READY_TIMEOUT = 60.0
TIME_LIMIT_MINUTES = 5  # the arena's races' limit: a race ends by then, its last board played
# or not, so a player who finished waits for the others up to that long
RACE_END_TIMEOUT = TIME_LIMIT_MINUTES * 60 + 60.0


class RoomClient(load.Client):
    """bench/load's player, also noting when its race ended."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ended = asyncio.Event()
        self.ended_at = None

    def on_message(self, message):
        if message.get("type") == "race_finished":
            self.ended_at = time.monotonic()
            self.ended.set()
        elif (
            message.get("type") == "snapshot"
            and (message.get("race") or {}).get("status") == "finished"
        ):
            self.ended_at = self.ended_at or time.monotonic()
            self.ended.set()
        super().on_message(message)


class ArenaPlayer:
    def __init__(self, url, arena, cookie, nickname, stats, table_ms, pace, rng):
        self.url, self.arena, self.cookie, self.nickname = url, arena, cookie, nickname
        self.stats, self.table_ms, self.pace, self.rng = stats, table_ms, pace, rng
        self.state = None
        self.changed = asyncio.Event()
        self.races = 0
        self.waiting_for = None  # (races counted, when the race ended)
        self.rooms = []

    async def run(self, until: float):
        origin = self.url.replace("ws://", "http://")
        async with connect(
            f"{self.url}/ws/arenas/{self.arena}/",
            origin=origin,
            additional_headers={"Cookie": self.cookie},
            ping_interval=None,
            open_timeout=60,
        ) as self.ws:
            reader = asyncio.create_task(self.read())
            await self.wait(lambda s: s is not None)
            seen = set()
            while time.monotonic() < until:
                await self.ws.send(json.dumps({"type": "ready"}))
                try:
                    await self.wait(
                        lambda s: s["you"]["room"] and s["you"]["room"] not in seen,
                        READY_TIMEOUT,
                    )
                except TimeoutError:
                    self.stats.errors["no race within 60 s of ready"] += 1
                    break
                room = self.state["you"]["room"]
                seen.add(room)
                self.rooms.append(room)
                await self.race(room)
            await asyncio.sleep(2)  # the last table
            reader.cancel()

    async def race(self, room):
        client = RoomClient(
            self.url, room, self.cookie, self.nickname, self.stats, self.pace, self.rng
        )
        await client.open()
        await client.play(time.monotonic() + 3600)  # to the board's end
        try:
            await asyncio.wait_for(client.ended.wait(), RACE_END_TIMEOUT)
        except TimeoutError:
            self.stats.errors["race did not end within its time limit"] += 1
        else:
            self.races += 1
            self.waiting_for = (self.races, client.ended_at)
            self.check_table()
        await client.close()

    async def wait(self, test, timeout=30.0):
        deadline = time.monotonic() + timeout
        while self.state is None or not test(self.state):
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            await asyncio.wait_for(self.changed.wait(), left)

    async def read(self):
        async for raw in self.ws:
            message = load.decode(raw)
            if message["type"] == "state":
                self.state = message
                self.check_table()
                self.changed.set()
            elif message["type"] == "error":
                self.stats.errors[f"arena: {message['code']}"] += 1

    def check_table(self):
        """The first state counting the race just ended: its delay after the end."""
        if self.waiting_for is None or self.state is None or self.state["you"] is None:
            return
        count, ended_at = self.waiting_for
        mine = next(r for r in self.state["table"] if r["id"] == self.state["you"]["id"])
        if mine["races"] >= count:
            self.table_ms.append(max(0.0, (time.monotonic() - ended_at) * 1000))
            self.waiting_for = None


def make_arena(players: int, level: str, minutes: int) -> tuple[str, list[tuple[str, str]]]:
    host = Player.objects.create(nickname="bench")
    arena = actions.create_arena(
        host, "Load arena", level, minutes, 0, time_limit_minutes=TIME_LIMIT_MINUTES, public=False
    )
    joined = []
    for k in range(players):
        player = Player.objects.create()
        actions.join(player, arena.code, f"arena-{k}")
        joined.append((f"{COOKIE_NAME}={signed_token(player.device_token)}", f"arena-{k}"))
    return arena.code, joined


async def play(url, code, joined, pace, seconds, connect_at_once):
    stats, table_ms, rng = load.Stats(), [], random.Random(1)
    players = [
        ArenaPlayer(url, code, cookie, name, stats, table_ms, pace, random.Random(rng.random()))
        for cookie, name in joined
    ]
    until = time.monotonic() + seconds

    async def one(k, player):
        await asyncio.sleep(k / connect_at_once)  # connect_at_once sockets a second
        try:
            await player.run(until)
        except Exception as error:  # a dropped socket is counted, not fatal to the run
            stats.errors[f"player stopped: {type(error).__name__}"] += 1

    started = time.monotonic()
    lag_ms = []
    watch = asyncio.create_task(loop_lag(lag_ms))
    await asyncio.gather(*(one(k, p) for k, p in enumerate(players)))
    watch.cancel()
    stats.loop_lag_ms = lag_ms
    return stats, table_ms, players, time.monotonic() - started


async def loop_lag(lag_ms: list, every: float = 0.05) -> None:
    """How late this client's own event loop wakes: an ack it reads late is timed late,
    so this is the share of the ack figures that is the client's, not the site's."""
    while True:
        asked = time.monotonic()
        await asyncio.sleep(every)
        lag_ms.append((time.monotonic() - asked - every) * 1000)


def overlaps(code: str) -> int:
    """Players seated in two of the arena's races that ran at the same time."""
    rows = Entry.objects.filter(race__arena_race__arena__code=code).exclude(seat__player=None)
    spans = collections.defaultdict(list)
    for player, start, end in rows.values_list(
        "seat__player_id", "race__started_at", "race__finished_at"
    ):
        spans[player].append((start, end))
    count = 0
    for times in spans.values():
        times.sort()
        for (_, end), (start, _) in zip(times, times[1:], strict=False):
            count += end is None or start < end
    return count


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--pace", type=float, default=2.0, help="seconds per pair, per player")
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--url", default="http://127.0.0.1:8200")
    parser.add_argument("--connect-at-once", type=int, default=20, help="sockets a second")
    parser.add_argument("--timeline", help="write every ack and race start/end here (JSON)")
    args = parser.parse_args()
    if not args.url.startswith("http://127.0.0.1:"):
        parser.error("load goes to this machine only: --url http://127.0.0.1:PORT")
    minutes = max(10, int(args.seconds // 60) + 3)
    code, joined = make_arena(args.players, args.level, minutes)
    ws_url = args.url.replace("http://", "ws://")
    speed = load.machine_speed_ms()
    cpu_before = load.cpu_use.snapshot()
    stats, table_ms, players, elapsed = asyncio.run(
        play(ws_url, code, joined, args.pace, args.seconds, args.connect_at_once),
        loop_factory=load.uvloop.new_event_loop,
    )
    cpu = load.cpu_use.per_pair(cpu_before, load.cpu_use.snapshot(), len(stats.ack_ms))
    load.connections.close_all()
    codes = sorted({room for p in players for room in p.rooms})
    lost, doubled = load.lost_and_doubled(stats, codes)
    owned = ArenaRace.objects.filter(arena__code=code)
    unscored = owned.filter(scored_at=None).count()
    results = ArenaResult.objects.filter(arena__code=code).count()
    human_boards = Entry.objects.filter(race__arena_race__arena__code=code).exclude(
        seat__player=None
    )
    rows = [
        ("site CPU ms a pair (web + database + worker + Redis), whole run", cpu["site"]),
        ("machine CPU ms a pair (the load client's included)", cpu["machine"]),
        ("players", args.players),
        ("seconds", f"{elapsed:.0f}"),
        (
            "arena races / scored rows / human boards",
            f"{owned.count()} / {results} / {human_boards.count()}",
        ),
        ("races not scored", unscored),
        ("players in two races at once", overlaps(code)),
        ("races per player (median)", sorted(p.races for p in players)[len(players) // 2]),
        ("pairs acknowledged", len(stats.ack_ms)),
        ("ack ms p50 / p95 / p99", load._three(stats.ack_ms, 50, 95, 99)),
        ("race end → table ms p50 / p99 / max", load._three(table_ms, 50, 99, 100)),
        ("moves lost / doubled", f"{lost} / {doubled}"),
        ("client's own loop lag ms p50 / p99 / max", load._three(stats.loop_lag_ms, 50, 99, 100)),
        ("errors", dict(stats.errors) or 0),
        ("CPU ms per pair, whole run", load._roles(cpu)),
        ("machine speed: ms for sum(range(10**6)), best of 5", f"{speed:.1f}"),
    ]
    for name, value in rows:
        print(f"| {name} | {value} |")
    if args.timeline:
        write_timeline(args.timeline, stats, owned)


def write_timeline(path: str, stats, owned) -> None:
    """Acks as [seconds since the epoch, ms] and races as [started, go, finished]: to see
    whether slow acks gather where races start or end."""
    offset = time.time() - time.monotonic()
    races = owned.values_list("race__started_at", "race__go_at", "race__finished_at")
    stamp = lambda at: at.timestamp() if at else None  # noqa: E731
    timeline = {
        "acks": [[at + offset, ms] for at, ms in zip(stats.acked_at, stats.ack_ms, strict=True)],
        "races": [[stamp(a), stamp(b), stamp(c)] for a, b, c in races],
    }
    Path(path).write_text(json.dumps(timeline))


if __name__ == "__main__":
    main()
