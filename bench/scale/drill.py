"""Races over the hosts of bench/scale/topology.py, with one host broken mid-race.

    bench/scale/drill.py race        # no fault: sockets on both web hosts, CPUs on both workers
    bench/scale/drill.py kill-web    # kill -9 every process of web1
    bench/scale/drill.py kill-worker # kill -9 every process of worker1
    bench/scale/drill.py redis       # stop the Redis shard of the first room, start it again
    bench/scale/drill.py postgres    # stop PostgreSQL (immediate), start it again
    bench/scale/drill.py partition   # web1 cut off from both Redis hosts, then healed

The players are bench/load/run.py's clients (the same moves, acks, reconnects and
checks), here through the balancer, in rooms with CPU seats. After the race each drill
prints a table: what was broken, how long clients took to resync, acknowledged pairs
lost, doubled, boards half-written, races and CPU seats stuck. `--json` prints the same
as one JSON line last (tests/ops/test_multihost.py reads it). Results: docs/SCALING.md.
"""

import argparse
import asyncio
import datetime
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import topology as topo  # noqa: E402

DRILLS = ("race", "kill-web", "kill-worker", "redis", "postgres", "partition")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("drill", choices=DRILLS)
    topo.add_arguments(parser)
    parser.add_argument("--players", type=int, default=40, help="seats, CPUs included")
    parser.add_argument("--rooms", type=int, default=2)
    parser.add_argument("--cpus", type=int, default=4, help="CPU seats per room")
    parser.add_argument("--pace", type=float, default=2.0, help="seconds per pair, per human")
    parser.add_argument("--seconds", type=float, default=60, help="how long to play after go")
    parser.add_argument("--fault-at", type=float, default=15, help="seconds after go")
    parser.add_argument("--down", type=float, default=8, help="seconds the fault lasts")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--json", action="store_true", help="also print the result as JSON")
    return parser.parse_args()


ARGS = parse_args()
TOPOLOGY = topo.topology_from_args(ARGS)
# The client runs in the machine's own namespace, with the hosts' settings: it makes the
# rooms in the topology's database and reads the moves back from it.
os.environ.update(json.loads((TOPOLOGY.run_dir / "env.json").read_text()))
sys.path.insert(0, str(HERE.parent / "load"))
import run  # noqa: E402, I001  (sets Django up with the environment above)
import judge  # noqa: E402  (after run: it reads the site's models; shared with chaos.py)
from channels_redis.pubsub import RedisPubSubChannelLayer  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import connections  # noqa: E402

from config.celery import app as celery_app  # noqa: E402
from rooms.core import events  # noqa: E402
from rooms.models import Entry, Move  # noqa: E402


# --- the faults: each breaks a host at `fault_at`, heals it after `down` seconds -------
async def kill_web(top, down, codes):
    killed = top.kill_host("web1")
    await asyncio.sleep(down)  # a new host takes the old one's place
    top.start("web1")
    return f"web1: kill -9 of its {killed} processes; started again {down:g} s later"


async def kill_worker(top, down, codes):
    killed = top.kill_host("worker1")
    return f"worker1: kill -9 of its {killed} processes; not restarted during the race"


async def redis_shard(top, down, codes):
    """The shard that carries the first room's events (redis1 also keeps the broker,
    the cache and the watchers' leases)."""
    shards = shard_of_rooms(codes)
    host = f"redis{shards[codes[0]] + 1}"
    top.kill_host(host, topo.signal.SIGTERM)
    await asyncio.sleep(down)
    top.start(host)
    carried = sum(1 for s in shards.values() if s == shards[codes[0]])
    return (
        f"{host} (the channel layer of {carried} of {len(codes)} rooms): stopped, started"
        f" again {down:g} s later, empty"
    )


def shard_of_rooms(codes) -> dict[str, int]:
    """Which Redis of CHANNEL_REDIS_URLS carries each room's group: channels-redis
    hashes the group's channel name onto its list of hosts."""
    layer = RedisPubSubChannelLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])
    shards = {}
    for code in codes:
        shard = layer._get_shard(layer._get_group_channel_name(events.group_name(code)))
        shards[code] = layer._shards.index(shard)
    return shards


