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
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import actions as accounts_actions
from accounts.models import Player
from layouts import library
from mahjong.rules import MAX_SEATS
from rooms.core import messages
from rooms.core.errors import RoomError, refused_error
from rooms.core.room import lobby_changed, locked_room, no_race_running, owner_only
from rooms.models import RULE_FIELDS, CpuLevel, Room, Seat, SiteDefaults


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
    if room.hosted:
        raise RoomError(_("an arena's races are joined from the arena's page"), "hosted")
    if room.quick:
        raise RoomError(_("quick races are joined with Race now"), "quick")
    nickname = clean_nickname(nickname)
    a_seat_free(room)
    accounts_actions.set_nickname(player, nickname)
    # Joining says "Ready" for the room's next race (rooms/lobby/rematch.py).
    ready_for = room.next_race_number()
    seat = Seat.objects.create(room=room, player=player, nickname=nickname, ready_for=ready_for)
    lobby_changed(room)
    return seat


def a_seat_free(room: Room) -> None:
    if room.seats.count() >= MAX_SEATS:
        raise RoomError(_("this room is full (%(n)d seats)") % {"n": MAX_SEATS}, "room_full")


@transaction.atomic
def update_rules(player: Player, code: str, changes, now=None) -> Room:
    room = locked_room(code)
    owner_only(room, player)
    no_race_running(room)
    # The socket's schema checked these already; any other caller's are checked alike.
    changes = messages.rule_changes(changes)
    if isinstance(changes, messages.Refused):
        raise refused_error(changes)
    for name, value in changes.items():
        setattr(room, name, _rule_value(room, name, value))
    room.save(update_fields=[*changes])
    lobby_changed(room)
    return room


def _rule_value(room: Room, name: str, value):
    """The value, if the rule allows it (its type is the schema's: rooms/core/messages.py)."""
    if name == "layout":
        return _layout_choice(value)
    field = Room._meta.get_field(name)
    try:
        value = field.clean(value, room)
    except ValidationError as error:
        message = f"{field.verbose_name}: {' '.join(error.messages)}"
        raise RoomError(message, "bad_rules") from None
    return value


def _layout_choice(key) -> str:
    """ "" (the level) or a layout the picker offers (layouts/library.py)."""
    if key == "" or library.is_offered(key):
        return key
    raise RoomError(_("layout: there is no such layout to race on"), "bad_rules")


@transaction.atomic
def set_public(player: Player, code: str, public) -> Room:
    """The owner lists the room on /rooms/ for anyone to join (`public`), or takes it off
    the list: private, reached by its link only (docs/RULES.md §Races)."""
    room = locked_room(code)
    owner_only(room, player)
    if not isinstance(public, bool):  # a caller other than the socket, whose schema checks
        raise RoomError(_(messages.TRUE_OR_FALSE), "bad_message")
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
    a_seat_free(room)
    number = room.seats.filter(player=None).count() + 1
    seat = Seat.new_cpu(room, number, level)
    lobby_changed(room)
    return seat


@transaction.atomic
def remove_seat(player: Player, code: str, seat_id: int, now=None) -> None:
    room = locked_room(code)
    owner_only(room, player)
    no_race_running(room)
    seat = room.seats.filter(pk=seat_id).first()
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


# --- ranked rooms (the queue itself is rooms/ranked/actions.py) ---------------------------------
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
        Seat.for_player(room, player)
    return room


# --- hosted rooms (run by another domain: an arena) ---------------------------------------
@transaction.atomic
def create_hosted_room(players: list[Player], rules: dict, cpus: int = 0) -> Room:
    """A room another domain runs (an arena): its fixed `rules` (RULE_FIELDS), the
    `players` seated under their names, `cpus` steady CPUs beside them; no owner's tools.
    Its one race is started by the host (rooms.race.actions.start_race with no player)."""
    room = _new_room(players[0])
    for name in RULE_FIELDS:
        setattr(room, name, rules[name])
    room.hosted, room.handicap = True, False
    room.save()
    for player in players:
        Seat.for_player(room, player)
    for number in range(1, min(cpus, MAX_SEATS - len(players)) + 1):
        Seat.new_cpu(room, number, CpuLevel.STEADY)
    return room


# --- an account merge (accounts.signals.player_merged) ----------------------------------
def take_over_seats(device: Player, account: Player, **_signal) -> None:
    """Move the device's race seats (results and a running race included, so the player
    keeps playing) to the account (its place in the queue: rooms.ranked.actions).

    A room where the account has a seat already keeps the device's seat on the husk: one
    player has one seat per room. Rooms the device owns follow the seat.
    """
    taken = Seat.objects.filter(player=account).values("room_id")
    moving = Seat.objects.filter(player=device).exclude(room_id__in=taken)
    Room.objects.filter(owner=device, pk__in=moving.values("room_id")).update(owner=account)
    moving.update(player=account)
