"""Real processes for the fault drills in CI (tests/ops/test_drills.py): the site's web server
as `serve` runs it (uvicorn, two worker processes, its own process group, so that
`kill -9` takes all of it), a private Redis that a test may stop, and a player's socket
from a real websocket client."""

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import redis
from django.conf import settings
from django.db import connection
from websockets.asyncio.client import connect

from bench.client_board import a_legal_pair, position_from_json
from infra import embedded_redis
from tests.conftest import free_port
from tests.rooms.rooms_helpers import cookie_for

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 30


def database_url_of_this_test() -> str:
    """The URL of the database this test writes to, for the server's own processes."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def topology_missing_means(name: str) -> str | None:
    """Why this machine cannot build a bench/scale topology (root, HAProxy, network
    namespaces), or None. The multi-host tests fail with it: they never skip."""
    if os.geteuid() != 0:
        return "needs root: network namespaces, veths and the postgres user (CI runs as root)"
    if not shutil.which("haproxy"):
        return "HAProxy is missing: bin/test installs it as root (apt-get install haproxy)"
    probe = f"{name}-probe"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode:
        return f"cannot make a network namespace: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], check=False)
    return None


class WebServer:
    """uvicorn with the site, in processes of its own, on a port that stays the same
    across restarts (so clients reconnect to the same address)."""

    def __init__(self, folder: Path, redis_url: str, pages: bool = False):
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}"
        self.page_url = f"http://127.0.0.1:{self.port}"  # for a browser (`pages`)
        self.log = folder / "web.log"
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url_of_this_test(),
            "REDIS_URL": redis_url,
            "CHANNEL_PREFIX": settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"],
            "SECRET_KEY": settings.SECRET_KEY,  # the device cookies this test signs
            "DB_CONN_MAX_AGE": "0",  # nothing left connected to the test database
            # The drills' clients send pairs as fast as the acks come, as the other
            # tests do: the pace floor is off here too (tests/conftest.py no_pair_floor).
            "PAIR_FLOOR_MS": "0",
        }
        if pages:
            # Static files straight from the apps, unhashed: its processes have no
            # collected manifest (the test's own process collected one in a folder of
            # its own, tests/conftest.py).
            self.env["DEBUG"] = "1"
        self.process = None

    def start(self) -> None:
        argv = [
            *(sys.executable, "-m", "uvicorn", "config.asgi:application"),
            *("--host", "127.0.0.1", "--port", str(self.port), "--workers", "2"),
        ]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                argv, cwd=ROOT, env=self.env, stdout=log, stderr=log, start_new_session=True
            )
        deadline = time.monotonic() + START_SECONDS
        while not _answers_http(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the web server did not start: {self.log.read_text()}")
            time.sleep(0.05)

    def kill(self, signum=signal.SIGKILL) -> None:
        """The whole process group (the supervisor and both workers) at once."""
        os.killpg(self.process.pid, signum)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.kill(signal.SIGTERM)


def _answers_http(port: int) -> bool:
    """A worker answers (the port alone is not enough: the supervisor holds it while its
    workers start)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as conn:
            conn.sendall(b"GET /no-such-page HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            return conn.recv(16).startswith(b"HTTP/")
    except OSError:
        return False


class PrivateRedis:
    """A redis-server of this test's own, which it may stop and start again."""

    def __init__(self, folder: Path):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = folder
        self.process = None

    def start(self) -> None:
        self.process = embedded_redis.start_server(self.port, self.folder)

    def stop(self) -> None:
        """kill -9: the server vanishes (the kernel still closes its sockets)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def shutdown(self) -> None:
        """An orderly stop, as an operator's restart does it: SHUTDOWN NOSAVE."""
        with contextlib.suppress(redis.ConnectionError):  # the server closed the link
            redis.Redis(port=self.port, socket_timeout=5).shutdown(nosave=True)
        self.process.wait(10)


class BlackHoleProxy:
    """A TCP proxy on loopback in the test's event loop, between a client and a server
    on `target_port`, that can cut the link as a partition does: `cut()` stops
    delivering in both directions without closing anything (no FIN, no RST), `heal()`
    ends the cut.

    What is sent during a cut is lost on a real network, and TCP sends it again on its
    retransmission timer, which doubles from its 200 ms minimum (0.2, 0.6, 1.4, 3.0, 6.2,
    12.6, 25.4 s after the first try): after the heal, it arrives at the first resend
    that falls after it, and everything sent behind it waits in order. The proxy holds
    each direction of each connection likewise (connections opened during a cut too).
    (Unlike a real partition, the proxy's kernel still acknowledges the client's bytes:
    the client's TCP keepalive and user timeout cannot notice; its own timeouts and
    health checks must.)"""

    FIRST_RESEND_SECONDS = 0.2

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.flowing = asyncio.Event()
        self.flowing.set()
        self.server = None
        self.tasks: set[asyncio.Task] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)

    def cut(self) -> None:
        self.flowing.clear()

    def heal(self) -> None:
        self.flowing.set()

    async def stop(self) -> None:
        self.server.close()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _through_the_cut(self, sent_at: float) -> None:
        """Returns at once when the link is up; else when TCP's resend of what was first
        sent at `sent_at` gets through, the first after the heal."""
        if self.flowing.is_set():
            return
        await self.flowing.wait()
        loop = asyncio.get_running_loop()
        wait, resend_at = self.FIRST_RESEND_SECONDS, sent_at + self.FIRST_RESEND_SECONDS
        while resend_at < loop.time():
            wait *= 2
            resend_at += wait
        await asyncio.sleep(resend_at - loop.time())

    async def _serve(self, client_reader, client_writer) -> None:
        try:
            await self._through_the_cut(asyncio.get_running_loop().time())
            server_reader, server_writer = await asyncio.open_connection(
                "127.0.0.1", self.target_port
            )
        except (OSError, asyncio.CancelledError):  # nothing there, or the test is over
            client_writer.close()
            return
        for reader, writer in ((client_reader, server_writer), (server_reader, client_writer)):
            task = asyncio.create_task(self._pump(reader, writer))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _pump(self, reader, writer) -> None:
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                await self._through_the_cut(asyncio.get_running_loop().time())
                writer.write(data)
                await writer.drain()
        except OSError:
            pass
        finally:
            writer.close()


