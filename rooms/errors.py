"""Why an action in a room was refused: the exceptions every rooms module raises, and the
check of a message's whole numbers. Nothing was changed when one is raised."""

from django.utils.translation import gettext as _


class RoomError(Exception):
    """A refused action. `message` is for the player; nothing was changed."""

    def __init__(self, message: str, code: str = "refused"):
        super().__init__(message)
        self.message, self.code = message, code


class RaceOver(RoomError):
    """The action came after the race's cut-off: refused, and the race gets closed."""


def whole_number(value, what: str) -> int:
    """`value` when it is a whole number (not a bool); RoomError "bad_message" otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RoomError(
            _("%(what)s must be a whole number, not %(value)r") % {"what": what, "value": value},
            "bad_message",
        )
    return value
