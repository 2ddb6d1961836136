"""A night of chaos, shortened: races on the whole topology while faults strike at random.

    bench/scale/up.sh --db-pool 20
    .venv/bin/python bench/scale/chaos.py --minutes 30 --seed 1      # (as root)

For `--minutes` the players of bench/scale (≥ 200 humans over both web hosts through the
balancer, CPU seats, a rematch after each race, spectators, practice games over HTTP)
play, while every 2–3 minutes (`--gap`) a fault drawn at random (`--seed`) strikes a
host: kill -9 a web host (started again), a worker host (started again), a Redis shard
(started again, empty), an immediate restart of PostgreSQL, a host cut off the network
for 10–30 s (every packet to and from it dropped: no reset, no error), a process stopped
with SIGSTOP for 20 s. Each kind comes round as often as the others (the draw is a
shuffled deck of the kinds, dealt again when used up).

Judged by the clients, not the servers (bench/scale/judge.py): every acknowledged pair
stored exactly once, every race finished or still moving, every dropped socket back
within 5 s of its host's return, and every room with live sockets hearing an event
within 3 s of any pair acknowledged in it (checked all along). Prints a table, one row
per fault: fault, when, host, duration, sockets dropped, longest reconnect after the
host's return, pairs acknowledged during, lost / doubled / stuck; then the totals.
Everything goes to `--out` too (chaos.md, chaos.json, chaos.log). The clients behave as
the room page does (docs/PROTOCOL.md §Reconnecting): a pair unanswered for 2.5 s with
nothing heard sends a ping, a ping unanswered for 5 s drops the socket, a new socket
silent for 10 s is dropped, retries wait 0.5 s doubling to 8 s (±20 %); after a resync
the snapshot's board is the truth.
"""

import argparse
import asyncio
import collections
import concurrent.futures
import contextlib
import datetime
import http.cookiejar
import json
import os
import random
import signal
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import topology as topo  # noqa: E402

PYTHON_NAME = topo.PYTHON  # a Celery process, not the shell loop that supervises it
KINDS = ("kill-web", "kill-worker", "kill-redis", "restart-postgres", "partition", "sigstop")
RETRY_FIRST, RETRY_LAST = 0.5, 8.0  # mahjong/static/mahjong/net.js
PAIR_QUIET, PING_PATIENCE, OPEN_PATIENCE, IDLE_PING = 2.5, 5.0, 10.0, 15.0
BACK_WITHIN = 5.0  # a dropped socket must be back this long after its host's return
EVENT_WITHIN = 3.0  # every socket of a room hears an event this long after a pair
GRACE = 5.0  # after a host's return, before a silent room counts as stuck


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    topo.add_arguments(parser)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rooms", type=int, default=12)
    parser.add_argument("--humans", type=int, default=17, help="human seats per room")
    parser.add_argument("--cpus", type=int, default=3, help="CPU seats per room")
    parser.add_argument("--spectators", type=int, default=2, help="per room")
    parser.add_argument("--practice", type=int, default=8, help="practice players (HTTP)")
    parser.add_argument("--pace", type=float, default=6.0, help="seconds per pair, per human")
    parser.add_argument("--level", default="easy")
    parser.add_argument("--time-limit", type=int, default=3, help="minutes (the room's rule)")
    parser.add_argument("--first", type=float, default=45, help="seconds before the first fault")
    parser.add_argument("--gap", type=float, nargs=2, default=(120, 180), metavar=("MIN", "MAX"))
    parser.add_argument(
        "--stuck-after", type=float, default=10, help="s without an event after a pair: stuck"
    )
    parser.add_argument(
        "--at-least", type=int, default=0, help="faults struck even if play must run longer"
    )
    parser.add_argument("--settle", type=float, default=10, help="s after a return, at least")
    parser.add_argument("--kinds", default=",".join(KINDS), help="the faults to draw from")
    parser.add_argument("--cut", default="", help="partition: the hosts to draw from (all)")
    parser.add_argument("--short", action="store_true", help="CI: the shortest durations")
    parser.add_argument("--out", default="/tmp/chaos")
    parser.add_argument("--json", action="store_true", help="the result as JSON, last line")
    return parser.parse_args(argv)


