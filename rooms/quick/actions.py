"""Race now (docs/RULES.md §Race now): one click seats a player in the next public quick
race of a level.

Every write of a quick race before its start is here; the room is an ordinary room of
the room machinery (seats through `rooms.lobby.actions`, the start through
`rooms.race.actions.start_race`), marked `quick`. A level has at most one waiting quick
room: a partial unique constraint on (level) while `quick_starts_at` is set, so two clicks
at once never open two (the second insert waits for the first to commit, fails, and
joins the first's room, locked). The room starts `QUICK_WAIT_SECONDS` after its first
player arrived, at once when MAX_SEATS are seated; alone then, the player races
`QUICK_RACE_CPUS` CPUs. Unrated: the room is never ranked.

The start is a Celery task queued with a countdown when the room opens (on time to the
second, where the sweeper's 2 s beat would add up to 2 s), and the sweeper starts any
quick room past due as well (a lost task, the broker down): `start_if_due` does it once,
under the room's lock, whoever calls it first.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from mahjong.rules import LEVELS, MAX_SEATS, Level
from rooms.core import tasks_sent
from rooms.core.errors import RoomError
from rooms.core.room import lobby_changed, locked_room
from rooms.lobby import actions as lobby
from rooms.models import CpuLevel, Entry, Race, Room, Seat, SiteDefaults
from rooms.race import actions as races

QUICK_CPU_LEVEL = CpuLevel.STEADY


def _wait() -> timedelta:
    return timedelta(seconds=settings.QUICK_WAIT_SECONDS)


def check_level(level) -> str:
    if level not in LEVELS:
        labels = ", ".join(str(label) for label in Level.labels)
        raise RoomError(
            _("choose a level for Race now: %(levels)s") % {"levels": labels}, "bad_level"
        )
    return level


def running_race_seat(player: Player) -> Seat | None:
    """The seat of a race the player is still playing, if any (one race at a time)."""
    playing = Entry.objects.filter(
        seat__player=player, race__status=Race.Status.RUNNING, status=Entry.Status.PLAYING
    )
    entry = playing.select_related("seat__room").order_by("-pk").first()
    return entry.seat if entry else None


@transaction.atomic
def race_now(player: Player, level, now=None, seed=None) -> Room:
    """Seat `player` in the waiting quick room of `level` (opened if none waits); the
    room, started at once if this seat filled it. A player waiting at another level moves
    here; one still playing a race is refused."""
    now = now or timezone.now()
    level = check_level(level)
    busy = running_race_seat(player)
    if busy is not None:
        raise RoomError(
            _("finish your race in room %(code)s first (or give it up)") % {"code": busy.room.code},
            "in_race",
        )
    room = _waiting_room(player, level, now)
    seat = room.seats.filter(player=player).first()
    if seat is not None:
        return room  # a second click keeps the player's seat
    _leave_other_waiting_rooms(player, room, now)
    if not room.seats.exists():  # everyone left: the wait begins again with this arrival
        room.quick_starts_at = now + _wait()
        room.save(update_fields=["quick_starts_at"])
        _schedule_start(room)
    lobby.a_seat_free(room)
    Seat.for_player(room, player, ready_for=1)
    lobby_changed(room)
    if room.seats.count() >= MAX_SEATS:
        _start(room, now, seed)
    return room


def _waiting_room(player: Player, level: str, now: datetime) -> Room:
    """The level's waiting quick room, locked; a new one when none waits."""
    for _attempt in range(5):
        waiting = Room.objects.filter(quick=True, level=level, quick_starts_at__isnull=False)
        code = waiting.values_list("code", flat=True).first()
        if code is not None:
            room = locked_room(code)
            if room.quick_starts_at is not None:  # not started meanwhile
                return room
            continue
        try:
            with transaction.atomic():
                room = _open_room(player, level, now)
        except IntegrityError:  # another click opened it first: join that one
            continue
        return locked_room(room.code)
    raise RoomError(_("Race now is busy: try again"), "busy")


def _open_room(player: Player, level: str, now: datetime) -> Room:
    rules = {**SiteDefaults.load().rules(), "level": level, "layout": "", "handicap": False}
    rules.update(flowers=False)
    for _attempt in range(10):
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    owner=player, quick=True, quick_starts_at=now + _wait(), **rules
                )
                break
        except IntegrityError as clash:
            if "one_waiting_quick_room_per_level" in str(clash):
                raise
            continue  # the random code was taken: draw another
    else:
        raise RoomError(_("could not find a free room code; try again"))
    _schedule_start(room)
    return room


def _schedule_start(room: Room) -> None:
    """Queue the start task for the room's start, once this transaction commits."""
    delay = max(0.0, (room.quick_starts_at - timezone.now()).total_seconds())
    code = room.code
    transaction.on_commit(
        lambda: tasks_sent.send(tasks_sent.START_QUICK_RACE, code, countdown=delay),
        robust=True,  # the broker down: the sweeper starts it
    )


def _leave_other_waiting_rooms(player: Player, room: Room, now: datetime) -> None:
    """A player waits for one quick race at a time: a click at another level moves them."""
    others = Seat.objects.filter(
        player=player, room__quick=True, room__quick_starts_at__isnull=False
    ).exclude(room=room)
    for code in others.values_list("room__code", flat=True):
        other = locked_room(code)
        if other.quick_starts_at is None:
            continue
        other.seats.filter(player=player).delete()
        lobby_changed(other)


def leave(player: Player, code: str) -> bool:
    """Stop waiting in a quick room before its start; False when not waiting there."""
    with transaction.atomic():
        room = locked_room(code)
        if not room.quick or room.quick_starts_at is None:
            return False
        deleted, _rows = room.seats.filter(player=player).delete()
        if deleted:
            lobby_changed(room)
        return bool(deleted)


@transaction.atomic
def start_if_due(code: str, now=None, seed=None) -> Race | None:
    """Start the quick room `code` if its time has come and it has not started: three
    CPUs join a player alone. A room nobody waits in any more is closed (deleted). The
    race, if this call started it."""
    now = now or timezone.now()
    try:
        room = locked_room(code)
    except RoomError:
        return None  # closed meanwhile
    if not room.quick or room.quick_starts_at is None or now < room.quick_starts_at:
        return None
    return _start(room, now, seed)


def _start(room: Room, now: datetime, seed) -> Race | None:
    humans = room.seats.filter(player__isnull=False).count()
    if humans == 0:
        room.delete()
        return None
    if humans == 1:
        for number in range(1, settings.QUICK_RACE_CPUS + 1):
            Seat.new_cpu(room, number, QUICK_CPU_LEVEL)
    room.quick_starts_at = None
    room.save(update_fields=["quick_starts_at"])
    return races.start_race(None, room.code, now=now, seed=seed)


def seconds_left(code: str, now=None) -> float:
    """How long the quick room `code` still waits (0 once started, closed or due)."""
    now = now or timezone.now()
    starts_at = Room.objects.filter(code=code, quick=True).values_list("quick_starts_at", flat=True)
    moment = starts_at.first()
    return max(0.0, (moment - now).total_seconds()) if moment else 0.0


def due_codes(now=None) -> list[str]:
    """The quick rooms past their start (the sweeper's share)."""
    now = now or timezone.now()
    due = Room.objects.filter(quick=True, quick_starts_at__lte=now)
    return list(due.values_list("code", flat=True))
