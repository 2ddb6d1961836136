"""Why an action in a room was refused: the exceptions every rooms module raises, and a
socket message's refusal (rooms/core/messages.py) put in the player's words. Nothing was changed
when one is raised."""

from django.utils.translation import gettext as _

from rooms.core import messages


class RoomError(Exception):
    """A refused action. `message` is for the player; nothing was changed."""

    def __init__(self, message: str, code: str = "refused"):
        super().__init__(message)
        self.message, self.code = message, code


class RaceOver(RoomError):
    """The action came after the race's cut-off: refused, and the race gets closed."""


def refused_error(refused: messages.Refused) -> RoomError:
    """A message's refusal (rooms/core/messages.py), its detail in the player's language."""
    return RoomError(_(refused.text) % refused.params, refused.code)