class Player:
    """One player's socket, as the room page uses it: pairs sent with the count they
    follow, answers matched by id, everything else kept in `seen`."""

    def __init__(self, server: WebServer, code: str, player):
        self.server, self.code, self.cookie = server, code, cookie_for(player)
        self.ws = None
        self.position = None
        self.count = 0  # pairs acknowledged (or, after a resync, stored)
        self.seen: list[dict] = []
        self.answers: dict[int, asyncio.Future] = {}
        self.next_id = 0

    async def connect(self) -> dict:
        """Opens the socket and resyncs from its snapshot (board and count)."""
        self.ws = await connect(
            f"{self.server.url}/ws/rooms/{self.code}/",
            origin=f"http://127.0.0.1:{self.server.port}",
            additional_headers={"Cookie": self.cookie},
        )
        self.reader = asyncio.create_task(self._read())
        snapshot = await self.wait_for("snapshot")
        entry = snapshot.get("entry")  # none in a lobby, before the first race
        if entry is not None:
            self.position = position_from_json(entry["board"])
            self.count = entry["pairs_removed"]
        return snapshot

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                waiting = self.answers.pop(message.get("id"), None)
                if waiting is not None:
                    waiting.set_result(message)
                else:
                    self.seen.append(message)
        except Exception:  # the server went away: nobody answers what is pending
            pass
        for waiting in self.answers.values():
            waiting.cancel()
        self.answers.clear()

    async def wait_for(self, kind: str, timeout: float = 15) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.seen:
                if message["type"] == kind:
                    self.seen.remove(message)
                    return message
            await asyncio.sleep(0.02)
        raise AssertionError(f"no {kind} within {timeout} s; saw {self.seen}")

    async def ask(self, **message) -> dict:
        self.next_id += 1
        message["id"] = self.next_id
        answer = self.answers[self.next_id] = asyncio.get_running_loop().create_future()
        await self.ws.send(json.dumps(message))
        return await asyncio.wait_for(answer, 10)

    async def play_pair(self) -> dict:
        """A legal pair of its board, acknowledged or refused (then raises)."""
        pair = a_legal_pair(self.position)
        answer = await self.ask(type="move", tiles=list(pair), n=self.count)
        assert answer["type"] == "ack", answer
        self.position = self.position.remove(*pair)
        self.count = answer["pairs_removed"]
        return answer

    async def close(self) -> None:
        await self.ws.close()
        await self.reader


async def connected_players(server: WebServer, code: str, people) -> list[Player]:
    """A socket open for each of `people` in the room, each resynced from its snapshot."""
    players = [Player(server, code, person) for person in people]
    for player in players:
        await player.connect()
    return players
