"""The sockets' database calls (rooms/live/socket_db.py): a connection that answered lately
is trusted without Django's `SELECT 1` health check; an idle one is checked, so a
connection the database dropped meanwhile is replaced before it is used."""

import asyncio

import pytest
from django.db import OperationalError, connection, connections
from django.test import override_settings

from rooms.live import socket_db
from rooms.live.socket_db import in_db_thread

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def kept_connections():
    """Connections kept between calls, as on the site (the tests' own setting closes
    them after every call, and then there is nothing to check)."""
    settings_dict = connections["default"].settings_dict
    saved = settings_dict["CONN_MAX_AGE"]
    settings_dict["CONN_MAX_AGE"] = 600
    yield
    settings_dict["CONN_MAX_AGE"] = saved


def _in_one_worker_thread(*calls):
    """Run the calls one after another through in_db_thread, all in one worker thread
    (as a busy socket's calls often are); their results or exceptions, in order. A
    number instead of a call is a pause of that many seconds between calls."""

    async def run():
        results = []
        for call in calls:
            if isinstance(call, float):
                await asyncio.sleep(call)
                continue
            try:
                results.append(await in_db_thread(call)())
            except Exception as error:  # noqa: BLE001 - the test compares what happened
                results.append(error)
        await in_db_thread(lambda: connection.close())()  # not left open past the test
        return results

    with override_settings(SOCKET_DB_THREADS=1):  # this new loop's lane: one thread
        return asyncio.run(run())


def _backend_pid():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_backend_pid()" if connection.vendor == "postgresql" else "SELECT 1"
        )
        return cursor.fetchone()[0]


def _check_pending():
    """Would Django health-check this connection before its next query?"""
    return connection.health_check_enabled and not connection.health_check_done


IDLE = 0.3  # seconds after which a connection is checked again, in these tests


@pytest.fixture(autouse=True)
def short_idle(monkeypatch):
    monkeypatch.setattr(socket_db, "HEALTH_CHECK_AFTER_IDLE_SECONDS", IDLE)


def test_a_connection_that_answered_lately_skips_the_health_check():
    pid, pending, again = _in_one_worker_thread(_backend_pid, _check_pending, _backend_pid)
    assert pending is False and again == pid  # the same connection, not checked again


def test_an_idle_connection_is_checked_again():
    pid, pending, again = _in_one_worker_thread(
        _backend_pid, IDLE + 0.1, _check_pending, _backend_pid
    )
    assert pending is True and again == pid  # checked, found sound, kept


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL drops a connection")
def test_a_dropped_connection_costs_one_call_when_recent_and_none_when_idle():
    pid = []

    def remember():
        pid.append(_backend_pid())

    def drop():  # by PostgreSQL's own hand, from another connection
        other = connections.create_connection("default")
        try:
            with other.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(%s)", [pid[0]])
        finally:
            other.close()

    recent = _in_one_worker_thread(remember, drop, _backend_pid, _backend_pid)
    assert isinstance(recent[2], OperationalError)  # used unchecked: that call fails
    assert isinstance(recent[3], int) and recent[3] != pid[0]  # the next one reconnects
    pid.clear()
    idle = _in_one_worker_thread(remember, drop, IDLE + 0.1, _backend_pid)
    assert isinstance(idle[2], int) and idle[2] != pid[0]  # checked first: no failure
