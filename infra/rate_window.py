"""A fixed-window counter in the shared cache (Redis), so every web process counts
together: room creation (rooms/lobby/throttle.py) and layout checks (layouts/throttle.py)
are limited with it."""

from django.core.cache import cache


def within_limit(key: str, limit: int, window_seconds: int) -> bool:
    """Counts one more under `key`; False once the count passes `limit` in the window
    that started at the first count."""
    cache.add(key, 0, timeout=window_seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between add and incr
        cache.set(key, 1, timeout=window_seconds)
        count = 1
    return count <= limit
