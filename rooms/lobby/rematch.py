"""Another game in the same room: the ready check (docs/RULES.md §Races).

After a race the owner offers another game; each seated human says "Ready". The owner
starts it once everyone is ready, or once REMATCH_READY_SECONDS have passed since the
offer: then the humans who have not said Ready sit that race out (they watch it, no
stand-in CPU plays for them). CPU seats are always ready; a player who joins the room
is ready for its next race by joining. The first race of a room has no ready check.
"""

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import Player
from rooms.core.errors import RoomError
from rooms.core.room import lobby_changed, locked_room, no_race_running, owner_only
from rooms.models import Room, Seat


def is_ready(seat: Seat, next_number: int) -> bool:
    return seat.is_cpu or seat.ready_for >= next_number


@transaction.atomic
def offer_rematch(player: Player, code: str, now=None) -> Room:
    """The owner offers another game: the owner is ready, everyone else is asked."""
    room = locked_room(code)
    owner_only(room, player)
    no_race_running(room)
    number = room.next_race_number()
    if number == 1:
        raise RoomError(_("no race has been played here yet: just start one"), "no_race")
    if room.offer_at is None:
        room.offer_at = now or timezone.now()
        room.save(update_fields=["offer_at"])
    room.seats.filter(player=player).update(ready_for=number)
    lobby_changed(room)
    return room


@transaction.atomic
def say_ready(player: Player, code: str) -> Seat:
    """A seated human accepts the offered game."""
    room = locked_room(code)
    seat = room.seats.filter(player=player).first() if player is not None else None
    if seat is None:
        raise RoomError(_("you have no seat in this room"), "no_seat")
    no_race_running(room)
    if room.offer_at is None:
        raise RoomError(_("no other game is being offered"), "no_offer")
    seat.ready_for = room.next_race_number()
    seat.save(update_fields=["ready_for"])
    lobby_changed(room)
    return seat


def racers(room: Room, number: int, seats: list[Seat], now: datetime) -> list[Seat]:
    """The seats that race `number`, the room's next race (the caller holds the room's
    lock and starts it). RoomError when the ready check is still waiting for someone."""
    if number == 1 or room.ranked:
        return seats
    if room.offer_at is None:
        raise RoomError(_("offer another game first: each player says Ready"), "no_offer")
    waiting = [seat for seat in seats if not is_ready(seat, number)]
    left = room.offer_at + timedelta(seconds=settings.REMATCH_READY_SECONDS) - now
    if waiting and left.total_seconds() > 0:
        seconds = math.ceil(left.total_seconds())
        message = ngettext(
            "waiting for %(n)d player to say Ready (%(s)d s left)",
            "waiting for %(n)d players to say Ready (%(s)d s left)",
            len(waiting),
        ) % {"n": len(waiting), "s": seconds}
        raise RoomError(message, "not_ready")
    return [seat for seat in seats if is_ready(seat, number)]
