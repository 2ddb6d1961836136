"""Restoring a backup of infra/backups.py (docs/OPERATIONS.md §Backups, step by step).

A dump goes back into an empty database of its own kind: a `.dump` into PostgreSQL
(`pg_restore` in one transaction, so a failed restore leaves the database empty, not
half filled), a `.sqlite3` into SQLite (the online backup API the other way round). A
database that has tables is refused unless `replace` is asked for, and then only with
no other session connected to it: the site must be stopped first.
"""

import sqlite3
import time
from pathlib import Path

import dj_database_url
from django.db import connection

from infra.backups import BackupError, pg_env, pg_tool, run_tool

ENGINES = {".dump": "postgresql", ".sqlite3": "sqlite3"}


def target_settings(database_url: str | None) -> dict:
    """The database to restore into: the site's own, or the one `database_url` names."""
    return dj_database_url.parse(database_url) if database_url else connection.settings_dict


def restore(path: Path, database_url: str | None = None, replace: bool = False) -> str:
    """Restore the backup at `path`; a line saying what was restored where, how fast."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"no backup at {path}")
    db = target_settings(database_url)
    engine = db["ENGINE"].rsplit(".", 1)[-1]
    wanted = ENGINES.get(path.suffix)
    if wanted is None:
        raise BackupError(f"{path.name} is not a backup (.dump or .sqlite3)")
    if engine != wanted:
        raise BackupError(f"a {path.suffix} backup restores into {wanted}, not {engine}")
    started = time.monotonic()
    if engine == "postgresql":
        where = _pg_restore(path, db, replace)
    else:
        where = _sqlite_restore(path, db, replace, own=database_url is None)
    return f"restored {path} into {where} in {time.monotonic() - started:.2f} s"


def _refuse_unless_empty(tables: int, where: str, replace: bool) -> None:
    if tables and not replace:
        raise BackupError(
            f"{where} already has {tables} tables: restore into an empty database,"
            " or pass --replace (the site stopped) to drop them first"
        )


# --- PostgreSQL -------------------------------------------------------------------------
def pg_connect(db: dict):
    import psycopg  # only where PostgreSQL is used

    params = {
        "dbname": db["NAME"],
        "user": db.get("USER"),
        "password": db.get("PASSWORD"),
        "host": db.get("HOST"),
        "port": db.get("PORT"),
        "connect_timeout": 10,
    }
    return psycopg.connect(autocommit=True, **{k: v for k, v in params.items() if v})


def _pg_restore(path: Path, db: dict, replace: bool) -> str:
    where = f"database {db['NAME']} on {db.get('HOST') or 'localhost'}:{db.get('PORT') or 5432}"
    with pg_connect(db) as conn:
        (tables,) = conn.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
        ).fetchone()
        _refuse_unless_empty(tables, where, replace)
        if tables:
            (others,) = conn.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchone()
            if others:
                raise BackupError(
                    f"{others} other sessions use {where}: stop the web processes,"
                    " the workers and the scheduler first"
                )
            conn.execute("DROP SCHEMA public CASCADE")
            conn.execute("CREATE SCHEMA public")
    run_tool(
        [
            pg_tool("pg_restore"),
            "--no-owner",
            "--no-privileges",
            "--single-transaction",
            "--exit-on-error",
            f"--dbname={db['NAME']}",
            str(path),
        ],
        pg_env(db),
    )
    # pg_restore brings rows back, not the planner's statistics: gather them now rather
    # than let the first hour of races run on guesses until autovacuum gets there.
    with pg_connect(db) as conn:
        conn.execute("ANALYZE")
    return where


# --- SQLite -----------------------------------------------------------------------------
def _sqlite_restore(path: Path, db: dict, replace: bool, own: bool) -> str:
    """Into the site's database through Django's connection (`own`), or into the file
    a URL names."""
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    if own:
        connection.ensure_connection()
        target = connection.connection
    else:
        target = sqlite3.connect(db["NAME"])
    try:
        (tables,) = target.execute(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        ).fetchone()
        where = f"SQLite {db['NAME']}"
        _refuse_unless_empty(tables, where, replace)
        source.backup(target)
    finally:
        source.close()
        if not own:
            target.close()
    return where
