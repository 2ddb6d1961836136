"""Login throttling against password guessing, kept in Redis (the cache's server).

Failed logins are counted per username and per client address over a sliding window.
Past the limit, logins for that username (or from that address) are refused without
checking the password until the oldest failure leaves the window. The clock is
injectable so tests never sleep.
"""

import functools
import hashlib
import math
import time
import uuid
from dataclasses import dataclass

import redis
from django.conf import settings
from django.core.cache import cache
from django.utils.translation import ngettext

WINDOW_SECONDS = 15 * 60
MAX_FAILURES_PER_USERNAME = 5
# Higher: several people may share one address (a school, a mobile carrier's NAT).
MAX_FAILURES_PER_ADDRESS = 20


def client_address(request) -> str:
    """The browser's address, for throttles (see _address)."""
    return _address(request.META.get("HTTP_X_FORWARDED_FOR", ""), request.META.get("REMOTE_ADDR"))


def socket_address(scope) -> str:
    """The same for a websocket connection's ASGI scope ("" when the server gave none)."""
    forwarded = dict(scope.get("headers") or ()).get(b"x-forwarded-for", b"")
    client = scope.get("client") or ("",)
    return _address(forwarded.decode("latin-1"), client[0])


def _address(forwarded: str, remote: str | None) -> str:
    """Behind the TLS proxy, the last X-Forwarded-For entry, the one the proxy itself
    added: earlier entries are whatever the client sent, and uvicorn's --proxy-headers
    puts the first one in REMOTE_ADDR (and in a socket's scope)."""
    if settings.BEHIND_TLS_PROXY and forwarded:
        return forwarded.split(",")[-1].strip()
    return remote or ""


def within_limit(key: str, limit: int, window_seconds: int) -> bool:
    """Counts one more under `key` in the shared cache (Redis: `INCR` is atomic, so
    requests sent at once are counted as they come); False once the count passes
    `limit` in the window that started at the first count."""
    cache.add(key, 0, timeout=window_seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between add and incr
        cache.set(key, 1, timeout=window_seconds)
        count = 1
    return count <= limit


def hashed(text: str) -> str:
    """A key part for any text (an e-mail address, a username), case folded."""
    return hashlib.sha256(text.strip().casefold().encode()).hexdigest()


@dataclass
class Refusal:
    retry_after_seconds: int

    @property
    def message(self) -> str:
        minutes = math.ceil(self.retry_after_seconds / 60)
        return ngettext(
            "Too many failed sign-in attempts. Try again in %(n)d minute.",
            "Too many failed sign-in attempts. Try again in %(n)d minutes.",
            minutes,
        ) % {"n": minutes}


# One attempt claimed in one step, for the username and the address together: the
# failures still in the window are counted (older ones dropped) and, if both are under
# their limits, this attempt is added as a failure until it succeeds. 0, or the seconds
# until the first key that blocks frees a place. KEYS: the keys; ARGV: now, the window,
# the attempt's member, then each key's limit.
_CLAIM = """
local now, window, member = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local wait = 0
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local limit = tonumber(ARGV[3 + i])
  if redis.call('ZCARD', key) >= limit then
    local blocking = redis.call('ZRANGE', key, -limit, -limit, 'WITHSCORES')
    wait = math.max(wait, tonumber(blocking[2]) + window - now)
  end
end
if wait > 0 then return tostring(wait) end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, member)
  redis.call('EXPIRE', key, math.ceil(window))
end
return '0'
"""


@dataclass
class Attempt:
    """A login attempt let through: counted as a failure until `succeeded` says not."""

    username: str
    address: str
    member: str


class LoginThrottle:
    """Failures per username and per address in Redis sorted sets (a failure's time is
    its score). An attempt is claimed before its password is checked, in one script, so
    attempts sent at once are counted as they come: 16 wrong passwords for one username
    sent together are checked 5 times, not 16."""

    def __init__(self, prefix: str = "", clock=time.time, url: str | None = None):
        self.prefix, self.clock, self.url = prefix, clock, url

    def claim(self, username: str, address: str) -> Attempt | Refusal:
        """This attempt, counted; or why it must be refused now (nothing counted)."""
        member = f"{self.clock()!r}:{uuid.uuid4().hex}"
        keys, limits = self._keys(username, address)
        args = [self.clock(), WINDOW_SECONDS, member, *limits]
        wait = float(self._script(keys=keys, args=args))
        if wait > 0:
            return Refusal(math.ceil(wait))
        return Attempt(username, address, member)

    def succeeded(self, attempt: Attempt) -> None:
        # The username's failures go; the address's stay (a guesser must not reset them
        # by signing in to an account of their own), less this attempt, which was none.
        keys, _limits = self._keys(attempt.username, attempt.address)
        client = self._client()
        client.delete(keys[0])
        for key in keys[1:]:
            client.zrem(key, attempt.member)

    def _keys(self, username, address) -> tuple[list[str], list[int]]:
        keys, limits = [self._username_key(username)], [MAX_FAILURES_PER_USERNAME]
        if address:
            keys.append(f"{self.prefix}login-fail:addr:{address}")
            limits.append(MAX_FAILURES_PER_ADDRESS)
        return keys, limits

    def _username_key(self, username: str) -> str:
        # "Bob" and "bob" share a count; hashed, so any text makes a valid key.
        return f"{self.prefix}login-fail:user:{hashed(username)}"

    def _script(self, keys, args):
        return _claim_script(self.url or settings.REDIS_URL)(keys=keys, args=args)

    def _client(self) -> redis.Redis:
        return _client(self.url or settings.REDIS_URL)


@functools.cache
def _client(url: str) -> redis.Redis:
    """The throttle's own Redis link (the cache's server), with short timeouts: a sign-in
    should fail fast, not hang, when Redis is away (docs/OPERATIONS.md §Redis connections
    gives the values of the site's other links)."""
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1.5)


@functools.cache
def _claim_script(url: str):
    return _client(url).register_script(_CLAIM)
