"""Every write to a room before and between races: creating and joining it, its local
rules, its seats (humans and CPUs), presence, ranked rooms, and the seats' move when a
device's player is merged into an account's.

Joining, the rules and the seats of an existing room change in a transaction that first
locks the room row (`locked_room`), so a room's actions happen one at a time in a single
order (docs/ARCHITECTURE.md §One sequential owner per room), and each announces its
change only after its transaction commits (docs/ARCHITECTURE.md §One write path).
"""

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import actions as accounts_actions
from accounts.models import Player
from layouts import library
from rooms import events, hot_sql
from rooms.errors import RoomError, whole_number
from rooms.models import (
    MAX_SEATS,
    RULE_FIELDS,
    CpuLevel,
    Race,
    Room,
    Seat,
    SiteDefaults,
    room_code,
)


def locked_room(code: str) -> Room:
    """The room, its row locked until the transaction commits."""
    room = hot_sql.lock_room(room_code(code))
    if room is None:
        raise RoomError(_("no room has this code"), "no_room")
    return room


def advance_version(room: Room) -> int:
    """The room's next event version, stored (the caller holds the room's lock): every
    event sent to its sockets carries one (docs/ARCHITECTURE.md §Versioned events)."""
    Room.objects.filter(pk=room.pk).update(version=F("version") + 1)
    room.refresh_from_db(fields=["version"])
    return room.version


def lobby_changed(room: Room) -> None:
    events.publish_lobby(room, advance_version(room))


def clean_nickname(text) -> str:
    """The nickname by the site's one rule (accounts.actions.clean_nickname), refused as
    a room action is; accounts.actions.set_nickname stores it."""
    try:
        return accounts_actions.clean_nickname(text)
    except accounts_actions.NicknameError as refused:
        raise RoomError(str(refused), "bad_nickname") from None


# --- rooms and seats -----------------------------------------------------------------
@transaction.atomic
def create_room(player: Player, nickname) -> Room:
    nickname = clean_nickname(nickname)
    accounts_actions.set_nickname(player, nickname)
    room = _new_room(player)
    Seat.objects.create(room=room, player=player, nickname=nickname)
    return room


def _new_room(owner: Player) -> Room:
    for _attempt in range(10):
        try:
            with transaction.atomic():
                return Room.objects.create(owner=owner, **SiteDefaults.load().rules())
        except IntegrityError:  # the random code was taken: draw another
            continue
    raise RoomError(_("could not find a free room code; try again"))


@transaction.atomic
def join_room(player: Player, code: str, nickname) -> Seat:
    room = locked_room(code)
    seat = room.seats.filter(player=player).first()
    if seat is not None:
        return seat
    if room.ranked:
        raise RoomError(_("ranked races are joined from the queue at /ranked/"), "ranked")
    nickname = clean_nickname(nickname)
    if room.seats.count() >= MAX_SEATS:
        raise RoomError(_("this room is full (%(n)d seats)") % {"n": MAX_SEATS}, "room_full")
    accounts_actions.set_nickname(player, nickname)
    # Joining says "Ready" for the room's next race (rooms/rematch.py).
    ready_for = room.next_race_number()
    seat = Seat.objects.create(room=room, player=player, nickname=nickname, ready_for=ready_for)
    lobby_changed(room)
    return seat


def owner_only(room: Room, player: Player | None) -> None:
    if room.ranked:
        raise RoomError(_("a ranked room's rules and seats are fixed"), "ranked")
    if player is None or room.owner_id != player.pk:
        raise RoomError(_("only the room's owner can do that"), "not_owner")


def no_race_running(room: Room) -> None:
    race = room.current_race()
    if race is not None and race.status == Race.Status.RUNNING:
        raise RoomError(_("not while a race is running"), "race_running")


@transaction.atomic
def update_rules(player: Player, code: str, changes, now=None) -> Room:
    room = locked_room(code)
    owner_only(room, player)
    no_race_running(room)
    if not isinstance(changes, dict) or not changes:
        raise RoomError(_("send the rules to change as an object"), "bad_rules")
    unknown = sorted(set(changes) - set(RULE_FIELDS))
    if unknown:
        raise RoomError(_("unknown rule %(rules)s") % {"rules": ", ".join(unknown)}, "bad_rules")
    for name, value in changes.items():
        setattr(room, name, _rule_value(room, name, value))
    room.save(update_fields=[*changes])
    lobby_changed(room)
    return room


