"""The site on several hosts of this one machine: Linux network namespaces on a bridge.

    bench/scale/topology.py up      # build it from nothing (tearing down any leftover)
    bench/scale/topology.py down    # remove every namespace, the bridge, the processes
    bench/scale/topology.py status  # what runs where, and the balancer's view

Each host is a network namespace with one veth on the bridge and an address of
198.18.0.0/15 (RFC 2544's range for network benchmarks); no namespace has a default
route, so nothing can leave for any other address. The machine's own namespace holds the
bridge's address (.1) and reaches every host from there: the load client and the drills
run in it. One file on purpose (~440 lines): up, down and status must agree on every
name and address, and one table of hosts below is the single place they are written. The
hosts (docs/SCALING.md):

    lb        HAProxy: round robin, no stickiness, health checks on /livez
    web1/2    uvicorn, two processes each
    worker1/2 Celery, queue `celery` (CPU steps, the sweeper, heartbeats)
    sched     Celery beat (exactly one) and the pool worker (queue `pools`)
    redis1/2  the channel layer sharded over both; cache, broker and leases on redis1
    pg        a PostgreSQL cluster of its own, made here with Debian's binaries

`--small` builds the CI test's version: lb, web1, web2, worker1 (which also runs beat
and the pools), redis1, pg. `--name` and `--net` let two topologies live side by side.
Must run as root (namespaces, veths, the postgres user).
"""

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python")
PG_BIN = Path(sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: p.parent.name)[-1])
HOST_BYTE = {  # the last byte of each host's address
    "lb": 10,
    "web1": 11,
    "web2": 12,
    "worker1": 21,
    "worker2": 22,
    "sched": 23,
    "redis1": 31,
    "redis2": 32,
    "pg": 40,
}
SMALL = ("lb", "web1", "web2", "worker1", "redis1", "pg")
WEB_PORT, LB_PORT, REDIS_PORT, PG_PORT = 8000, 80, 6379, 5432
DATABASE = "mahjong_scale"