ARGS = parse_args()
TOPOLOGY = topo.topology_from_args(ARGS)
os.environ.update(json.loads((TOPOLOGY.run_dir / "env.json").read_text()))
sys.path.insert(0, str(HERE.parent / "load"))
import run  # noqa: E402, I001  (sets Django up with the topology's environment)
import judge  # noqa: E402  (after run: it reads the site's models)
from django.db import connections  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from accounts.identity import COOKIE_NAME, signed_token  # noqa: E402
from accounts.models import Player  # noqa: E402
from practice.models import SoloGame  # noqa: E402
from bench.client_board import a_legal_pair  # noqa: E402
from rooms.lobby import actions as lobby  # noqa: E402
from rooms.models import Race  # noqa: E402

OUT = Path(ARGS.out)
LOG = None


def log(what: str) -> None:
    line = f"{time.strftime('%H:%M:%S')} {what}"
    print(line, file=sys.stderr, flush=True)
    if LOG:
        LOG.write(line + "\n")
        LOG.flush()


# --- the faults ------------------------------------------------------------------------
class Fault:
    def __init__(self, kind, start):
        self.kind, self.start = kind, start
        self.host = self.detail = ""
        self.healed = self.returned = None  # fault ended; the host serves again


def durations(short: bool) -> dict:
    """How long each fault lasts, s (drawn in this range)."""
    if short:
        return {"down": (3, 5), "cut": (10, 12), "stop": (20, 20)}
    return {"down": (5, 15), "cut": (10, 30), "stop": (20, 20)}


class Injector:
    def __init__(self, top, rng, short):
        self.top, self.rng, self.span = top, rng, durations(short)
        self.deck = []

    def draw(self, kinds):
        if not self.deck:
            self.deck = list(kinds)
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    def hosts(self, role):
        return [h for h in self.top.hosts if h.rstrip("0123456789") == role]

    async def strike(self, fault: Fault):
        await getattr(self, fault.kind.replace("-", "_"))(fault)
        fault.healed = fault.healed or time.time()
        fault.returned = fault.returned or fault.healed

    def _hold(self, key):
        return self.rng.uniform(*self.span[key])

    async def kill_web(self, fault):
        fault.host = self.rng.choice(self.hosts("web"))
        self.top.kill_host(fault.host)
        await asyncio.sleep(self._hold("down"))
        self.top.start(fault.host)
        fault.healed = time.time()
        fault.returned = await asyncio.to_thread(self.wait_livez, fault.host)

    async def kill_worker(self, fault):
        fault.host = self.rng.choice(self.hosts("worker"))
        self.top.kill_host(fault.host)
        await asyncio.sleep(self._hold("down"))
        self.top.start(fault.host)

    async def kill_redis(self, fault):
        fault.host = self.rng.choice(self.hosts("redis"))
        self.top.kill_host(fault.host)
        await asyncio.sleep(self._hold("down"))
        await asyncio.to_thread(self.top.start, fault.host)

    async def restart_postgres(self, fault):
        fault.host = "pg"
        await asyncio.to_thread(self.top.stop_pg)
        await asyncio.sleep(self._hold("down"))
        await asyncio.to_thread(self.top.start, "pg")

    async def partition(self, fault):
        """The host's cable pulled: the bridge's end of its veth set down. Every packet
        to and from it is dropped, with no reset and no error on the far side; its
        open connections live on and carry again once the link is back."""
        hosts = [h for h in self.top.hosts if h != "lb"]
        fault.host = self.rng.choice([h for h in hosts if h in ARGS.cut.split(",")] or hosts)
        outside = f"{self.top.name}-h{topo.HOST_BYTE[fault.host]}"
        topo.sh(f"ip link set {outside} down")
        try:
            await asyncio.sleep(self._hold("cut"))
        finally:
            topo.sh(f"ip link set {outside} up")
        fault.healed = time.time()
        if fault.host.startswith("web"):
            fault.returned = await asyncio.to_thread(self.wait_livez, fault.host)

    async def sigstop(self, fault):
        """One process: a web host's uvicorn worker, a Celery worker's main process, or
        a Redis server."""
        candidates = []
        for host in self.top.hosts:
            for pid in self.top.pids(host):
                cmd = cmdline(pid)
                if "multiprocessing" in cmd and "uvicorn" not in cmd and host.startswith("web"):
                    candidates.append((host, pid, "uvicorn worker"))
                elif cmd.startswith(PYTHON_NAME) and " worker " in cmd and "-Q celery" in cmd:
                    if not parent_in_ns(pid, self.top.pids(host)):  # the main process
                        candidates.append((host, pid, "celery worker"))
                elif cmd.startswith("redis-server"):
                    candidates.append((host, pid, "redis-server"))
        fault.host, pid, fault.detail = self.rng.choice(sorted(candidates))
        fault.detail = f"{fault.detail} {pid}"
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGSTOP)
        await asyncio.sleep(self._hold("stop"))
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)

    def wait_livez(self, host, seconds=60):
        deadline = time.monotonic() + seconds
        url = f"http://{self.top.addr(host)}:{topo.WEB_PORT}/livez"
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(url, timeout=1) as answer:
                    if answer.status == 200:
                        return time.time()
            except OSError:
                pass
            time.sleep(0.1)
        return time.time()


