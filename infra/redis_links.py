"""How every Redis connection of the site is opened: the channel layer's, the cache's,
Celery's broker and our own clients (docs/OPERATIONS.md §Redis connections).

Without these, redis-py waits forever: a link cut without a word (a partition, a NAT
entry dropped) left a web process's layer connection hanging until TCP's retransmission
back-off happened to try again, 12 s after a 15 s cut healed (docs/SCALING.md, drill 5);
and a connection whose server was restarted failed the first command sent on it, once,
with nothing to try again (channels-redis builds its pools itself, and a redis-py
connection made from a pool has no retry). The values:

- CONNECT_TIMEOUT_SECONDS 1: a TCP connect on a LAN takes well under a millisecond; a
  SYN lost is resent only after 1 s, so past that a fresh attempt is the faster way.
- COMMAND_TIMEOUT_SECONDS 1.5: every command of ours is a sub-millisecond key operation
  or PUBLISH (Redis used 0.1 ms of CPU a pair); the 2,000-player run saturated this
  machine's cores with acks at p99 0.8 s, so 1.5 s is past any honest wait yet short
  enough that a dead link is given up, and a new one opened, within the 3 s promised
  for a healed link. (The layer's subscriber polls with a read timeout of its own,
  0.1 s. Celery's broker gets BROKER_COMMAND_TIMEOUT_SECONDS: its BRPOP waits up to
  1 s for a task by design, and a reply cut short by a timeout would lose the task it
  popped; kombu's health check finds a dead BRPOP link instead.)
- HEALTH_CHECK_SECONDS 2: a pooled connection idle longer than this is PINGed before
  use, so a command is not the one to find that its server went away meanwhile.
- one retry on ConnectionError only: a server restarted or replaced closed the old
  connection, so the command never reached it and is sent again on a fresh one. Not on
  a timeout: the command may have arrived (a PUBLISH twice), and waiting twice helps
  nobody.
- a write on a link the kernel already ended is a ConnectionError: uvloop (the web
  server's event loop) raises RuntimeError ("the handler is closed") when asked to write
  on a transport a reset or a keepalive timeout closed under the idle connection, where
  asyncio's own loop lets the next read find the error; redis-py retries and
  health-checks on ConnectionError only, so the command was lost: an event unsent after
  a partition healed (docs/SCALING.md §A night of chaos). `_ClosedLinkIsDropped` turns it
  into the ConnectionError it is, and the retry sends the command on a fresh link.
- TCP keepalive (idle 5 s, then 1 s apart, 3 probes) and TCP_USER_TIMEOUT 5 s: the
  kernel's own backstop on a real network, which ends a connection whose peer vanished
  (keepalive, when idle) or whose data stays unacknowledged (user timeout, when not)
  within seconds instead of the defaults' two hours and fifteen minutes.
"""

import socket

import redis.asyncio.connection
import redis.asyncio.retry
import redis.retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

CONNECT_TIMEOUT_SECONDS = 1.0
COMMAND_TIMEOUT_SECONDS = 1.5
BROKER_COMMAND_TIMEOUT_SECONDS = 5.0
HEALTH_CHECK_SECONDS = 2
RETRIES_ON_A_DROPPED_LINK = 1
ASYNC_POOL_CONNECTIONS = 50  # per web process's event loop; commands queue past it
KEEPALIVE_OPTIONS = {
    option: value
    for option, value in (
        (getattr(socket, "TCP_KEEPIDLE", None), 5),
        (getattr(socket, "TCP_KEEPINTVL", None), 1),
        (getattr(socket, "TCP_KEEPCNT", None), 3),
        (getattr(socket, "TCP_USER_TIMEOUT", None), 5000),  # ms
    )
    if option is not None  # Linux has them all; other systems keep their defaults
}


def _is_tcp(url: str) -> bool:
    """A Unix socket (the embedded Redis) has no TCP options, and redis-py refuses them."""
    return not url.startswith(("unix://", "redis+socket://"))


def timeouts(url: str, command_timeout: float = COMMAND_TIMEOUT_SECONDS) -> dict:
    """Timeouts, health check and keepalive: keyword arguments of any redis-py client,
    connection pool or kombu transport."""
    options = {
        "socket_connect_timeout": CONNECT_TIMEOUT_SECONDS,
        "socket_timeout": command_timeout,
        "health_check_interval": HEALTH_CHECK_SECONDS,
    }
    if _is_tcp(url):
        options |= {"socket_keepalive": True, "socket_keepalive_options": KEEPALIVE_OPTIONS}
    return options


def sync_options(url: str) -> dict:
    """For a synchronous client or pool made from a URL (Django's cache, our clients):
    also the retry, which a pool's connections otherwise lack."""
    retry = redis.retry.Retry(NoBackoff(), RETRIES_ON_A_DROPPED_LINK, (RedisConnectionError,))
    return timeouts(url) | {"retry": retry}


class _ClosedLinkIsDropped:
    """A write on a transport uvloop has closed raises a ConnectionError, not uvloop's
    RuntimeError, after dropping the connection (as redis-py does for a failed write)."""

    async def _send_packed_command(self, command) -> None:
        try:
            await super()._send_packed_command(command)
        except RuntimeError as error:
            if "closed" not in str(error):
                raise
            await self.disconnect(nowait=True)
            raise RedisConnectionError(f"the link was already closed: {error}") from None


class Connection(_ClosedLinkIsDropped, redis.asyncio.connection.Connection):
    """A TCP connection (redis://) that knows a closed link when it writes on one."""


def async_options(url: str) -> dict:
    retry = redis.asyncio.retry.Retry(
        NoBackoff(), RETRIES_ON_A_DROPPED_LINK, (RedisConnectionError,)
    )
    options = timeouts(url) | {"retry": retry}
    # redis-py's from_url puts its own class for unix:// and rediss:// over any given;
    # redis:// (every deployment here) takes ours.
    if url.startswith("redis://"):
        options["connection_class"] = Connection
    return options


def layer_host(url: str) -> dict:
    """One shard of the channel layer, as channels-redis takes it: the address and the
    keyword arguments of its asyncio connection pool."""
    return {"address": url, **async_options(url)}


def client(url: str, command_timeout: float = COMMAND_TIMEOUT_SECONDS) -> redis.Redis:
    """A synchronous client of our own (health checks, heartbeats)."""
    return redis.Redis.from_url(url, **sync_options(url) | {"socket_timeout": command_timeout})


def async_client(url: str) -> redis.asyncio.Redis:
    """An asyncio client of our own (one per event loop: infra/redis_async.py). Its pool
    makes a command wait for a free connection rather than fail: redis-py's plain pool
    raises MaxConnectionsError past its 100, and 200 sockets of an arena's race closing
    at once each gave their lease back at the same moment (bench/arena_load.py)."""
    pool = redis.asyncio.BlockingConnectionPool.from_url(
        url,
        max_connections=ASYNC_POOL_CONNECTIONS,
        timeout=COMMAND_TIMEOUT_SECONDS,  # no free connection so long: a ConnectionError
        **async_options(url),
    )
    return redis.asyncio.Redis(connection_pool=pool)