class Topology:
    """Names, addresses and folders of one topology; every method is safe to repeat."""

    def __init__(self, name="mjs", net="198.18.0", small=False, web_processes=2, db_pool=0):
        self.name, self.net, self.small = name, net, small
        self.web_processes, self.db_pool = web_processes, db_pool
        self.hosts = SMALL if small else tuple(HOST_BYTE)
        self.run_dir = ROOT / "var" / "scale" / name
        # The postgres user must write the cluster: not under a root-only worktree.
        self.pg_dir = Path("/tmp") / f"{name}-pg"
        self.static_root = self.run_dir / "static"  # collected by `up` for the web hosts

    # --- names ---------------------------------------------------------------------
    def ns(self, host: str) -> str:
        return f"{self.name}-{host}"

    def addr(self, host: str) -> str:
        return f"{self.net}.{HOST_BYTE[host]}"

    @property
    def bridge(self) -> str:
        return f"{self.name}-br"

    @property
    def url(self) -> str:
        return f"http://{self.addr('lb')}:{LB_PORT}"

    @property
    def database_url(self) -> str:
        return f"postgres://postgres@{self.addr('pg')}:{PG_PORT}/{DATABASE}"

    def env(self) -> dict[str, str]:
        """What every process of the site gets, on every host: the same secret (signed
        device cookies must verify on any web host), database and Redis hosts."""
        redis = [f"redis://{self.addr(h)}:{REDIS_PORT}/0" for h in ("redis1", "redis2")]
        redis = [r for r, h in zip(redis, ("redis1", "redis2"), strict=True) if h in self.hosts]
        lb = self.addr("lb")
        return {
            "DATABASE_URL": self.database_url,
            "REDIS_URL": redis[0],
            "CHANNEL_REDIS_URLS": ",".join(redis),
            "SECRET_KEY": f"scale-bench-{self.name}-not-a-secret",
            "ALLOWED_HOSTS": ",".join([lb, *(self.addr(h) for h in self.hosts)]),
            "CSRF_TRUSTED_ORIGINS": f"http://{lb}",
            "DEBUG": "0",
            "SECURE_COOKIES": "0",
            "SOCKETS_PER_ADDRESS": "0",  # every load client comes from the bridge's address
            "VAR_DIR": str(self.run_dir / "var"),
            "STATIC_ROOT": str(self.static_root),
            "CHANNEL_PREFIX": f"scale-{self.name}",
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "DB_POOL_SIZE": str(self.db_pool),  # 0: a connection kept per thread
        }

    def saved_env(self) -> dict[str, str]:
        """The environment `up` gave the hosts: a host started again gets the same."""
        saved = self.run_dir / "env.json"
        return json.loads(saved.read_text()) if saved.exists() else self.env()

    # --- the network ------------------------------------------------------------------
    def build_network(self) -> None:
        sh(f"ip link add {self.bridge} type bridge")
        sh(f"ip addr add {self.net}.1/24 dev {self.bridge}")
        sh(f"ip link set {self.bridge} up")
        for host in self.hosts:
            self.add_host(host)

    def add_host(self, host: str) -> None:
        ns, byte = self.ns(host), HOST_BYTE[host]
        outside, inside = f"{self.name}-h{byte}", f"{self.name}-n{byte}"
        sh(f"ip netns add {ns}")
        sh(f"ip link add {outside} type veth peer name {inside}")
        sh(f"ip link set {outside} master {self.bridge} up")
        sh(f"ip link set {inside} netns {ns}")
        sh(f"ip -n {ns} link set {inside} name eth0")
        sh(f"ip -n {ns} addr add {self.addr(host)}/24 dev eth0")
        sh(f"ip -n {ns} link set lo up")
        sh(f"ip -n {ns} link set eth0 up")

    def namespaces(self) -> list[str]:
        listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        names = [line.split()[0] for line in listed.splitlines() if line.strip()]
        return [n for n in names if n.startswith(f"{self.name}-")]

    def pids(self, host: str) -> list[int]:
        out = subprocess.run(["ip", "netns", "pids", self.ns(host)], capture_output=True, text=True)
        return [int(p) for p in out.stdout.split()]

    def kill_host(self, host: str, sig=signal.SIGKILL) -> int:
        """Every process of the host, at once (kill -9 by default): what a crash does."""
        pids = self.pids(host)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        return len(pids)

    def down(self) -> None:
        for ns in self.namespaces():
            host = ns[len(self.name) + 1 :]
            if host in HOST_BYTE:
                self.kill_host(host)
        time.sleep(0.3)
        for ns in self.namespaces():
            sh(f"ip netns del {ns}", check=False)
        sh(f"ip link del {self.bridge}", check=False)
        # A veth whose namespace went first leaves its peer for a moment: remove it.
        for byte in HOST_BYTE.values():
            sh(f"ip link del {self.name}-h{byte}", check=False)
        shutil.rmtree(self.pg_dir, ignore_errors=True)

    # --- processes ------------------------------------------------------------------
    def spawn(self, host: str, label: str, argv: list[str], user: str | None = None) -> None:
        """Start a process in the host's namespace, in a session of its own, its output
        appended to run_dir/<host>-<label>.log."""
        log = open(self.run_dir / f"{host}-{label}.log", "ab")  # noqa: SIM115 - the child keeps it
        prefix = ["ip", "netns", "exec", self.ns(host)]
        if user:
            prefix += ["runuser", "-u", user, "--"]
        subprocess.Popen(
            prefix + argv,
            cwd=ROOT,
            env=self.saved_env(),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()

    def start(self, host: str) -> None:
        """Start what runs on `host` (again, after a kill)."""
        role = host.rstrip("0123456789")
        getattr(self, f"_start_{role}")(host)

    def _start_redis(self, host):
        self.spawn(host, "redis", ["redis-server", "--bind", self.addr(host), "--port",
                                   str(REDIS_PORT), "--save", "", "--appendonly", "no",
                                   "--protected-mode", "no"])  # fmt: skip
        wait_for_port(self.addr(host), REDIS_PORT)

    def _start_pg(self, host):
        options = (
            f"-c listen_addresses={self.addr(host)} -p {PG_PORT} -k {self.pg_dir}"
            " -c max_connections=400 -c shared_buffers=256MB"
        )
        log = self.pg_dir / "server.log"
        argv = [str(PG_BIN / "pg_ctl"), "-D", str(self.pg_dir / "data"), "-l", str(log), "-w"]
        self.spawn(host, "pg", [*argv, "-o", options, "start"], user="postgres")
        wait_for_port(self.addr(host), PG_PORT, seconds=30)

    def stop_pg(self, mode="immediate") -> None:
        """PostgreSQL stopped as in a crash (immediate: no checkpoint, no goodbye)."""
        sh(f"runuser -u postgres -- {PG_BIN}/pg_ctl -D {self.pg_dir}/data -m {mode} -w stop")

    def _start_web(self, host):
        self.spawn(host, "web", [PYTHON, "-m", "uvicorn", "config.asgi:application",
                                 "--host", self.addr(host), "--port", str(WEB_PORT),
                                 "--workers", str(self.web_processes), "--no-access-log",
                                 "--forwarded-allow-ips", self.addr("lb")])  # fmt: skip

    def _start_worker(self, host):
        queues = "celery" if not self.small else "celery,pools"
        self.spawn(host, "worker", self._celery("worker", "-Q", queues, "-c", "2",
                                                "-n", f"{host}@{self.name}"))  # fmt: skip
        if self.small:  # one worker host does everything: the scheduler too
            self._start_beat(host)

    def _start_sched(self, host):
        self._start_beat(host)
        self.spawn(host, "pools", self._celery("worker", "-Q", "pools", "-c", "1",
                                               "-n", f"pools@{self.name}"))  # fmt: skip

    def _start_beat(self, host):
        schedule = str(self.run_dir / "celerybeat-schedule")
        self.spawn(host, "beat", self._celery("beat", "-s", schedule))

    def _start_lb(self, host):
        config = self.run_dir / "haproxy.cfg"
        config.write_text(self.haproxy_config())
        sh(f"haproxy -c -q -f {config}")
        self.spawn(host, "haproxy", ["haproxy", "-W", "-db", "-f", str(config)])
        wait_for_port(self.addr(host), LB_PORT)

    def _celery(self, *args) -> list[str]:
        """A Celery process, started again when it exits, as docker-compose.yml's
        `restart: unless-stopped` does: a worker's main process can die of a broker
        restart (kombu's "Unrecoverable error: AttributeError ... 'hostname'" while it
        restores its unacknowledged messages, docs/SCALING.md §A night of chaos). A kill
        of the host kills the loop too."""
        celery = [PYTHON, "-m", "celery", "-A", "config", *args, "--loglevel", "INFO"]
        loop = 'while :; do "$@"; echo "supervisor: exited with $?, starting again"; sleep 1; done'
        return ["sh", "-c", loop, "sh", *celery]

    def haproxy_config(self) -> str:
        webs = [h for h in self.hosts if h.startswith("web")]
        servers = "\n".join(
            f"    server {h} {self.addr(h)}:{WEB_PORT} check" for h in webs
        )  # fmt: skip
        backups = "\n".join(
            f"    server {h}-fallback {self.addr(h)}:{WEB_PORT} backup" for h in webs
        )
        return HAPROXY_CONFIG.format(
            lb=self.addr("lb"),
            port=LB_PORT,
            socket=self.run_dir / "haproxy.sock",
            servers=servers,
            backups=backups,
        )

    # --- the balancer's runtime API ---------------------------------------------------
    def haproxy(self, command: str) -> str:
        with socket.socket(socket.AF_UNIX) as conn:
            conn.connect(str(self.run_dir / "haproxy.sock"))
            conn.sendall(command.encode() + b"\n")
            chunks = []
            while chunk := conn.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode()

    def servers_up(self) -> dict[str, str]:
        """Each web server's state as the balancer sees it (UP, DOWN, MAINT...)."""
        rows = self.haproxy("show stat").splitlines()
        header = rows[0].lstrip("# ").split(",")
        states = {}
        for row in rows[1:]:
            cells = dict(zip(header, row.split(","), strict=False))
            name = cells.get("svname", "")
            if cells.get("pxname") == "web" and name.startswith("web") and "-" not in name:
                states[cells["svname"]] = cells["status"]
        return states

    def use_web_hosts(self, hosts: list[str]) -> None:
        """Send new connections to these web hosts only (the others in maintenance)."""
        for host in (h for h in self.hosts if h.startswith("web")):
            for server in (host, f"{host}-fallback"):
                self.haproxy(f"{'enable' if host in hosts else 'disable'} server web/{server}")

    # --- the whole -----------------------------------------------------------------------
    def up(self) -> None:
        self.down()  # from nothing, whatever a crash halfway left
        (self.run_dir / "var").mkdir(parents=True, exist_ok=True)
        for log in self.run_dir.glob("*.log"):
            log.unlink()
        (self.run_dir / "env.json").write_text(json.dumps(self.env(), indent=1))
        self.collect_static()
        self.build_network()
        self.init_pg()
        for host in ("pg", "redis1", "redis2"):
            if host in self.hosts:
                self.start(host)
        self.create_database()
        for host in self.hosts:
            if host not in ("pg", "redis1", "redis2", "lb"):
                self.start(host)
        self.start("lb")
        self.wait_healthy()

    def collect_static(self) -> None:
        """The hashed static files and their manifest, collected afresh into this
        topology's own folder: with DEBUG off a web host renders a page only if the
        manifest names every file it links (without one every page is a 500), and a
        checkout where `bin/run` never ran has none. (The Spanish catalogs, .mo, are
        committed; the database is migrated in `create_database`.)"""
        self.static_root.mkdir(parents=True, exist_ok=True)
        sh(f"{PYTHON} manage.py collectstatic --noinput --clear -v 0", env=self.env())

    def init_pg(self) -> None:
        self.pg_dir.mkdir(parents=True)
        shutil.chown(self.pg_dir, "postgres")
        data = self.pg_dir / "data"
        sh(f"runuser -u postgres -- {PG_BIN}/initdb -D {data} -U postgres --auth=trust")
        with open(data / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all {self.net}.0/24 trust\n")

    def create_database(self) -> None:
        psql = f"psql -h {self.addr('pg')} -U postgres -q -c"
        sh(f"{psql} 'CREATE DATABASE {DATABASE}'")
        sh(f"{PYTHON} manage.py migrate --noinput -v 0", env=self.env())

    def wait_healthy(self, seconds=90) -> None:
        """Until every web host passes its check (/livez) and the balancer answers
        /healthz (the whole site, workers included, is ready)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            states = self.servers_up()
            if all(s == "UP" for s in states.values()) and healthz(self.url):
                return
            time.sleep(0.5)
        raise RuntimeError(f"not healthy after {seconds} s: {self.servers_up()}")

    def status(self) -> dict:
        return {
            "url": self.url,
            "hosts": {
                h: {"addr": self.addr(h), "processes": len(self.pids(h))} for h in self.hosts
            },
            "balancer": self.servers_up(),
        }


HAPROXY_CONFIG = """\
global
    maxconn 9000
    stats socket {socket} mode 600 level admin

defaults
    mode http
    option redispatch         # a connection refused by a dead host is tried on another
    retries 3
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h         # a websocket lives as long as its race
    timeout client-fin 5s

frontend site
    bind {lb}:{port}
    option forwardfor
    default_backend web

backend web
    balance roundrobin        # no sticky sessions: a seat is found from the device cookie
    option httpchk
    # /livez: this host's database and channel layer answer. Not /healthz: that asks
    # for a worker too, and with every worker gone every host would fail it at once.
    http-check send meth GET uri /livez ver HTTP/1.1 hdr Host {lb}
    http-check expect status 200
    # Which host served a request (websocket upgrades included): the drills count
    # sockets per host from it.
    http-response set-header X-Served-By %[srv_name]
    # A host failing its check gets no new connection; its open sockets stay (a player
    # there still has moves acknowledged, and sees live events again when it heals).
    default-server inter 1s fall 2 rise 2
    timeout check 3s
{servers}
    # When every host fails its check, the cause is shared (the database or Redis down):
    # the same hosts, unchecked, as backups, so players still reach a page and get
    # `unavailable` answers, as on one machine, instead of the balancer's 503.
{backups}
"""


def sh(command: str, check=True, env=None) -> None:
    result = subprocess.run(command, shell=True, capture_output=True, text=True, cwd=ROOT, env=env)
    if check and result.returncode:
        raise RuntimeError(f"{command}: {result.stderr.strip() or result.stdout.strip()}")


def wait_for_port(addr: str, port: int, seconds=15) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection((addr, port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing answers on {addr}:{port} after {seconds} s")


def healthz(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=3) as answer:
            return answer.status == 200
    except OSError:
        return False


def topology_from_args(args) -> Topology:
    return Topology(args.name, args.net, args.small, args.web_processes, args.db_pool)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", default="mjs", help="prefix of namespaces and links")
    parser.add_argument("--net", default="198.18.0", help="the /24 of 198.18.0.0/15 to use")
    parser.add_argument("--small", action="store_true", help="the CI test's version")
    parser.add_argument("--web-processes", type=int, default=2, help="uvicorn processes a host")
    parser.add_argument(
        "--db-pool", type=int, default=0, help="DB_POOL_SIZE of every process (0: no pool)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("up", "down", "status", "balance"))
    parser.add_argument("web_hosts", nargs="*", help="balance: the web hosts to use")
    add_arguments(parser)
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("the topology needs root: network namespaces, veths, the postgres user")
    if not args.net.startswith(("198.18.", "198.19.")):
        sys.exit("--net must be inside 198.18.0.0/15, the range set aside for benchmarks")
    topology = topology_from_args(args)
    if args.command == "up":
        started = time.monotonic()
        topology.up()
        print(f"up in {time.monotonic() - started:.0f} s: {topology.url}")
        print(json.dumps(topology.status(), indent=1))
    elif args.command == "down":
        topology.down()
        print("down")
    elif args.command == "balance":
        topology.use_web_hosts(args.web_hosts)
        print(json.dumps(topology.servers_up()))
    else:
        print(json.dumps(topology.status(), indent=1))


if __name__ == "__main__":
    main()