def cmdline(pid) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return ""


def parent_in_ns(pid, pids) -> bool:
    """Whether the process's parent is a Celery process of the same host (then it is a
    pool child; the main process's parent is its supervising loop, topology.py)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    parent = int(stat.rsplit(")", 1)[1].split()[1])
    return parent in pids and "celery" in cmdline(parent) and not cmdline(parent).startswith("sh")


# --- one socket, as the room page keeps it ------------------------------------------
class Sock:
    def __init__(self, chaos, code, cookie, name, seated, owner, rng):
        self.chaos, self.code, self.cookie, self.name = chaos, code, cookie, name
        self.seated, self.owner, self.rng = seated, owner, rng
        self.ws = None
        self.open_since = None  # wall clock of the snapshot of the socket now open
        self.last_event = 0.0  # wall clock of the last room event heard
        self.last_heard = 0.0  # monotonic, anything heard
        self.server = "-"
        self.pending = {}
        self.next_id = 0
        self.race = None  # the race as last seen
        self.you = None
        self.room = None
        self.position = None
        self.count = 0
        self.status = None  # this seat's entry in the current race
        self.changed = asyncio.Event()
        self.snapshot_seen = asyncio.Event()
        self.drop = None  # [dropped at, back at, name, server] while dropped
        self.offered_at = None

    async def life(self):
        delay = RETRY_FIRST
        async with self.chaos.gate:  # the first sockets open 50 at a time, as run.py's
            try:
                await asyncio.wait_for(self.connect(), OPEN_PATIENCE)
            except Exception:  # noqa: BLE001 - tried again below
                await self.abort()
        while not self.chaos.stopping:
            try:
                if self.open_since is None:
                    await asyncio.wait_for(self.connect(), OPEN_PATIENCE)
            except Exception:  # noqa: BLE001 - refused, reset, timed out: try again later
                await self.abort()
                await asyncio.sleep(delay * self.rng.uniform(0.8, 1.2))
                delay = min(delay * 2, RETRY_LAST)
                continue
            delay = RETRY_FIRST
            if self.drop is not None:
                self.drop[1] = time.time()  # back
                self.drop = None
            reason = await self.session()
            self.open_since = None
            if not self.chaos.stopping:
                self.drop = [time.time(), None, self.name, self.server, reason]
                self.chaos.drops.append(self.drop)
                self.chaos.drop_reasons[reason] += 1
            await self.abort()

    async def connect(self):
        origin = TOPOLOGY.url
        self.snapshot_seen.clear()
        self.ws = await connect(
            f"{TOPOLOGY.url.replace('http://', 'ws://')}/ws/rooms/{self.code}/",
            origin=origin,
            additional_headers={"Cookie": self.cookie},
            max_size=2**20,
            ping_interval=None,
            open_timeout=OPEN_PATIENCE,
            close_timeout=1,
        )
        self.server = self.ws.response.headers.get("X-Served-By", "-")
        self.last_heard = time.monotonic()
        self.reader = asyncio.create_task(self.read())
        await self.snapshot_seen.wait()
        self.open_since = time.time()
        self.chaos.sockets_on[self.server] += 1

    async def abort(self):
        ws, self.ws = self.ws, None
        if ws is not None:
            ws.transport.abort()
        for _, future in self.pending.values():
            if not future.done():
                future.set_exception(ConnectionError("socket dropped"))
        self.pending.clear()

    async def session(self) -> str:
        """Until the socket drops (closed, or found dead): the reason."""
        tasks = [self.reader, asyncio.create_task(self.watch())]
        if self.seated:
            tasks.append(asyncio.create_task(self.play()))
        done, rest = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in rest:
            task.cancel()
        await asyncio.gather(*rest, return_exceptions=True)
        for task in done:
            if not task.cancelled() and task.exception() is not None:
                error = task.exception()
                self.chaos.errors[f"client: {type(error).__name__}"] += 1
                if not isinstance(error, ConnectionError | OSError | TimeoutError):
                    log(f"{self.code} {self.name}: {error!r}")
                return f"client: {type(error).__name__}"
        results = [t.result() for t in done if not t.cancelled()]
        return next((r for r in results if isinstance(r, str)), "closed")

    async def read(self):
        try:
            async for raw in self.ws:
                self.last_heard = time.monotonic()
                self.on_message(json.loads(raw))
        except Exception:  # noqa: BLE001 - a drop
            pass
        for _, future in self.pending.values():
            if not future.done():
                future.set_exception(ConnectionError("socket closed"))
        return "closed"

    def on_message(self, message):
        kind = message["type"]
        if kind in ("standings", "snapshot") or ("v" in message and "id" not in message):
            self.last_event = time.time()
        if kind == "snapshot":
            self.apply_snapshot(message)
            self.snapshot_seen.set()
        elif kind == "go":  # its `race` is the race's number; the race came before
            self.position = run.position_from_board(message["board"])
            self.count, self.status = 0, "playing"
        elif kind == "race_started":
            self.race = message["race"]
            self.status = None
        elif kind == "race_finished":
            self.race = message["race"]
            self.chaos.finished_races.add(self.race["id"])
        elif kind == "lobby":
            self.room = message["room"]
        waiting = self.pending.pop(message.get("id"), None)
        if waiting is not None and not waiting[1].done():
            waiting[1].set_result(message)
        self.changed.set()

    def apply_snapshot(self, message):
        self.race, self.room, self.you = message["race"], message["room"], message["you"]
        entry = message.get("entry")
        if entry is None or self.race is None:
            self.status, self.position = None, None
            return
        self.status = entry["status"]
        self.count = entry["pairs_removed"]
        tiles = entry["board"]["tiles"]
        self.position = run.position_from_board(entry["board"]) if "face" in tiles[0] else None

    async def watch(self):
        """The room page's liveness: a pair waiting 2.5 s with nothing heard, or 15 s of
        quiet, sends a ping; no answer within 5 s and the socket is dropped as dead."""
        while True:
            await asyncio.sleep(0.25)
            now = time.monotonic()
            waiting = [at for at, _ in self.pending.values()]
            quiet = now - self.last_heard
            if (waiting and now - min(waiting) > PAIR_QUIET and quiet > PAIR_QUIET) or (
                quiet > IDLE_PING
            ):
                asked = time.monotonic()
                with contextlib.suppress(Exception):
                    await self.ws.send(json.dumps({"type": "ping", "t": 0}))
                while time.monotonic() - asked < PING_PATIENCE:
                    await asyncio.sleep(0.1)
                    if self.last_heard > asked:
                        break
                else:
                    return "found dead"

    async def ask(self, patience=None, **message):
        """An answer, however long it takes while the socket lives (the page waits for
        a pair's answer as long as pings are answered: `watch`); a drop fails it."""
        self.next_id += 1
        message["id"] = self.next_id
        future = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = (time.monotonic(), future)
        await self.ws.send(json.dumps(message))
        try:
            return await asyncio.wait_for(future, patience)
        finally:
            self.pending.pop(message["id"], None)

    async def play(self):
        """Pairs at the pace while this seat's board plays; the owner offers the next
        race after each, everyone says ready."""
        while not self.chaos.stopping:
            race = self.race or {}
            if race.get("status") == "running" and self.status == "playing" and self.position:
                await self.one_pair(race["id"])
                gap = self.rng.lognormvariate(-(run.SPREAD**2) / 2, run.SPREAD) * ARGS.pace
                await asyncio.sleep(max(gap, 0.3))
                continue
            await self.between_races(race)
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 1)

    async def one_pair(self, race_id):
        pair = a_legal_pair(self.position)
        if pair is None:
            answer = await self.ask(type="shuffle")
            if answer["type"] == "shuffled":
                self.position = run.position_from_board(answer["board"])
            elif answer.get("code") == "penalty":
                await asyncio.sleep(1)
            else:
                self.chaos.errors[answer.get("code", "?")] += 1
                await self.resync()
            return
        number = self.count
        self.chaos.ledger.send(race_id, self.name, number)
        sent = time.monotonic()
        answer = await self.ask(type="move", tiles=list(pair), n=number)
        if answer["type"] == "ack":
            now = time.time()
            self.chaos.ledger.ack(race_id, self.name, number, now)
            self.chaos.ack_ms.append((time.monotonic() - sent) * 1000)
            self.chaos.silence.paired(self.code, now)
            self.chaos.late.paired(self.code, now)
            self.count += 1
            self.position = self.position.remove(*pair)
            self.status = answer["status"]
            return
        code = answer.get("code", "?")
        self.chaos.errors[code] += 1
        if code in ("unavailable", "server_error"):  # nothing stored: as the page does
            await asyncio.sleep(1)
        await self.resync()

    async def resync(self):
        with contextlib.suppress(TimeoutError):
            self.snapshot_seen.clear()
            await self.ask(type="snapshot", patience=10.0)

    async def between_races(self, race):
        room = self.room or {}
        if race.get("status") == "running":
            return
        mine = next((s for s in room.get("seats", []) if s["id"] == self.you), None)
        if room.get("offer_at") is None:
            if self.owner and race.get("status") and not self.chaos.stopping:
                await asyncio.sleep(2)
                answer = await self.ask(type="offer")
                self.offered_at = time.monotonic()
                if answer["type"] != "ack":
                    self.chaos.errors[f"offer: {answer.get('code')}"] += 1
            return
        if mine is not None and not mine.get("ready"):
            answer = await self.ask(type="ready")
            if answer["type"] != "ack" and answer.get("code") not in ("not_ready", "race_running"):
                self.chaos.errors[f"ready: {answer.get('code')}"] += 1
        if self.owner and self.offered_at and time.monotonic() - self.offered_at > 35:
            self.offered_at = time.monotonic()
            answer = await self.ask(type="start")
            if answer["type"] != "ack":
                self.chaos.errors[f"start: {answer.get('code')}"] += 1


