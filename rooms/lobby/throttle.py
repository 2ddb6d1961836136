"""Room creation is rate-limited per device and per address (a fixed window in the
shared cache, so every web process counts together): a script cannot fill the database
with rooms, and a household or school behind one address still can play."""

from django.conf import settings

from accounts.throttle import client_address
from infra.rate_window import within_limit


def may_create_room(request, player) -> bool:
    """Counts this attempt; False once the device or the address is over its limit.
    (`&`, not `and`: both are counted even when the first refuses.)"""
    return _count(f"device:{player.pk}", settings.ROOM_CREATE_PER_DEVICE) & _count(
        f"address:{client_address(request)}", settings.ROOM_CREATE_PER_ADDRESS
    )


def _count(who: str, limit: int) -> bool:
    key = f"{settings.ROOM_CREATE_KEY_PREFIX}:{who}"
    return within_limit(key, limit, settings.ROOM_CREATE_WINDOW_SECONDS)
