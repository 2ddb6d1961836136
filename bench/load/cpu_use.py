"""CPU time of this machine's processes by role (web, database, worker, Redis), read
from /proc, so a load run can say what each pair cost each part. Linux only.

On a machine shared with other work, `LOAD_SERVE_PID` (the pid of the `manage.py serve`
under load) narrows the web and worker roles to that process's descendants, and
`LOAD_DATABASE` (a database name) the database role to the PostgreSQL backends of that
database; `ours` is then the sum of the roles so narrowed plus the client, the figure to
compare when `machine` carries other people's work too. `site` is web + database +
worker + Redis: the server side's cost, without the client."""

import collections
import os
from pathlib import Path

ROLES = (  # first match wins, against the command line
    ("web", ("uvicorn", "multiprocessing.spawn")),
    ("worker", ("celery",)),
    ("database", ("postgres",)),
    ("redis", ("redis-server",)),
    ("balancer", ("haproxy",)),
)


def snapshot() -> collections.Counter:
    """CPU seconds so far per role, plus `machine` (every busy CPU second) and `client`
    (this process)."""
    tick = os.sysconf("SC_CLK_TCK")
    used = collections.Counter()
    serve_pid = int(os.environ.get("LOAD_SERVE_PID") or 0)
    database = os.environ.get("LOAD_DATABASE")
    processes = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
            command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:  # gone meanwhile
            continue
        fields = stat.rsplit(")", 1)[1].split()
        processes[int(proc.name)] = (int(fields[1]), command, fields)
    for pid, (_, command, fields) in processes.items():
        role = next((r for r, marks in ROLES if any(m in command for m in marks)), None)
        if role is None or not _ours(role, pid, command, processes, serve_pid, database):
            continue
        used[role] += (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    total = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    used["machine"] = (sum(total) - total[3] - total[4]) / tick  # all but idle and iowait
    used["client"] = sum(os.times()[:4])  # this process: the load client, children included
    if serve_pid or database:
        used["ours"] = sum(used[r] for r in ("web", "worker", "database", "client"))
    used["site"] = sum(used[r] for r in SITE)
    return used


# The site's own share: what a pair costs the server side, without the load client (the
# headline of bench/load/run.py and bench/arena_load.py) or the balancer of bench/scale.
SITE = ("web", "database", "worker", "redis")


def _ours(role, pid, command, processes, serve_pid, database) -> bool:
    if role in ("web", "worker") and serve_pid:
        while pid > 1:  # up the parents: is the serve among them?
            if pid == serve_pid:
                return True
            pid = processes.get(pid, (0,))[0]
        return False
    if role == "database" and database:  # "postgres: USER DATABASE ADDRESS STATE"
        return f" {database} " in command
    return True


def per_pair(before, after, pairs: int) -> dict[str, str]:
    """ms of CPU per acknowledged pair, per role. A process that ended between the two
    snapshots (a database backend closing) takes its time with it: a floor, not exact."""
    return {
        role: f"{max(0.0, after[role] - before[role]) * 1000 / max(pairs, 1):.1f}"
        for role in (
            "site",
            "web",
            "database",
            "worker",
            "redis",
            "balancer",
            "client",
            "machine",
            "ours",
        )
        if role != "ours" or role in after
    }
