"""An empty PostgreSQL cluster of the test's own, for the restore drill
(tests/ops/test_backups.py): initdb into a temporary folder, started on a free port, stopped
and removed afterwards. initdb and pg_ctl refuse to run as root: as root they run as the
`postgres` user."""

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg

from tests.conftest import free_port


def _bin(name: str) -> str:
    """The newest installed server's program (Debian: /usr/lib/postgresql/N/bin)."""
    found = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(p.split("/")[4])
    )
    if not found:
        raise RuntimeError(f"no PostgreSQL server installed ({name})")
    return found[-1]


class EmptyCluster:
    """`with EmptyCluster() as cluster:` a running cluster holding one empty database,
    `cluster.url`."""

    def __init__(self, database: str = "mahjong"):
        self.database = database
        self.port = free_port()
        self.home = Path(tempfile.mkdtemp(prefix="mahjong-drill-"))
        self.data = self.home / "data"
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _as_owner(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=60)

    def __enter__(self):
        if os.geteuid() == 0:
            shutil.chown(self.home, "postgres", "postgres")
        self._as_owner(
            _bin("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
            "-E", "UTF8", "--no-locale", "--no-sync",
        )  # fmt: skip
        options = (
            f"-p {self.port} -k {self.home} -c listen_addresses=127.0.0.1"
            " -c fsync=off -c full_page_writes=off"
        )
        self._as_owner(
            _bin("pg_ctl"), "-D", str(self.data), "-l", str(self.home / "log"),
            "-o", options, "-w", "-t", "30", "start",
        )  # fmt: skip
        with psycopg.connect(
            host="127.0.0.1", port=self.port, user="postgres", dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(f'CREATE DATABASE "{self.database}"')
        return self

    def __exit__(self, *exc):
        try:
            self._as_owner(_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.home, ignore_errors=True)
