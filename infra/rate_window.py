"""A fixed-window counter in the shared cache (Redis), so every web process counts
together: room and arena creation (`device_and_address_within`) and layout checks
(layouts/throttle.py) are limited with it."""

from django.core.cache import cache

from accounts.throttle import client_address


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


def device_and_address_within(
    request, player, *, prefix: str, per_device: int, per_address: int, window_seconds: int
) -> bool:
    """Counts this attempt for the device and for its address; False once either is over
    its limit. An address has the higher limit: a household or a school shares one.
    (`&`, not `and`: both are counted even when the first refuses.)"""
    device = within_limit(f"{prefix}:device:{player.pk}", per_device, window_seconds)
    address = f"{prefix}:address:{client_address(request)}"
    return device & within_limit(address, per_address, window_seconds)
