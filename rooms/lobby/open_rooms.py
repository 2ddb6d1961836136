"""The open rooms: public rooms in their lobby, listed on /rooms/ for anyone to join
(docs/RULES.md §Races). Read only; the owner's switch is rooms.lobby.actions.set_public.

One query serves the page and its JSON (/rooms/open.json), so both list the same rooms.
"""

from datetime import timedelta

from django.db.models import Count, Exists, OuterRef, Q, Subquery
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from layouts import library
from mahjong.rules import MAX_SEATS, Level
from rooms.models import Race, Room, Seat

OPEN_ROOMS_LIMIT = 50
PRESENT = timedelta(minutes=2)  # a room nobody has had open this long is not listed


def open_rooms(limit: int = OPEN_ROOMS_LIMIT) -> list[dict]:
    """Public rooms in their lobby (no race running, a seat free, not ranked), newest
    first, at most `limit`: what a list shows of each, its words in the active language."""
    now = timezone.now()
    running = Race.objects.filter(room=OuterRef("pk"), status=Race.Status.RUNNING)
    owner_seat = Seat.objects.filter(room=OuterRef("pk"), player_id=OuterRef("owner_id"))
    # Someone has it open (pages ping every 15 s), or it was just made: an abandoned
    # room leaves the list by itself.
    present = Seat.objects.filter(room=OuterRef("pk"), last_seen_at__gte=now - PRESENT)
    rooms = (
        Room.objects.filter(public=True, ranked=False)
        .filter(~Exists(running))
        .filter(Q(created_at__gte=now - PRESENT) | Exists(present))
        .annotate(
            taken=Count("seats"),
            cpus=Count("seats", filter=~Q(seats__cpu_level="")),
            owner_nickname=Subquery(owner_seat.values("nickname")[:1]),
        )
        .filter(taken__lt=MAX_SEATS)
        .select_related("owner")
        .order_by("-created_at", "-pk")[:limit]
    )
    return [_row(room) for room in rooms]


def _row(room: Room) -> dict:
    owner = room.owner_nickname or room.owner.display_name
    return {
        "code": room.code,
        "owner": owner,
        "level": room.level,
        # A room racing on a chosen layout shows its name where others show their level.
        "level_label": _level_or_layout(room),
        "seats": room.taken,
        "humans": room.taken - room.cpus,
        "cpus": room.cpus,
        "max_seats": MAX_SEATS,
        "seats_label": seats_label(room.taken - room.cpus, room.cpus),
        "rules": {
            "flowers": room.flowers,
            "time_limit_minutes": room.time_limit_minutes,
            "hints": room.hints,
            "shuffles": room.shuffles,
        },
        "summary": rules_summary(room),
        "url": reverse("room", args=[room.code]),
        "join_label": _("Join %(owner)s's room") % {"owner": owner},
    }


def seats_label(humans: int, cpus: int) -> str:
    """ "2/20 players · 2 CPUs": the players are humans, and CPUs take seats of the 20 too."""
    players = _("%(taken)d/%(max)d players") % {"taken": humans, "max": MAX_SEATS}
    if not cpus:
        return players
    return f"{players} · " + ngettext("%(n)d CPU", "%(n)d CPUs", cpus) % {"n": cpus}


def _level_or_layout(room: Room) -> str:
    if room.layout:
        return library.title_of(room.layout, get_language()) or room.layout
    return str(Level(room.level).label)


def rules_summary(room: Room) -> str:
    """A short line of the rules that change the race most: "Flowers off · 10 min ·
    3 hints · 3 shuffles"."""
    parts = [
        _("Flowers on") if room.flowers else _("Flowers off"),
        _("%(minutes)d min") % {"minutes": room.time_limit_minutes},
        ngettext("%(n)d hint", "%(n)d hints", room.hints) % {"n": room.hints},
        ngettext("%(n)d shuffle", "%(n)d shuffles", room.shuffles) % {"n": room.shuffles},
    ]
    return " · ".join(parts)
