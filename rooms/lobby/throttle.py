"""Room creation is rate-limited per device and per address (a fixed window in the
shared cache, so every web process counts together): a script cannot fill the database
with rooms, and a household or school behind one address still can play."""

from infra.rate_window import device_and_address_within


def may_create_room(request, player) -> bool:
    """Counts this attempt; False once the device or the address is over its limit."""
    return device_and_address_within(request, player, "ROOM_CREATE")