def _rule_value(room: Room, name: str, value):
    if name == "layout":
        return _layout_choice(value)
    field = Room._meta.get_field(name)
    expected = bool if field.get_internal_type() == "BooleanField" else (int, str)
    if isinstance(value, bool) is not (expected is bool) or not isinstance(value, expected):
        message = _("%(rule)s: wrong type of value %(value)r")
        raise RoomError(message % {"rule": field.verbose_name, "value": value}, "bad_rules")
    try:
        value = field.clean(value, room)
    except ValidationError as error:
        message = f"{field.verbose_name}: {' '.join(error.messages)}"
        raise RoomError(message, "bad_rules") from None
    return value


def _layout_choice(key) -> str:
    """ "" (the level) or a layout the picker offers (layouts/library.py)."""
    if key == "" or (isinstance(key, str) and library.is_offered(key)):
        return key
    raise RoomError(_("layout: there is no such layout to race on"), "bad_rules")


@transaction.atomic
def set_public(player: Player, code: str, public) -> Room:
    """The owner lists the room on /rooms/ for anyone to join (`public`), or takes it off
    the list: private, reached by its link only (docs/RULES.md §Races)."""
    room = locked_room(code)
    owner_only(room, player)
    if not isinstance(public, bool):
        raise RoomError(_("send public as true or false"), "bad_message")
    if room.public != public:
        room.public = public
        room.save(update_fields=["public"])
    lobby_changed(room)
    return room


@transaction.atomic
def add_cpu(player: Player, code: str, level) -> Seat:
    room = locked_room(code)
    owner_only(room, player)
    if level not in CpuLevel.values:
        raise RoomError(
            _("a CPU level is one of %(levels)s") % {"levels": ", ".join(CpuLevel.values)},
            "bad_cpu",
        )
    if room.seats.count() >= MAX_SEATS:
        raise RoomError(_("this room is full (%(n)d seats)") % {"n": MAX_SEATS}, "room_full")
    number = room.seats.filter(player=None).count() + 1
    seat = Seat.objects.create(
        room=room, nickname=f"CPU {number} ({CpuLevel(level).label})", cpu_level=level
    )
    lobby_changed(room)
    return seat


@transaction.atomic
def remove_seat(player: Player, code: str, seat_id, now=None) -> None:
    room = locked_room(code)
    owner_only(room, player)
    no_race_running(room)
    seat = room.seats.filter(pk=whole_number(seat_id, "seat")).first()
    if seat is None:
        raise RoomError(_("no such seat in this room"), "no_seat")
    if seat.player_id == room.owner_id:
        raise RoomError(_("the owner keeps their seat"), "owner_seat")
    seat.delete()
    lobby_changed(room)


# --- presence --------------------------------------------------------------------------
def seat_seen(seat_id: int, now=None) -> None:
    """A socket of the seat is open and alive (docs/RULES.md §Leaving: away after the
    grace, a CPU stands in). Only ever forward: a heartbeat written late must not make a
    player seen since look away."""
    now = now or timezone.now()
    earlier = Q(last_seen_at__isnull=True) | Q(last_seen_at__lt=now)
    Seat.objects.filter(earlier, pk=seat_id).update(last_seen_at=now)


# --- ranked rooms (the queue itself is rooms/ranked.py) ---------------------------------
@transaction.atomic
def create_ranked_room(players: list[Player], level: str) -> Room:
    """A room for a group from the ranked queue: the site defaults at the queue's level,
    flowers, handicap and the matching-tiles helper off (everyone races the same deal
    with the same help), humans only."""
    room = _new_room(players[0])
    room.ranked, room.level, room.flowers, room.handicap = True, level, False, False
    room.show_matches, room.layout = False, ""  # ranked races are on the levels only
    room.save(update_fields=["ranked", "level", "flowers", "handicap", "show_matches", "layout"])
    for player in players:
        Seat.objects.create(room=room, player=player, nickname=player.display_name)
    return room


# --- an account merge (accounts.signals.player_merged) ----------------------------------
def take_over_seats(device: Player, account: Player, **_signal) -> None:
    """Move the device's race seats (results and a running race included, so the player
    keeps playing) to the account (its place in the queue: rooms.ranked).

    A room where the account has a seat already keeps the device's seat on the husk: one
    player has one seat per room. Rooms the device owns follow the seat.
    """
    taken = Seat.objects.filter(player=account).values("room_id")
    moving = Seat.objects.filter(player=device).exclude(room_id__in=taken)
    Room.objects.filter(owner=device, pk__in=moving.values("room_id")).update(owner=account)
    moving.update(player=account)
