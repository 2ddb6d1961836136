"""What an operator sees and what starts behind their back, with real processes: importing
the settings or running migrate/check/shell starts no Redis; the scheduler's periodic tasks
print no Celery line at INFO while a sweep that acts does; `manage.py serve` starts its
Redis, prints one block naming the address, the database and Redis, and Ctrl+C stops it
all, Redis included."""

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from django.utils import timezone

from infra import embedded_redis
from infra.management.commands.serve import Command as Serve
from infra.tasks import HEARTBEAT_KEY
from rooms.models import Race
from rooms.race import actions as races
from tests.conftest import free_port
from tests.ops.drill_helpers import PrivateRedis, database_url_of_this_test
from tests.rooms.rooms_helpers import room_with

ROOT = Path(__file__).resolve().parents[2]
PERIODIC_TASKS = ("infra.tasks.heartbeat", "rooms.tasks.sweep", "rooms.tasks.refill_pools")


def site_env(var_dir: Path, **extra) -> dict:
    """The environment of a local run: no REDIS_URL, no DATABASE_URL (SQLite in VAR_DIR)."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(VAR_DIR=str(var_dir), DJANGO_SETTINGS_MODULE="config.settings", **extra)
    return env


def manage(var_dir: Path, *args: str, **extra) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=site_env(var_dir, **extra),
        capture_output=True,
        text=True,
        timeout=60,
    )


def redis_servers_naming(text: str) -> list[int]:
    """Pids of redis-server processes whose command line (or title) names `text`."""
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            if (proc / "comm").read_text().strip() != "redis-server":
                continue
            if text.encode() in (proc / "cmdline").read_bytes():
                pids.append(int(proc.name))
        except (OSError, ValueError):
            continue
    return pids


# Run in a fresh interpreter: what importing the settings (and setting Django up, as every
# manage.py command does) leaves behind, seen from inside while it still runs.
IMPORT_SETTINGS = """
import json, os
from pathlib import Path
before = dict(os.environ)
import django
django.setup()
from django.conf import settings
from infra import embedded_redis
mine = str(os.getpid())
children = []
for proc in Path("/proc").iterdir():
    try:
        stat = (proc / "stat").read_text()
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        ppid = stat[stat.rindex(")") + 2 :].split()[1]
    except (OSError, ValueError):
        continue
    if comm == "redis-server" and ppid == mine:
        children.append(proc.name)