# --- practice games, over HTTP ---------------------------------------------------------
class Practice:
    """One player of practice games through the balancer: a new game, a pair every
    `pace` seconds, a retry of the same pair when an answer is lost (the site answers a
    retried pair again), a new game when one ends."""

    def __init__(self, chaos, k, rng):
        self.chaos, self.k, self.rng = chaos, k, rng
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.acked = {}  # game id -> [pairs acknowledged, in order]

    def csrf(self):
        return next((c.value for c in self.jar if c.name == "csrftoken"), "")

    def post(self, path, body):
        request = urllib.request.Request(
            f"{TOPOLOGY.url}{path}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-CSRFToken": self.csrf()},
        )
        try:
            with self.opener.open(request, timeout=10) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            if refused.code == 400:
                return json.loads(refused.read())
            raise

    async def call(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.chaos.pool, fn, *args)

    async def life(self):
        state = None
        while not self.chaos.stopping:
            try:
                if state is None:
                    await self.call(self.opener.open, f"{TOPOLOGY.url}/play/", None, 10)
                    state = await self.call(self.post, "/play/api/new", {"level": "easy"})
                    self.chaos.practice_games += 1
                    continue
                state = await self.step(state)
            except (OSError, ValueError):
                self.chaos.errors["practice: no answer"] += 1
                await asyncio.sleep(1)  # then the same pair again
            await asyncio.sleep(self.rng.lognormvariate(0, run.SPREAD) * ARGS.pace)

    async def step(self, state):
        if "error" in state:
            self.chaos.errors[f"practice: {state.get('code')}"] += 1
            return state.get("state")
        if state["status"] != "playing":
            return None
        removed = {i for pair in state["removed"] for i in pair}
        board = {
            "tiles": state["tiles"],
            "alive": [i for i in range(len(state["tiles"])) if i not in removed],
        }
        pair = a_legal_pair(run.position_from_board(board))
        if pair is None:
            return None  # blocked: a new game
        body = {"game": state["id"], "tiles": sorted(pair), "n": len(state["removed"])}
        answer = await self.call(self.post, "/play/api/move", body)
        if "error" not in answer:
            self.acked.setdefault(state["id"], []).append(sorted(pair))
            self.chaos.practice_acks += 1
        return answer

    def lost(self) -> int:
        """Acknowledged pairs missing from the stored game (in the order acknowledged)."""
        missing = 0
        for game_id, pairs in self.acked.items():
            stored = [sorted(p) for p in SoloGame.objects.get(pk=game_id).moves]
            missing += sum(1 for p in pairs if p not in stored)
            missing += len(stored) - len({tuple(p) for p in stored})  # doubled
        return missing


