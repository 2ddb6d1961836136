"""A fixed-window counter in the shared cache (Redis), so every web process counts
together: room and arena creation (`device_and_address_within`) and layout checks
(layouts/throttle.py) are limited with it."""

from django.conf import settings
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


def device_and_address_within(request, player, limits: str) -> bool:
    """Counts this attempt for the device and for its address; False once either is over
    its limit. `limits` names a family of settings: `<limits>_PER_DEVICE`,
    `<limits>_PER_ADDRESS` (higher: a household or a school shares one address),
    `<limits>_WINDOW_SECONDS` and `<limits>_KEY_PREFIX` (e.g. "ROOM_CREATE").
    (`&`, not `and`: both are counted even when the first refuses.)"""
    prefix, window = _setting(limits, "KEY_PREFIX"), _setting(limits, "WINDOW_SECONDS")
    device = within_limit(f"{prefix}:device:{player.pk}", _setting(limits, "PER_DEVICE"), window)
    address = f"{prefix}:address:{client_address(request)}"
    return device & within_limit(address, _setting(limits, "PER_ADDRESS"), window)


def _setting(limits: str, name: str):
    return getattr(settings, f"{limits}_{name}")
