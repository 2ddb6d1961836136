"""PostgreSQL from a web process's event loop itself: psycopg's own async connections,
for the one statement that runs there instead of in a worker thread (a race's pair,
rooms/race/held_board.py; docs/ARCHITECTURE.md §The pair on the event loop).

The connections are made from Django's own settings for the database (its name, user,
host, options and type adapters), so a statement here reads and writes values as
Django's connection would, and reaches the test database in tests. Each statement runs
in autocommit: one statement, one round trip, durable when it returns
(`synchronous_commit` is the server's, never turned off here).

With connections kept (CONN_MAX_AGE > 0, the site's default) each event loop has a
`psycopg_pool.AsyncConnectionPool` of at most PAIR_DB_CONNECTIONS; with CONN_MAX_AGE 0
(the tests, as for Django's own connections) every statement opens a connection and
closes it, so none outlives its caller (pytest-django drops the test database at the
end). A statement that fails raises psycopg's own errors (`psycopg.OperationalError`
when the database is away); the pool then drops the broken connection.
"""

import asyncio
import contextlib
import weakref

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from psycopg_pool import AsyncConnectionPool

# While PostgreSQL is down no connection can be made: a statement waits this long for
# one, then fails (a pair is answered `unavailable`, as from a worker thread).
CONNECT_TIMEOUT_SECONDS = 2

APPLICATION_NAME = "mahjong pairs"  # how its connections show in pg_stat_activity
_pools: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> its pool


def available() -> bool:
    """Whether the site's database is PostgreSQL (SQLite has no async driver here)."""
    return connections[DEFAULT_DB_ALIAS].vendor == "postgresql"


async def rows(sql: str, params: list) -> list[tuple]:
    """Run one statement in a transaction of its own; its rows (none for a plain write)."""
    async with _connection() as connection:
        cursor = await connection.execute(sql, params, prepare=True)
        return await cursor.fetchall() if cursor.pgresult.status == _TUPLES_OK else []


_TUPLES_OK = psycopg.pq.ExecStatus.TUPLES_OK


@contextlib.asynccontextmanager
async def _connection():
    if _kept():
        async with (await _pool()).connection() as connection:
            yield connection
        return
    connection = await psycopg.AsyncConnection.connect(**_params(), autocommit=True)
    try:
        yield connection
    finally:
        await connection.close()


async def close() -> None:
    """Close this event loop's pool, if it has one (its connections end now)."""
    pool = _pools.pop(asyncio.get_running_loop(), None)
    if pool is not None:
        await pool.close()


def _kept() -> bool:
    return connections[DEFAULT_DB_ALIAS].settings_dict["CONN_MAX_AGE"] != 0


async def _pool() -> AsyncConnectionPool:
    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:
        # open() starts the pool's workers without waiting for a connection (nothing in
        # it suspends this task), so no other task finds the pool here before it is open.
        pool = AsyncConnectionPool(
            kwargs={**_params(), "autocommit": True, "application_name": APPLICATION_NAME},
            min_size=1,
            max_size=settings.PAIR_DB_CONNECTIONS,
            timeout=CONNECT_TIMEOUT_SECONDS,
            open=False,
            name="pairs",
        )
        _pools[loop] = pool
        await pool.open()
    return pool


def _params() -> dict:
    """Django's connection parameters for the database, less what only its own sync
    connection takes (its cursor class); prepared after the first use (the pair's one
    statement text, parsed and planned once per connection)."""
    params = connections[DEFAULT_DB_ALIAS].get_connection_params()
    params.pop("cursor_factory", None)
    params["prepare_threshold"] = 0
    params.setdefault("connect_timeout", CONNECT_TIMEOUT_SECONDS)
    return params
