"""bench/load/run.py through the balancer of bench/scale, against one web host and then
against two, with the database connections each host held (sampled every 2 s).

    bench/scale/up.sh && .venv/bin/python bench/scale/figures.py --players 1000

Both web hosts stay up: for "one", the balancer sends nothing to web2 (maintenance).
On one machine more hosts add no CPU: the figures are what the extra hop and the
sharded layer cost. Takes the machine's cores for a few minutes: run it when needed.
Results: docs/SCALING.md.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import topology as topo  # noqa: E402

CONNECTIONS = (
    "SELECT client_addr, count(*) FROM pg_stat_activity"
    " WHERE client_addr IS NOT NULL GROUP BY client_addr"
)


class ConnectionSampler(threading.Thread):
    """The most connections each host held at once, read from pg_stat_activity."""

    def __init__(self, top):
        super().__init__(daemon=True)
        self.top, self.most, self.stop = top, collections.Counter(), threading.Event()
        self.names = {top.addr(h): h for h in top.hosts}
        self.names[f"{top.net}.1"] = "client"

    def run(self):
        while not self.stop.wait(2):
            psql = ["psql", "-h", self.top.addr("pg"), "-U", "postgres", "-d", topo.DATABASE]
            out = subprocess.run([*psql, "-Atc", CONNECTIONS], capture_output=True, text=True)
            for line in out.stdout.splitlines():
                addr, count = line.split("|")
                host = self.names.get(addr, addr)
                self.most[host] = max(self.most[host], int(count))


def one_run(top, hosts, args) -> list[str]:
    top.use_web_hosts(hosts)
    sampler = ConnectionSampler(top)
    sampler.start()
    env = {**os.environ, **json.loads((top.run_dir / "env.json").read_text())}
    command = [topo.PYTHON, str(HERE.parent / "load" / "run.py"), "--url", top.url]
    command += ["--players", str(args.players), "--seconds", str(args.seconds)]
    out = subprocess.run(command, env=env, capture_output=True, text=True, cwd=topo.ROOT)
    sampler.stop.set()
    rows = [line for line in out.stdout.splitlines() if line.startswith("|")]
    if not rows:
        raise SystemExit(out.stderr[-3000:])
    most = ", ".join(f"{h} {n}" for h, n in sorted(sampler.most.items()))
    return [*rows, f"| database connections, most at once per host | {most} |"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    topo.add_arguments(parser)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--only", choices=("one", "two"), help="one of the two runs")
    args = parser.parse_args()
    top = topo.topology_from_args(args)
    webs = [h for h in top.hosts if h.startswith("web")]
    runs = {"one": webs[:1], "two": webs}
    for label, hosts in runs.items():
        if args.only in (None, label):
            print(f"\n### through the balancer, {label} web host(s): {', '.join(hosts)}")
            print(f"DB_POOL_SIZE={top.saved_env().get('DB_POOL_SIZE', '0')}\n")
            print("\n".join(one_run(top, hosts, args)), flush=True)
            time.sleep(5)
    top.use_web_hosts(webs)


if __name__ == "__main__":
    main()