after = dict(os.environ)
changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
changed = [k for k in changed if k != "TZ"]  # Django's own: TIME_ZONE for time.tzset()
print(json.dumps({
    "redis_children": children,
    "environ_changes": changed,
    "redis_url": settings.REDIS_URL,
    "answering": embedded_redis.is_running(settings.VAR_DIR / "redis"),
}))
"""

pytestmark = pytest.mark.drill  # the site's own processes, started for real: not in bin/test --fast


def test_importing_the_settings_starts_no_redis_and_leaves_the_environment_alone(tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_SETTINGS],
        cwd=ROOT,
        env=site_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["redis_children"] == []
    assert seen["environ_changes"] == []
    # Named, not started: the embedded Redis of VAR_DIR, on its Unix socket.
    assert seen["redis_url"] == f"unix://{tmp_path}/redis/redis.sock"
    assert not seen["answering"]
    assert not (tmp_path / "redis").exists()


def test_migrate_check_and_shell_run_without_redis_and_start_none(tmp_path):
    for args in (
        ("migrate", "--noinput"),
        ("check",),
        ("shell", "-c", "from django.conf import settings; print(settings.REDIS_URL)"),
    ):
        result = manage(tmp_path, *args)
        assert result.returncode == 0, f"{args}: {result.stderr}"
    assert result.stdout.strip().endswith(f"unix://{tmp_path}/redis/redis.sock")
    # The embedded server writes its log in VAR_DIR/redis: none was ever started there.
    assert not (tmp_path / "redis").exists()


@pytest.mark.django_db(transaction=True)
def test_periodic_tasks_print_no_celery_line_at_info_but_an_acting_sweep_does(tmp_path, settings):
    """The worker and the scheduler exactly as `serve` runs them, on a Redis of their own,
    with the sweeper and the heartbeat every second and a race past its cut-off."""
    room, (ana, _bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code)
    Race.objects.filter(pk=race.pk).update(cut_off_at=timezone.now() - timedelta(seconds=1))
    broker = PrivateRedis(tmp_path)
    broker.start()
    env = {
        **os.environ,
        "DATABASE_URL": database_url_of_this_test(),
        "REDIS_URL": broker.url,
        "VAR_DIR": str(tmp_path),
        "SWEEP_SECONDS": "1",
        "HEARTBEAT_SECONDS": "1",
        "LOG_LEVEL": "INFO",
        "DB_CONN_MAX_AGE": "0",
    }
    commands = Serve().commands("127.0.0.1", 0, 1, 1)
    client = redis.Redis.from_url(broker.url)
    processes = {}
    try:
        for name in ("worker", "scheduler"):
            with open(tmp_path / f"{name}.log", "wb") as log:
                processes[name] = subprocess.Popen(
                    commands[name],
                    cwd=ROOT,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
        # refill_pools runs every minute: sent once here as beat would send it.
        subprocess.run(
            [sys.executable, "-m", "celery", "-A", "config", "call", PERIODIC_TASKS[2]],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            timeout=30,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            race.refresh_from_db()
            ran = {
                "sweep closed the race": race.status == Race.Status.FINISHED,
                "heartbeat": client.get(HEARTBEAT_KEY) is not None,
                "refill_pools queued refills": client.llen("pools") > 0,
            }
            if all(ran.values()):
                break
            time.sleep(0.2)
        assert all(ran.values()), ran
        time.sleep(2.5)  # a few more sweeps and heartbeats that find nothing to do
    finally:
        for process in processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes.values():
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)
        client.close()
        broker.stop()
    worker = (tmp_path / "worker.log").read_text()
    scheduler = (tmp_path / "scheduler.log").read_text()
    for task in PERIODIC_TASKS:
        assert f"Task {task}[" not in worker  # neither "received" nor "succeeded in"
    assert "Sending due task" not in scheduler
    acted = [line for line in worker.splitlines() if f"sweep: {{'closed': ['{room.code}']" in line]
    assert len(acted) == 1 and "INFO" in acted[0], worker


def test_serve_starts_redis_prints_one_block_naming_address_database_and_redis(tmp_path):
    """SQLite and the embedded Redis in a temporary VAR_DIR; Ctrl+C (SIGINT to the whole
    group, as a terminal sends it) stops every child and then Redis."""
    var_dir = tmp_path / "var"
    assert manage(var_dir, "migrate", "--noinput").returncode == 0
    port = free_port()
    address = f"http://127.0.0.1:{port}/"
    socket_path = embedded_redis.socket_path(var_dir / "redis")
    output = tmp_path / "serve.log"
    with open(output, "wb") as log:
        serve = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port)],
            cwd=ROOT,
            env=site_env(var_dir),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        while "Ctrl+C" not in output.read_text() and serve.poll() is None:
            assert time.monotonic() < deadline, output.read_text()
            time.sleep(0.2)
        # The address in the block answers, with the worker up behind it.
        with urllib.request.urlopen(f"{address}healthz", timeout=10) as answer:
            assert answer.status == 200
        os.killpg(serve.pid, signal.SIGINT)
        assert serve.wait(30) == 0
    finally:
        if serve.poll() is None:
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait(10)
        for pid in redis_servers_naming(str(var_dir)):  # only if serve itself was killed
            os.kill(pid, signal.SIGKILL)
    text = output.read_text()
    blocks = re.findall(r"^={20,}\n(.*?)^={20,}$", text, flags=re.MULTILINE | re.DOTALL)
    assert len(blocks) == 1, text
    assert blocks[0].splitlines()[0].strip() == "Mahjong races is up"
    block = dict(re.match(r"\s+(\S+)\s+(.*)", line).groups() for line in blocks[0].splitlines()[1:])
    assert block["Open"] == address
    assert block["Status"].startswith(f"{address}status/")
    assert block["Database"] == f"SQLite file {var_dir / 'db.sqlite3'}"
    assert block["Redis"].startswith(f"{socket_path} (embedded redis-server, started now")
    for process in ("web", "worker", "pool worker", "scheduler"):
        assert f"{process} (pid " in block["Processes"]
    assert "Ctrl+C" in block["Stop"]
    assert "Stopped." in text
    assert not embedded_redis.is_running(var_dir / "redis")
    assert redis_servers_naming(str(var_dir)) == []
