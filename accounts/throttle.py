"""Login throttling against password guessing, kept in the shared cache (Redis).

Failed logins are counted per username and per client address over a sliding window.
Past the limit, logins for that username (or from that address) are refused without
checking the password until the oldest failure leaves the window. The clock is
injectable so tests never sleep.
"""

import hashlib
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache as default_cache
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


class LoginThrottle:
    def __init__(self, cache=None, clock=time.time):
        self.cache = cache or default_cache
        self.clock = clock

    def refusal(self, username: str, address: str) -> Refusal | None:
        """Why a login must be refused now, or None when it may be tried."""
        waits = [
            self._wait(key, limit)
            for key, limit in self._keys(username, address)
            if key is not None
        ]
        wait = max(waits, default=0)
        return Refusal(wait) if wait > 0 else None

    def failed(self, username: str, address: str) -> None:
        now = self.clock()
        for key, _ in self._keys(username, address):
            if key is not None:
                recent = self._recent(key, now)
                self.cache.set(key, [*recent, now], timeout=WINDOW_SECONDS)

    def succeeded(self, username: str) -> None:
        # The address count stays: a guesser must not reset it by signing in to an
        # account of their own.
        self.cache.delete(self._username_key(username))

    def _keys(self, username, address):
        return [
            (self._username_key(username), MAX_FAILURES_PER_USERNAME),
            (f"login-fail:addr:{address}" if address else None, MAX_FAILURES_PER_ADDRESS),
        ]

    @staticmethod
    def _username_key(username: str) -> str:
        # "Bob" and "bob" share a count; hashed, so any text makes a valid cache key.
        digest = hashlib.sha256(username.strip().casefold().encode()).hexdigest()
        return f"login-fail:user:{digest}"

    def _recent(self, key: str, now: float) -> list[float]:
        return [t for t in self.cache.get(key, []) if now - t < WINDOW_SECONDS]

    def _wait(self, key: str, limit: int) -> int:
        now = self.clock()
        recent = self._recent(key, now)
        if len(recent) < limit:
            return 0
        # Free again when enough failures have left the window to go under the limit.
        oldest_that_blocks = sorted(recent)[-limit]
        return math.ceil(oldest_that_blocks + WINDOW_SECONDS - now)
