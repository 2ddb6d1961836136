"""Run one test again on the site's SQLite default (README: `bin/run` with no
DATABASE_URL) from a run on PostgreSQL, so CI, which runs on PostgreSQL, skips no test."""

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings as django_settings


def run_on_sqlite(nodeid: str, tmp_path: Path) -> None:
    """`nodeid` in a pytest of its own on the SQLite default: no DATABASE_URL, and its own
    VAR_DIR, so its SQLite file and embedded Redis are its own (tests/xdist_worker.py)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["VAR_DIR"] = str(tmp_path / "var")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", nodeid, "-n", "0", "-q", "-p", "no:cacheprovider"],
        cwd=django_settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout[-3000:] + run.stderr[-2000:]
