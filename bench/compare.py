"""One load benchmark against two versions of the site, interleaved on this machine
(A B A B ...), printed side by side: a change is judged against its base on the same
machine in the same minutes, not against a figure taken another day.

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/mahjong_load
    export REDIS_URL=redis://127.0.0.1:6379/5
    .venv/bin/python bench/compare.py main --rounds 2 -- --players 1000 --seconds 40 --level easy
    .venv/bin/python bench/compare.py main --bench arena -- --players 200 --seconds 300

A is REF (a branch, a tag, a commit), checked out as a git worktree under var/compare/;
B is this checkout as it is, uncommitted changes too. For each run the side's own
`manage.py serve` is started afresh (DEAL_POOL_SIZE=0 and SOCKETS_PER_ADDRESS=0 unless
set), waited for, loaded by this checkout's client (bench/load/run.py, or
bench/arena_load.py with --bench arena: one instrument measures both sides), with
LOAD_SERVE_PID and LOAD_DATABASE set so the CPU figures are the site's own, then
stopped. Both sides share the database and Redis; this checkout migrates the database
first, so REF must not be older than its last migration. Takes the machine's cores for
rounds x 2 x the run's length: nothing else should run meanwhile.
"""

import argparse
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
CLIENTS = {"load": ROOT / "bench" / "load" / "run.py", "arena": ROOT / "bench" / "arena_load.py"}
UP_TIMEOUT = 90
# One runtime folder for both sides and the client: its secret key signs the players'
# device cookies, which the client makes and each side's site must accept.
VAR_DIR = ROOT / "var" / "compare-run"


def worktree(ref: str) -> Path:
    """REF's tree, checked out (again, if REF moved) under var/compare/."""
    commit = _git("rev-parse", "--verify", f"{ref}^{{commit}}")
    path = ROOT / "var" / "compare" / commit[:12]
    if not path.exists():
        _git("worktree", "add", "--detach", str(path), commit)
    return path


def _git(*args) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def serve(tree: Path, port: int) -> subprocess.Popen:
    """The side's site (web with two processes, worker, beat), once it answers HTTP."""
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),  # that tree's code, this checkout's virtualenv
        "VAR_DIR": str(VAR_DIR),
        "DEAL_POOL_SIZE": os.environ.get("DEAL_POOL_SIZE", "0"),
        "SOCKETS_PER_ADDRESS": os.environ.get("SOCKETS_PER_ADDRESS", "0"),
    }
    command = [PYTHON, "manage.py", "serve", "--port", str(port)]
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    with open(VAR_DIR / "serve.log", "ab") as log:  # the site's own lines, out of the table's way
        site = subprocess.Popen(
            command, cwd=tree, env=env, stdout=log, stderr=log, start_new_session=True
        )
    deadline = time.monotonic() + UP_TIMEOUT
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            time.sleep(3)  # the worker and beat come up beside the web processes
            return site
        except OSError:
            if site.poll() is not None:
                stopped = f"serve in {tree} stopped at start (exit {site.returncode})"
                raise SystemExit(stopped) from None
            time.sleep(0.5)
    stop(site)
    raise SystemExit(f"serve in {tree} did not answer in {UP_TIMEOUT} s")


def stop(site: subprocess.Popen) -> None:
    os.killpg(site.pid, signal.SIGTERM)
    try:
        site.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(site.pid, signal.SIGKILL)
        site.wait()


def one_run(tree: Path, client: Path, args: list[str], port: int) -> dict[str, str]:
    """The client's table rows for one run against `tree`'s site."""
    site = serve(tree, port)
    env = {
        **os.environ,
        "VAR_DIR": str(VAR_DIR),
        "LOAD_SERVE_PID": str(site.pid),
        "LOAD_DATABASE": _database(),
    }
    try:
        command = [PYTHON, str(client), "--url", f"http://127.0.0.1:{port}", *args]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    finally:
        stop(site)
    if done.returncode != 0:
        sys.stderr.write(done.stderr[-3000:])
        raise SystemExit(f"the load client failed against {tree}")
    return dict(_row(line) for line in done.stdout.splitlines() if line.startswith("| "))


def _row(line: str) -> tuple[str, str]:
    name, value = (cell.strip() for cell in line.strip().strip("|").split("|", 1))
    return name, value


def _database() -> str:
    return urlparse(os.environ["DATABASE_URL"]).path.lstrip("/")


def table(runs: list[tuple[str, dict[str, str]]]) -> str:
    """Every row of the client's table, one column per run in the order they ran."""
    names = list(dict.fromkeys(name for _, rows in runs for name in rows))
    lines = ["| | " + " | ".join(label for label, _ in runs) + " |"]
    lines.append("|---" * (len(runs) + 1) + "|")
    for name in names:
        lines.append(f"| {name} | " + " | ".join(rows.get(name, "-") for _, rows in runs) + " |")
    return "\n".join(lines)


def _split(argv: list[str]) -> tuple[list[str], list[str]]:
    """This script's arguments, and after `--` the client's own."""
    if "--" not in argv:
        return argv, []
    cut = argv.index("--")
    return argv[:cut], argv[cut + 1 :]


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog="after --: the load client's own arguments"
    )
    parser.add_argument("ref", help="the commit to compare this checkout with (A)")
    parser.add_argument("--rounds", type=int, default=2, help="A B pairs to run")
    parser.add_argument("--bench", choices=sorted(CLIENTS), default="load")
    parser.add_argument("--port", type=int, default=8210)
    ours, client_args = _split(sys.argv[1:])
    args = parser.parse_args(ours)
    args.client_args = client_args
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        parser.error("set DATABASE_URL to a PostgreSQL database of its own (and REDIS_URL)")
    migrate = [PYTHON, "manage.py", "migrate", "--noinput", "-v0"]
    subprocess.run(migrate, cwd=ROOT, check=True, env={**os.environ, "VAR_DIR": str(VAR_DIR)})
    sides = {f"A {args.ref}": worktree(args.ref), "B this checkout": ROOT}
    runs = []
    for round_number in range(1, args.rounds + 1):
        for label, tree in sides.items():
            print(f"round {round_number}: {label} ...", file=sys.stderr, flush=True)
            rows = one_run(tree, CLIENTS[args.bench], args.client_args, args.port)
            runs.append((f"{label.split()[0]}{round_number}", rows))
    print(f"A = {args.ref} ({_git('rev-parse', '--short', args.ref)}), B = this checkout")
    print(table(runs))


if __name__ == "__main__":
    main()
