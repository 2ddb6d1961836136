"""CPU time of this machine's processes by role (web, database, worker, Redis), read
from /proc, so a load run can say what each pair cost each part. Linux only."""

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
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
            command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:  # gone meanwhile
            continue
        role = next((r for r, marks in ROLES if any(m in command for m in marks)), None)
        if role:
            fields = stat.rsplit(")", 1)[1].split()
            used[role] += (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    total = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    used["machine"] = (sum(total) - total[3] - total[4]) / tick  # all but idle and iowait
    used["client"] = sum(os.times()[:4])  # this process: the load client, children included
    return used


def per_pair(before, after, pairs: int) -> dict[str, str]:
    """ms of CPU per acknowledged pair, per role. A process that ended between the two
    snapshots (a database backend closing) takes its time with it: a floor, not exact."""
    return {
        role: f"{max(0.0, after[role] - before[role]) * 1000 / max(pairs, 1):.1f}"
        for role in ("web", "database", "worker", "redis", "balancer", "client", "machine")
    }
