"""Start the whole site in one command: web (HTTP + websockets), worker, scheduler.

Redis comes from REDIS_URL, or is started by the settings (infra/embedded_redis.py)
when it is unset; the children inherit its address. Ctrl+C (or SIGTERM) stops every
child and then Redis; if any child dies, the others are stopped too, so the site is
never left half up.
"""

import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand

POLL_SECONDS = 0.5
STOP_TIMEOUT_SECONDS = 10


class Command(BaseCommand):
    help = "Run the web server (with websockets), a Celery worker and the scheduler."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--web-processes", type=int, default=2)
        parser.add_argument("--worker-concurrency", type=int, default=2)

    def handle(self, *args, host, port, web_processes, worker_concurrency, **options):
        commands = self.commands(host, port, web_processes, worker_concurrency)
        self.stdout.write(f"Redis at {settings.REDIS_URL}")
        children = {name: subprocess.Popen(argv) for name, argv in commands.items()}
        self.stdout.write(self.style.SUCCESS(f"Serving on http://{host}:{port}/ (Ctrl+C stops)"))
        stop_requested = []
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stop_requested.append(True))
        try:
            exited = self.wait_for_stop_or_exit(children, stop_requested)
        finally:
            self.stop_all(children)
        if exited:
            self.stderr.write(f"{exited} stopped unexpectedly; everything was stopped.")
            sys.exit(1)

    def commands(self, host, port, web_processes, worker_concurrency) -> dict[str, list[str]]:
        python = sys.executable
        return {
            "web": [
                python,
                "-m",
                "uvicorn",
                "mahjong.asgi:application",
                "--host",
                host,
                "--port",
                str(port),
                "--workers",
                str(web_processes),
                "--no-access-log",
                # A room message is at most 4 KB: refuse huge frames before Django sees them.
                "--ws-max-size",
                "65536",
                # Events are small JSON; compressing each frame cost more CPU than the
                # bytes it saved (docs/PERFORMANCE.md).
                "--ws-per-message-deflate",
                "false",
            ],
            "worker": [
                python,
                "-m",
                "celery",
                "-A",
                "mahjong",
                "worker",
                "--loglevel",
                "INFO",
                "--concurrency",
                str(worker_concurrency),
            ],
            "scheduler": [
                python,
                "-m",
                "celery",
                "-A",
                "mahjong",
                "beat",
                "--loglevel",
                "INFO",
            ],
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