# --- the run ---------------------------------------------------------------------------
class Chaos:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.stopping = False
        self.ledger = judge.Ledger()
        self.silence = judge.Silence(args.stuck_after)  # no event for so long: stuck
        self.late = judge.Silence(EVENT_WITHIN)  # not within the promised few seconds
        self.drops = []  # (dropped at, back at or None, socket, server it was on, why)
        self.drop_reasons = collections.Counter()
        self.sockets_on = collections.Counter()
        self.errors = collections.Counter()
        self.ack_ms = []
        self.faults: list[Fault] = []
        self.finished_races = set()
        self.practice_games = self.practice_acks = 0
        self.pool = concurrent.futures.ThreadPoolExecutor(max(4, args.practice))

    def make_rooms(self):
        run.vacuum()
        rooms = run.make_rooms(
            self.args.rooms * self.args.humans, self.args.humans, self.args.level, self.args.cpus
        )
        for seats in rooms:
            owner = Player.objects.get(seats__room__code=seats[0][0], seats__nickname="load-0")
            lobby.update_rules(owner, seats[0][0], {"time_limit_minutes": self.args.time_limit})
        self.watchers = {
            seats[0][0]: [
                f"{COOKIE_NAME}={signed_token(Player.objects.create().device_token)}"
                for _ in range(self.args.spectators)
            ]
            for seats in rooms
        }
        return rooms

    def sockets(self, rooms):
        socks = []
        for seats in rooms:
            code = seats[0][0]
            for k, (_, cookie) in enumerate(seats):
                socks.append(Sock(self, code, cookie, f"load-{k}", True, k == 0, self.child()))
            for k, cookie in enumerate(self.watchers[code]):
                socks.append(Sock(self, code, cookie, f"watch-{k}", False, False, self.child()))
        for sock in socks:
            self.silence.join(sock.code, sock.name, sock)
            self.late.join(sock.code, sock.name, sock)
        return socks

    def child(self):
        return random.Random(self.rng.random())

    async def play(self, rooms):
        self.gate = asyncio.Semaphore(50)
        socks = self.sockets(rooms)
        practice = [Practice(self, k, self.child()) for k in range(self.args.practice)]
        lives = [asyncio.create_task(s.life()) for s in socks]
        await asyncio.wait_for(asyncio.gather(*(s.snapshot_seen.wait() for s in socks)), 60)
        for owner in (s for s in socks if s.owner):
            answer = await owner.ask(type="start")
            if answer["type"] != "ack":
                raise SystemExit(f"room {owner.code} refused to start: {answer}")
        lives += [asyncio.create_task(p.life()) for p in practice]
        started = time.time()
        self.started = started
        log(f"playing {self.args.minutes:g} min: {len(socks)} sockets, {len(practice)} practice")
        checker = asyncio.create_task(self.check_silence())
        await self.inject(started + self.args.minutes * 60)
        self.stopping = True
        self.ended = time.time()
        await asyncio.sleep(2)
        for sock in socks:
            await sock.abort()
        for task in lives:
            task.cancel()
        await asyncio.gather(*lives, return_exceptions=True)
        checker.cancel()
        return socks, practice

    async def check_silence(self):
        while True:
            await asyncio.sleep(0.5)
            self.silence.check()
            self.late.check()

    async def inject(self, end):
        injector = Injector(TOPOLOGY, random.Random(self.args.seed), self.args.short)
        kinds = [k for k in self.args.kinds.split(",") if k]
        at = time.time() + self.args.first
        while kinds and (at < end - 15 or len(self.faults) < self.args.at_least):
            await asyncio.sleep(max(0, at - time.time()))
            fault = Fault(injector.draw(kinds), time.time())
            self.faults.append(fault)
            log(f"fault: {fault.kind}")
            try:
                await injector.strike(fault)
            except Exception as error:  # noqa: BLE001 - say so, heal what can be
                fault.detail = f"failed: {error}"
                fault.healed = fault.returned = time.time()
            log(f"  {fault.host} {fault.detail}: back after {fault.returned - fault.start:.1f} s")
            gap = injector.rng.uniform(*self.args.gap)
            at = max(fault.returned + self.args.settle, fault.start + gap)
        # Play on to the end, and at least `settle` s past the last host's return.
        last = self.faults[-1].returned + self.args.settle if self.faults else 0
        await asyncio.sleep(max(0, end - time.time(), last - time.time()))

    # --- the judging ---------------------------------------------------------------------
    def judge(self, socks, practice, codes):
        connections.close_all()
        judge.wait_for_database()
        lost, doubled = judge.pairs_lost_and_doubled(self.ledger)
        end = datetime.datetime.fromtimestamp(self.ended, datetime.UTC)
        stuck_races = judge.stuck_race_ids(codes, end)
        cpu_stuck = judge.cpu_boards_stuck(codes, end)
        rows = []
        windows = [*self.faults]
        for i, fault in enumerate(windows):
            until = windows[i + 1].start if i + 1 < len(windows) else self.ended
            rows.append(self.row(fault, until, lost, doubled))
        before = Fault("(none: before the first fault)", self.started)
        before.returned = before.healed = self.started
        first = windows[0].start if windows else self.ended
        quiet = self.row(before, first, lost, doubled)
        races = Race.objects.filter(room__code__in=codes)
        back = [b - d for d, b, *_ in self.drops if b is not None]
        total = {
            "minutes": self.args.minutes,
            "seed": self.args.seed,
            "faults": len(self.faults),
            "faults per kind": dict(collections.Counter(f.kind for f in self.faults)),
            "sockets": len(socks),
            "sockets per web host (opened)": dict(sorted(self.sockets_on.items())),
            "humans / CPU seats / spectators": (
                f"{self.args.rooms * self.args.humans} / {self.args.rooms * self.args.cpus}"
                f" / {self.args.rooms * self.args.spectators}"
            ),
            "races": races.count(),
            "races finished": races.filter(status=Race.Status.FINISHED).count(),
            "races still running at the end": races.filter(status=Race.Status.RUNNING).count(),
            "races stuck": len(stuck_races),
            "rooms stuck between races": rooms_between_races_stuck(codes, end),
            "CPU boards stuck": cpu_stuck,
            "pairs acknowledged": self.ledger.count(),
            "ack ms p50 / p99": (
                f"{judge.percentile(self.ack_ms, 50):.0f} / {judge.percentile(self.ack_ms, 99):.0f}"
            ),
            "acknowledged pairs lost": len(lost),
            "doubled": len(doubled),
            "socket drops": len(self.drops),
            "sockets never back": sum(b is None and d < self.ended - 30 for d, b, *_ in self.drops),
            "drops by reason": dict(self.drop_reasons),
            "drop to back, s, p50 / max": (
                f"{judge.percentile(back, 50):.1f} / {max(back, default=0):.1f}"
            ),
            f"pairs after which a socket of the room heard nothing for {EVENT_WITHIN:g} s": len(
                {(c, t) for c, _, t in self.late.misses}
            ),
            f"... for {self.args.stuck_after:g} s": len(
                {(c, t) for c, _, t in self.silence.misses}
            ),
            "practice games / pairs acknowledged": f"{self.practice_games} / {self.practice_acks}",
            "practice pairs lost or doubled": sum(p.lost() for p in practice),
            "errors answered": dict(self.errors),
            "before the first fault": quiet,
        }
        return rows, total

    def row(self, fault, until, lost, doubled):
        # (a socket still reconnecting in the run's last 30 s is not judged)
        drops = [
            (d, b)
            for d, b, *_ in self.drops
            if fault.start <= d < until and (b is not None or d < self.ended - 30)
        ]
        after = [(b - fault.returned) if b is not None else float("inf") for _, b in drops]
        pairs = sum(
            fault.start <= when <= fault.returned
            for numbers in self.ledger.acked.values()
            for when in numbers.values()
        )
        stuck, during = set(), set()
        for code, _, t in self.silence.misses:
            if not fault.start <= t < until:
                continue
            # A miss while a fault was on (from its start to GRACE after its host's
            # return) is the fault's effect; one with every host serving is a room left
            # without events: stuck.
            struck = any(
                f.start <= t + self.args.stuck_after and t <= f.returned + GRACE
                for f in self.faults
            )
            (during if struck else stuck).add((code, t))
        return {
            "fault": fault.kind,
            "when": time.strftime("%H:%M:%S", time.gmtime(fault.start)),
            "host": f"{fault.host} {fault.detail}".strip(),
            "duration s": round(fault.returned - fault.start, 1),
            "sockets dropped": len(drops),
            "max reconnect after return s": round(max([0.0, *after]), 1),
            "pairs acked during": pairs,
            "lost": sum(fault.start <= w < until for *_, w in lost),
            "doubled": sum(fault.start <= w < until for *_, w in doubled),
            "stuck": len(stuck),
            "rooms silent during (pair, room)": len(during),
        }