async def postgres(top, down, codes):
    await asyncio.to_thread(top.stop_pg)
    await asyncio.sleep(down)
    await asyncio.to_thread(top.start, "pg")
    return f"PostgreSQL: immediate stop, started again {down:g} s later"


async def partition(top, down, codes):
    routes = [top.addr(h) for h in ("redis1", "redis2") if h in top.hosts]
    for addr in routes:  # packets to Redis vanish, as on a cut link: no error, no reset
        topo.sh(f"ip -n {top.ns('web1')} route add blackhole {addr}/32")
    await asyncio.sleep(down)
    for addr in routes:
        topo.sh(f"ip -n {top.ns('web1')} route del blackhole {addr}/32")
    return f"web1 cut off from Redis ({', '.join(routes)}) for {down:g} s, then healed"


FAULTS = {
    "kill-web": kill_web,
    "kill-worker": kill_worker,
    "redis": redis_shard,
    "postgres": postgres,
    "partition": partition,
}


class Drill:
    def __init__(self, args):
        self.args, self.top = args, TOPOLOGY
        self.what = "nothing"
        self.fault_time = None  # wall clock of the fault
        self.steps_at_fault = {}

    async def fault(self, clients, started):
        await asyncio.sleep(max(0.0, started + self.args.fault_at - time.monotonic()))
        self.steps_at_fault = await asyncio.to_thread(cpu_steps_by_worker)
        self.fault_time = now()
        self.web_states_before = self.top.servers_up()
        if self.args.drill in FAULTS:
            run.progress(f"fault: {self.args.drill}")
            codes = list(dict.fromkeys(c.code for c in clients))
            self.what = await FAULTS[self.args.drill](self.top, self.args.down, codes)
            run.progress(self.what)

    def play(self):
        humans = self.args.players - self.args.rooms * self.args.cpus
        room_size = -(-humans // self.args.rooms)
        run.vacuum()
        rooms = run.make_rooms(humans, room_size, self.args.level, cpus=self.args.cpus)
        self.steps_before = cpu_steps_by_worker()
        stats, elapsed = asyncio.run(
            run.run(
                rooms,
                self.top.url.replace("http://", "ws://"),
                self.args.pace,
                self.args.seconds,
                50,
                reconnect=True,
                fault=self.fault,
            ),
            loop_factory=run.uvloop.new_event_loop,
        )
        self.end_of_play = now() - datetime.timedelta(seconds=1)  # run() waits 1 s after
        codes = [room[0][0] for room in rooms]
        connections.close_all()  # the database may have restarted meanwhile
        judge.wait_for_database()
        return stats, elapsed, codes

    def measure(self, stats, codes) -> dict:
        lost, doubled = run.lost_and_doubled(stats, codes)
        cpu = cpu_seats(codes, self.fault_time, self.end_of_play)
        steps_after = cpu_steps_by_worker()
        return {
            "drill": self.args.drill,
            "broken": self.what,
            "sockets per web host": dict(sorted(by_host(stats.sockets_on).items())),
            "rooms with sockets on every web host": rooms_on_every_host(stats, self.top),
            "room events sent (versions), per room": events_per_room(stats),
            "sockets that missed a room event": missed_events(stats),
            "standings frames per socket, min / max": frames_spread(stats),
            "pairs acknowledged": len(stats.ack_ms),
            "ack ms p50 / p99": run._three(stats.ack_ms, 50, 99),
            "errors answered or seen": dict(stats.errors),
            "clients that resynced": len(stats.resync_ms),
            "resync ms p50 / max": run._three(stats.resync_ms, 50, 100),
            "longest standings silence on a socket, s": round(stats.longest_silence, 1),
            "acknowledged pairs lost": lost,
            "doubled": doubled,
            "boards half-written": run.half_written(codes),
            "races stuck": judge.races_stuck(codes, self.end_of_play),
            "CPU seats": cpu["seats"],
            "CPU seats stuck": cpu["stuck"],
            "CPU seats' longest pause after the fault, s": cpu["longest_pause"],
            "CPU steps run per worker, before the fault": steps_between(
                self.steps_before, self.steps_at_fault
            ),
            "CPU steps run per worker, after the fault": steps_between(
                self.steps_at_fault, steps_after
            ),
        }


def now():
    return datetime.datetime.now(datetime.UTC)


def cpu_steps_by_worker() -> dict[str, int]:
    """CPU steps each Celery worker has run since it started (its own counters)."""
    stats = celery_app.control.inspect(timeout=2).stats() or {}
    return {
        name.split("@")[0]: worker.get("total", {}).get("rooms.tasks.cpu_step", 0)
        for name, worker in stats.items()
        if not name.startswith("pools@")
    }


def steps_between(before: dict, after: dict) -> dict:
    """Steps each worker ran between two readings; a worker killed meanwhile has no
    second reading, a worker started again counts from zero."""
    hosts = sorted(set(before) | set(after))
    return {h: after.get(h, 0) - before.get(h, 0) if after.get(h, 0) >= before.get(h, 0)
            else after.get(h, 0) for h in hosts}  # fmt: skip


def by_host(sockets_on) -> dict[str, int]:
    """Sockets opened per balancer server: a host, or a host reached as a fallback
    (`web1-fallback`: every host failed its health check)."""
    hosts = {}
    for (_, server), count in sockets_on.items():
        hosts[server] = hosts.get(server, 0) + count
    return hosts


def rooms_on_every_host(stats, top) -> str:
    webs = {h for h in top.hosts if h.startswith("web")}
    rooms = {code for code, _ in stats.sockets_on}
    on = {c: {s.split("-")[0] for (code, s) in stats.sockets_on if code == c} for c in rooms}
    spread = [c for c in rooms if webs <= on[c]]
    return f"{len(spread)} of {len(rooms)}"


def events_per_room(stats) -> dict[str, int]:
    rooms = {}
    for (code, _), versions in stats.versions.items():
        rooms.setdefault(code, set()).update(versions)
    return {code: len(v) for code, v in sorted(rooms.items())}


def missed_events(stats) -> int:
    """Sockets lacking a versioned event that another socket of their room received:
    whichever web host they are on, every socket of a room must get all of them."""
    rooms = {}
    for (code, _), versions in stats.versions.items():
        rooms.setdefault(code, set()).update(versions)
    sockets = {key for key in stats.frames} | set(stats.versions)
    return sum(1 for key in sockets if rooms.get(key[0], set()) - stats.versions.get(key, set()))


def frames_spread(stats) -> str:
    counts = list(stats.frames.values())
    return f"{min(counts, default=0)} / {max(counts, default=0)}"


def cpu_seats(codes, fault_time, end_of_play) -> dict:
    """CPU boards: how many, how many still playing but silent longer than the sweeper's
    restart allows (CPU_STALL_SECONDS + two sweeps), and the longest pause between two of
    a CPU's moves once the fault struck."""
    allowed = settings.CPU_STALL_SECONDS + 2 * settings.SWEEP_SECONDS + 5
    entries = Entry.objects.filter(race__room__code__in=codes, seat__player__isnull=True)
    stuck, longest = 0, 0.0
    for entry in entries:
        times = list(Move.objects.filter(entry=entry).order_by("at").values_list("at", flat=True))
        last = times[-1] if times else entry.race.go_at
        if entry.status == Entry.Status.PLAYING and (end_of_play - last).total_seconds() > allowed:
            stuck += 1
        if fault_time:
            marks = [fault_time, *(t for t in times if t > fault_time)]
            if entry.status == Entry.Status.PLAYING:
                marks.append(end_of_play)
            gaps = [(b - a).total_seconds() for a, b in zip(marks, marks[1:], strict=False)]
            longest = max([longest, *gaps])
    return {"seats": entries.count(), "stuck": stuck, "longest_pause": round(longest, 1)}


def print_table(result: dict) -> None:
    print(f"| {result['drill']} | |")
    print("|---|---|")
    for name, value in result.items():
        if name != "drill":
            print(f"| {name} | {value} |")


def main():
    drill = Drill(ARGS)
    if not topo.healthz(TOPOLOGY.url):
        sys.exit(f"the topology does not answer at {TOPOLOGY.url}: bench/scale/up.sh first")
    stats, _elapsed, codes = drill.play()
    result = drill.measure(stats, codes)
    run.end_races(codes)
    print_table(result)
    if ARGS.json:
        print(json.dumps(result))
    if ARGS.drill == "kill-worker":  # leave the topology whole for the next drill
        TOPOLOGY.start("worker1")


if __name__ == "__main__":
    main()
