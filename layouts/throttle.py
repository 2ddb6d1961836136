"""The upload page's checks are rate-limited per address (a fixed window in the shared
cache, so every web process counts together): storing is limited by layouts/actions.py,
but a check runs the engine too (up to a few seconds on a layout it cannot settle), so
a script must not keep a web worker busy with them (docs/LAYOUTS.md §The one write path
and its limits)."""

from accounts.throttle import client_address, within_limit

CHECKS_PER_WINDOW = 60  # a person fixing a file checks a few times a minute at most
WINDOW_SECONDS = 10 * 60
KEY_PREFIX = "layout-check"


def may_check(request) -> bool:
    """Counts this check (or store); False once the address is over its limit."""
    key = f"{KEY_PREFIX}:{client_address(request)}"
    return within_limit(key, CHECKS_PER_WINDOW, WINDOW_SECONDS)