def rooms_between_races_stuck(codes, end) -> int:
    """Rooms whose last race finished more than a minute before the end with no next
    race started: the offer, the readies or the start went missing."""
    since = end - datetime.timedelta(seconds=60)
    stuck = 0
    for code in codes:
        last = Race.objects.filter(room__code=code).order_by("-number").first()
        stuck += last is not None and last.finished_at is not None and last.finished_at < since
    return stuck


COLUMNS = (
    "fault", "when", "host", "duration s", "sockets dropped", "max reconnect after return s",
    "pairs acked during", "lost", "doubled", "stuck", "rooms silent during (pair, room)",
)  # fmt: skip


def table(rows, total) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for row in rows:
        lines.append("| " + " | ".join(str(row[c]) for c in COLUMNS) + " |")
    lines += ["", "| total | |", "|---|---|"]
    lines += [f"| {name} | {value} |" for name, value in total.items()]
    return "\n".join(lines)


def main():
    global LOG
    OUT.mkdir(parents=True, exist_ok=True)
    LOG = open(OUT / "chaos.log", "a")  # noqa: SIM115 - the run's whole life
    if not topo.healthz(TOPOLOGY.url):
        sys.exit(f"the topology does not answer at {TOPOLOGY.url}: bench/scale/up.sh first")
    chaos = Chaos(ARGS)
    rooms = chaos.make_rooms()
    codes = [seats[0][0] for seats in rooms]
    socks, practice = asyncio.run(chaos.play(rooms), loop_factory=run.uvloop.new_event_loop)
    # Every killed host is running again by now (each fault heals before the next).
    rows, total = chaos.judge(socks, practice, codes)
    run.end_races(codes)
    text = table(rows, total)
    print(text)
    (OUT / "chaos.md").write_text(text + "\n")
    result = {"rows": rows, "total": total, "misses": chaos.silence.misses, "drops": chaos.drops}
    (OUT / "chaos.json").write_text(json.dumps(result, indent=1, default=str))
    if ARGS.json:
        print(json.dumps(result, default=str))


if __name__ == "__main__":
    main()
