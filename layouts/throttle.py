"""The upload page's checks are rate-limited per address (a fixed window in the shared
cache, so every web process counts together): storing is limited by layouts/actions.py,
but a check runs the engine too (up to a few seconds on a layout it cannot settle), so
a script must not keep a web worker busy with them (docs/LAYOUTS.md §The one write path
and its limits)."""

from django.core.cache import cache

from accounts.throttle import client_address

CHECKS_PER_WINDOW = 60  # a person fixing a file checks a few times a minute at most
WINDOW_SECONDS = 10 * 60
KEY_PREFIX = "layout-check"


def may_check(request) -> bool:
    """Counts this check (or store); False once the address is over its limit."""
    key = f"{KEY_PREFIX}:{client_address(request)}"
    cache.add(key, 0, timeout=WINDOW_SECONDS)  # the window starts at the first check
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between add and incr
        cache.set(key, 1, timeout=WINDOW_SECONDS)
        count = 1
    return count <= CHECKS_PER_WINDOW
