"""Database work for the sockets, run in the event loop's worker threads.

Like channels' database_sync_to_async (old connections closed before and after each
call), with one difference: Django's health check (a `SELECT 1` round trip before the
first query of every call) is skipped when this thread's connection answered a call
less than HEALTH_CHECK_AFTER_IDLE_SECONDS ago. Under load every pair is such a call, and
the check was one of its six round trips. A connection that broke meanwhile (the
database restarted within those seconds) fails that one call, which is answered
`unavailable` and stores nothing; Django then closes it, and the next call reconnects.
"""

import threading
import time

from asgiref.sync import SyncToAsync
from django.db import close_old_connections, connection

HEALTH_CHECK_AFTER_IDLE_SECONDS = 5.0
_last_answer = threading.local()  # monotonic time of this thread's last call that worked


class _SocketDatabaseSyncToAsync(SyncToAsync):
    def thread_handler(self, loop, *args, **kwargs):
        close_old_connections()
        if _answered_lately():
            connection.health_check_done = True  # Django's own flag: checked already
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            if connection.connection is not None and not connection.errors_occurred:
                _last_answer.at = time.monotonic()
            close_old_connections()


def _answered_lately() -> bool:
    at = getattr(_last_answer, "at", None)
    return at is not None and time.monotonic() - at < HEALTH_CHECK_AFTER_IDLE_SECONDS


def in_db_thread(function):
    """`function` as a coroutine run in one of the loop's worker threads (not the one
    thread channels shares by default): sockets of different rooms wait for the
    database side by side, each room's row lock still ordering its own actions."""
    return _SocketDatabaseSyncToAsync(function, thread_sensitive=False)
