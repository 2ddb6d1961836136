"""Start the whole site in one command: web (HTTP + websockets), worker, pool worker,
scheduler, and the embedded Redis when REDIS_URL is unset.

Redis comes from REDIS_URL, or this command starts the embedded one of VAR_DIR
(infra/embedded_redis.py) before the children, which get its address in REDIS_URL. Once
the web server and both workers answer, one block says where to open the site, where the
database and Redis are, what runs and how to stop it; after it come warnings, errors and
what the tasks did (settings.LOGGING keeps Celery's per-task lines at DEBUG). Ctrl+C (or
SIGTERM) stops every child and then Redis; if any child dies, the others are stopped too,
so the site is never left half up.
"""

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management.base import BaseCommand

from infra import embedded_redis
from infra.env import env

POLL_SECONDS = 0.5
STOP_TIMEOUT_SECONDS = 10
# The block waits this long for the web server and the workers to answer.
START_TIMEOUT_SECONDS = 60
WORKER_NAMES = {"worker": "celery@", "pool worker": "pools@"}  # hostname prefixes


class Command(BaseCommand):
    help = (
        "Run the web server (with websockets), a Celery worker, the pool worker and the"
        " scheduler, and Redis when REDIS_URL is unset."
    )

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--web-processes", type=int, default=2)
        parser.add_argument("--worker-concurrency", type=int, default=2)

    def handle(self, *args, host, port, web_processes, worker_concurrency, **options):
        redis_url, redis_where = self.start_redis()
        commands = self.commands(host, port, web_processes, worker_concurrency)
        address = f"http://{browser_host(host)}:{port}/"
        self.stdout.write(f"Starting {', '.join(commands)} for {address} ...")
        child_env = {**os.environ, "REDIS_URL": redis_url}
        children = {name: subprocess.Popen(argv, env=child_env) for name, argv in commands.items()}
        stop_requested = []
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stop_requested.append(True))
        try:
            not_up = self.wait_until_up(children, address, stop_requested)
            if not_up is not None:
                block = self.banner(address, redis_where, children, web_processes, not_up)
                self.stdout.write(block)
            exited = self.wait_for_stop_or_exit(children, stop_requested)
        finally:
            self.stop_all(children)
        if exited:
            self.stderr.write(f"{exited} stopped unexpectedly; everything was stopped.")
            sys.exit(1)

    def start_redis(self) -> tuple[str, str]:
        """(URL for the children, where Redis is in words): REDIS_URL's server, or the
        embedded one of VAR_DIR, started now (stopped when this command exits) unless one
        of the same checkout answers already."""
        if env("REDIS_URL"):
            return settings.REDIS_URL, f"{without_password(settings.REDIS_URL)} (REDIS_URL)"
        folder = settings.VAR_DIR / "redis"
        started = not embedded_redis.is_running(folder)
        url = embedded_redis.ensure_running(folder)
        how = "started now, stops with the site" if started else "already running, reused"
        return url, f"{embedded_redis.socket_path(folder)} (embedded redis-server, {how})"

    def wait_until_up(self, children, address, stop_requested) -> list[str] | None:
        """Wait until both workers answer a ping and then the web server answers HTTP, so
        that the block comes after the children's start-up lines. Returns the parts still
        not answering at the deadline, or None when a child died or a stop was asked."""
        from celery import current_app as celery_app

        waiting = [*WORKER_NAMES, "web"]
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while waiting and time.monotonic() < deadline:
            if stop_requested or any(child.poll() is not None for child in children.values()):
                return None
            if waiting == ["web"]:
                # /healthz once the workers are up: it answers 200 then, and a 503 (logged
                # as an error) means a real fault, such as the database being down.
                if answers_http(f"{address}healthz"):
                    waiting.clear()
                else:
                    time.sleep(POLL_SECONDS)
                continue
            try:
                replies = celery_app.control.ping(timeout=POLL_SECONDS)
            except Exception:  # noqa: BLE001 - the broker is still starting: ask again
                replies = []
                time.sleep(POLL_SECONDS)
            names = [name for reply in replies for name in reply]
            for part, prefix in WORKER_NAMES.items():
                if part in waiting and any(name.startswith(prefix) for name in names):
                    waiting.remove(part)
        return waiting

    def banner(self, address, redis_where, children, web_processes, not_up) -> str:
        pids = {name: child.pid for name, child in children.items()}
        processes = ", ".join(
            f"{name} (pid {pid}{f', {web_processes} uvicorn workers' if name == 'web' else ''})"
            for name, pid in pids.items()
        )
        rows = [
            ("Open", address),
            ("Status", f"{address}status/  (JSON: {address}healthz)"),
            ("Database", describe_database()),
            ("Redis", redis_where),
            ("Processes", processes),
            ("Log", "warnings, errors and tasks that acted; LOG_LEVEL=DEBUG shows every task"),
            ("Stop", "Ctrl+C stops everything"),
        ]
        rule = "=" * 78
        title = f"not answering yet: {', '.join(not_up)}" if not_up else "is up"
        lines = [rule, f"  Mahjong races {title}", *(f"  {key:<10} {value}" for key, value in rows)]
        return "\n".join([*lines, rule])

    def commands(self, host, port, web_processes, worker_concurrency) -> dict[str, list[str]]:
        python = sys.executable
        # The banners of uvicorn and Celery (--quiet) give way to this command's block.
        celery = [python, "-m", "celery", "--quiet", "-A", "config"]
        log_level = settings.LOG_LEVEL
        return {
            "web": [
                python,
                "-m",
                "uvicorn",
                "config.asgi:application",
                "--host",
                host,
                "--port",
                str(port),
                "--workers",
                str(web_processes),
                "--no-access-log",
                "--log-level",
                "debug" if log_level == "DEBUG" else "warning",
                # A room message is at most 4 KB: refuse huge frames before Django sees them.
                "--ws-max-size",
                "65536",
                # Events are small JSON; compressing each frame cost more CPU than the
                # bytes it saved (docs/PERFORMANCE.md).
                "--ws-per-message-deflate",
                "false",
                # The cheapest of uvicorn's websocket implementations per frame written
                # (bench/ws_impl.py, docs/PERFORMANCE.md); `auto` picks it today, named so
                # that an upgrade does not change it unseen.
                "--ws",
                "websockets-sansio",
            ],
            "worker": [
                *celery,
                "worker",
                "--loglevel",
                log_level,
                "--concurrency",
                str(worker_concurrency),
                "--queues",
                "celery",
                "--hostname",
                "celery@%h",
            ],
            # Grades deals for the pools (seconds each) on a queue of its own, so CPU steps
            # and the sweeper never wait behind it (as docker-compose.yml's pool-worker).
            "pool worker": [
                *celery,
                "worker",
                "--loglevel",
                log_level,
                "--concurrency",
                "1",
                "--queues",
                "pools",
                "--hostname",
                "pools@%h",
            ],
            "scheduler": [*celery, "beat", "--loglevel", log_level],
        }

    def wait_for_stop_or_exit(self, children, stop_requested) -> str | None:
        while not stop_requested:
            for name, child in children.items():
                if child.poll() is not None:
                    return name
            time.sleep(POLL_SECONDS)
        return None

    def stop_all(self, children) -> None:
        for child in children.values():
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT_SECONDS
        for child in children.values():
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
        self.stdout.write("Stopped.")


def browser_host(host: str) -> str:
    """The host to open in a browser: loopback when serving on every address."""
    if host in ("0.0.0.0", "::", ""):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def answers_http(url: str) -> bool:
    """Any HTTP answer, even an error status."""
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


def without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = f"{parts.username}@" if parts.username else ""
    return parts._replace(netloc=user + netloc).geturl()


def describe_database() -> str:
    """Where the database is, without its password."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"SQLite file {db['NAME']}"
    where = f"{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}"
    return f"PostgreSQL database {db['NAME']!s} on {where} as {db['USER'] or '(default user)'}"
