"""The upload page's and the editor's checks are rate-limited per address (a fixed window
in the shared cache, so every web process counts together): a check runs the engine (up
to a few seconds on a layout it cannot settle), so a script must not keep a web worker
busy with them; and what one address may store is a small share of the site's hourly
quota, which layouts/actions.py keeps with the per-player limits (docs/LAYOUTS.md §The
one write path and its limits)."""

from django.utils.translation import gettext_lazy

from accounts.throttle import client_address, within_limit

CHECKS_PER_WINDOW = 60  # a person fixing a file checks a few times a minute at most
WINDOW_SECONDS = 10 * 60
KEY_PREFIX = "layout-check"
# New layouts one address may store an hour, however many devices (fresh cookies) it
# uses: 4% of the whole site's hourly quota (layouts/actions.py MAX_SITE_PER_WINDOW), so
# one script cannot use the quota up for everyone else.
STORES_PER_WINDOW = 20
STORE_WINDOW_SECONDS = 60 * 60
STORED_ENOUGH = gettext_lazy(
    "Many layouts were stored from your network this hour: try again later."
)


def may_check(request) -> bool:
    """Counts this check (or store); False once the address is over its limit."""
    key = f"{KEY_PREFIX}:{client_address(request)}"
    return within_limit(key, CHECKS_PER_WINDOW, WINDOW_SECONDS)


def may_store(request) -> bool:
    """Counts this store; False once the address stored its share this hour."""
    key = f"{KEY_PREFIX}:store:{client_address(request)}"
    return within_limit(key, STORES_PER_WINDOW, STORE_WINDOW_SECONDS)
