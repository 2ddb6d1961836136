"""Backups of the database into BACKUP_DIR, and restoring one (docs/OPERATIONS.md §Backups).

PostgreSQL: `pg_dump --format=custom`, one file per backup, read back by `pg_restore`.
SQLite (the development default): SQLite's online backup API, a copy of the database
file taken page by page while the site runs. Either way a backup is written under a
`.partial` name and renamed only once it is complete and has been read back, so a file
with the final name is always a whole backup; the oldest are removed past BACKUP_KEEP.
"""

import fcntl
import logging
import os
import re
import shutil
import sqlite3
import subprocess
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)

SUFFIXES = {"postgresql": ".dump", "sqlite": ".sqlite3"}
# mahjong-20261202-031700-123456.dump: names sort in the order the backups were taken.
NAME = re.compile(r"^mahjong-\d{8}-\d{6}-\d{6}\.(dump|sqlite3)$")
# pg_dump waits this long for a table another session holds exclusively (a migration)
# and then fails, instead of hanging the nightly task.
LOCK_WAIT = "120s"


class BackupError(Exception):
    """A backup or a restore that did not happen; the message says why."""


@dataclass
class Backup:
    path: Path
    size: int
    seconds: float
    removed: list[Path] = field(default_factory=list)

    def describe(self) -> str:
        return (
            f"{self.path} ({self.size / 1e6:.2f} MB) in {self.seconds:.2f} s;"
            f" removed {len(self.removed)} older"
        )


def backup_dir() -> Path:
    return Path(settings.BACKUP_DIR)


def backups(directory: Path | None = None) -> list[Path]:
    """The complete backups in `directory`, oldest first."""
    directory = directory or backup_dir()
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if NAME.match(p.name))


def take_backup(keep: int | None = None, now: datetime | None = None) -> Backup:
    """Back the default database up into BACKUP_DIR; keep the newest `keep` backups."""
    keep = settings.BACKUP_KEEP if keep is None else keep
    if keep < 1:
        raise BackupError("keep at least one backup")
    vendor = connection.vendor
    if vendor not in SUFFIXES:
        raise BackupError(f"no backup for a {vendor} database")
    directory = backup_dir()
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    now = now or datetime.now(UTC)
    final = directory / f"mahjong-{now:%Y%m%d-%H%M%S-%f}{SUFFIXES[vendor]}"
    partial = final.with_name(final.name + ".partial")
    with _only_one(directory):
        for stale in directory.glob("*.partial"):  # left by a backup killed midway
            stale.unlink()
        started = time.monotonic()
        # Created empty, for its owner only (password hashes, e-mail addresses), before
        # pg_dump or SQLite write into it.
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        try:
            if vendor == "postgresql":
                _pg_dump(connection.settings_dict, partial)
            else:
                _sqlite_copy(partial)
            partial.rename(final)
        finally:
            partial.unlink(missing_ok=True)
        seconds = time.monotonic() - started
        removed = backups(directory)[:-keep]
        for old in removed:
            old.unlink()
    backup = Backup(final, final.stat().st_size, seconds, removed)
    log.info("backup %s", backup.describe())
    return backup


@contextmanager
def _only_one(directory: Path):
    """One backup at a time per folder: the nightly task and `backup_db` may meet."""
    with open(directory / ".lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(f"another backup into {directory} is running") from None
        yield


# --- PostgreSQL -------------------------------------------------------------------------
def pg_env(db: dict) -> dict[str, str]:
    """The connection as libpq's variables: the password never shows in `ps`."""
    variables = {
        "PGHOST": db.get("HOST") or "",
        "PGPORT": str(db.get("PORT") or ""),
        "PGUSER": db.get("USER") or "",
        "PGPASSWORD": db.get("PASSWORD") or "",
        "PGDATABASE": db["NAME"],
        "PGSSLMODE": (db.get("OPTIONS") or {}).get("sslmode", ""),
        "PGCONNECT_TIMEOUT": "10",
    }
    return {**os.environ, **{k: v for k, v in variables.items() if v}}


def pg_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise BackupError(f"{name} is not installed (Debian: postgresql-client)")
    return path


def run_tool(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {done.stderr.strip()}")


def _pg_dump(db: dict, path: Path) -> None:
    env = pg_env(db)
    run_tool(
        [
            pg_tool("pg_dump"),
            "--format=custom",
            f"--lock-wait-timeout={LOCK_WAIT}",
            f"--file={path}",
        ],
        env,
    )
    # A dump pg_restore cannot list is no backup: read its table of contents back.
    run_tool([pg_tool("pg_restore"), "--list", str(path)], env)


# --- SQLite -----------------------------------------------------------------------------
def _sqlite_copy(path: Path) -> None:
    """The live database copied by SQLite's backup API, through Django's own connection
    (so an in-memory test database works too); writers wait only per batch of pages."""
    connection.ensure_connection()
    target = sqlite3.connect(path)
    try:
        connection.connection.backup(target)
        if target.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise BackupError("the copy does not pass SQLite's quick_check")
    finally:
        target.close()
