"""Per device and per address limits on creating rooms and arenas, with the fixed-window
counter of accounts/throttle.py (`within_limit`, in the shared cache: every web process
counts together); layout checks (layouts/throttle.py) and sign-ups and reset mails
(accounts/views.py) use that counter too."""

from django.conf import settings

from accounts.throttle import client_address, within_limit


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
