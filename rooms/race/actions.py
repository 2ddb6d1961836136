"""Every write to a running race: its start, a pair, a hint, a shuffle, giving up. The
end of a race (ranking, points, ratings) is rooms/race/end.py.

Players' websocket messages, CPU steps (rooms/race/cpu_seats.py) and the ranked queue (which
starts its races) call these. Each runs in a transaction that first locks the room row,
then the board, so a room's actions happen one at a time in a single order
(docs/ARCHITECTURE.md §One sequential owner per room), and each announces its change
only after its transaction commits (docs/ARCHITECTURE.md §One write path). The rules
they apply are docs/RULES.md §Races.
"""

import functools
import secrets
from datetime import datetime, timedelta
from typing import NamedTuple, NoReturn

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from layouts import library
from mahjong import reasons
from mahjong.engine.catalog import level_layout
from mahjong.engine.codes import make_code
from mahjong.engine.hint import hint as engine_hint
from mahjong.engine.shuffle import ShuffleError
from mahjong.engine.shuffle import shuffle as engine_shuffle
from mahjong.rules import CUT_OFF, HINT_TIME_LIMIT_SECONDS, LEVELS
from rooms.core import events, hot_sql
from rooms.core.boards import deal_for, position_of, store_position
from rooms.core.clock import countdown_seconds
from rooms.core.errors import RaceOver, RoomError
from rooms.core.room import (
    advance_version,
    locked_room,
    no_race_running,
    owner_only,
)
from rooms.cpus import cpu_steps, stand_in
from rooms.live import standings_feed
from rooms.lobby import rematch
from rooms.models import Entry, Move, Race, Room, Seat, room_code
from rooms.pools import actions as pools
from rooms.race import end as race_end


def race_action(action):
    """A player's (or a CPU's) action in the running race, in one transaction. One
    arriving after the cut-off is refused and closes the race in a transaction of its
    own, so the refusal's rollback does not undo the closing (docs/ARCHITECTURE.md
    §Lazy deadlines)."""

    @functools.wraps(action)
    def run(player, code, *args, now=None, **kwargs):
        now = now or timezone.now()
        try:
            with transaction.atomic():
                try:
                    return action(player, code, *args, now=now, **kwargs)
                except SeatTakenBack:
                    pass  # caught inside: the hand-back commits, whatever the action says
            with transaction.atomic():
                return action(player, code, *args, now=now, **kwargs)
        except RaceOver:
            race_end.close_if_due(code, now=now)
            raise

    return run


class SeatTakenBack(RoomError):
    """A human acted on a board a stand-in CPU was playing: the seat is theirs again
    (stored), and the action runs afresh in a new transaction. Without this, a refused
    first action (a stale pair: the CPU had moved meanwhile) rolled the hand-back back,
    and the CPU played on while the player's every pair came too late."""


# --- starting a race -------------------------------------------------------------------
@transaction.atomic
def start_race(player: Player | None, code: str, now=None, seed=None) -> Race:
    """Start the countdown; one deal per level in play. `seed` fixes the deals (tests).
    The owner starts a room's race; a ranked room's is started by the queue's grouping
    and a quick race's by its wait's end (`player` None), never by a player."""
    now = now or timezone.now()
    room = locked_room(code)
    if not ((room.ranked or room.hosted or room.quick) and player is None):
        owner_only(room, player)
    no_race_running(room)
    number = room.next_race_number()
    seats = rematch.racers(room, number, list(room.seats.all()), now)  # a rematch's ready check
    return _begin(room, number, seats, now, seed)


@transaction.atomic
def offer_another_game(player: Player, code: str, now=None) -> Race | None:
    """The owner offers another game (the ready check); it starts at once when nobody
    else has to say Ready (docs/RULES.md §Races). The race, if it started."""
    rematch.offer_rematch(player, code, now=now)
    return _start_if_everyone_ready(code, now or timezone.now())


@transaction.atomic
def say_ready(player: Player, code: str, now=None) -> Race | None:
    """A seated human says Ready; the last human to say it starts the race by itself,
    nobody has to press Start (docs/RULES.md §Races). The race, if it started."""
    rematch.say_ready(player, code)
    return _start_if_everyone_ready(code, now or timezone.now())


def _start_if_everyone_ready(code: str, now: datetime) -> Race | None:
    room = locked_room(code)  # held already by this transaction: the same lock
    number = room.next_race_number()
    seats = list(room.seats.all())
    if room.offer_at is None or not all(rematch.is_ready(seat, number) for seat in seats):
        return None
    return _begin(room, number, seats, now, seed=None)


def _begin(room: Room, number: int, seats: list[Seat], now: datetime, seed) -> Race:
    """The countdown of race `number` for `seats` (the caller holds the room's lock)."""
    go_at = now + timedelta(seconds=countdown_seconds(room))
    race = Race.objects.create(
        room=room,
        number=number,
        rules=room.rules(),
        started_at=now,
        go_at=go_at,
        time_limit_at=go_at + timedelta(minutes=room.time_limit_minutes),
        cut_off_at=go_at + CUT_OFF,
    )
    codes = {}
    for seat in seats:
        level = seat_level(room, seat)
        if level not in codes:
            codes[level] = _deal_code(room, level, seed)
        _new_entry(race, seat, level, codes[level])
    if room.offer_at is not None:
        room.offer_at = None
        room.save(update_fields=["offer_at"])
    events.publish_race_started(room, race, advance_version(room))
    cpu_steps.start_chains(race, seats)
    return race


def drop_helps(race: Race, seat_ids, now: datetime) -> int:
    """Before "go", these seats' boards give up every hint and shuffle of the race (an
    arena's "all in": docs/RULES.md §Arenas). The caller holds the room's lock, in the
    transaction that started the race; after "go" it changes nothing. The boards changed."""
    if now >= race.go_at:
        return 0
    boards = Entry.objects.filter(race=race, seat_id__in=list(seat_ids))
    return boards.update(hints_used=race.rules["hints"], shuffles_used=race.rules["shuffles"])


def _deal_code(room: Room, level: str, seed) -> str:
    """A graded deal from the level's pool; a fixed seed (tests) names its deal directly.
    A room racing on a chosen layout gets a deal on it made now: the pools only hold
    the levels' layouts (docs/WORKERS.md)."""
    if room.layout:
        return library.new_code(room.layout, seed)
    if seed is not None:
        return make_code(level_layout(level, room.flowers).number, seed)
    return pools.take(level, room.flowers)


def seat_level(room: Room, seat: Seat) -> str:
    """The room's level, raised one step per consecutive win with the handicap on. The
    handicap is for the level choices only: on a chosen layout everyone gets one deal."""
    base = LEVELS.index(room.level)
    raise_by = seat.win_streak if room.handicap and not room.layout else 0
    return LEVELS[min(base + raise_by, len(LEVELS) - 1)]


def _new_entry(race: Race, seat: Seat, level: str, code: str) -> Entry:
    deal = deal_for(code)
    return Entry.objects.create(
        race=race,
        seat=seat,
        level=level,
        code=code,
        faces=list(deal.faces),
        alive=format(deal.layout.full, "x"),
        tile_count=len(deal.faces),
    )


# --- playing ---------------------------------------------------------------------------
def _room_and_playing_entry(code: str, player: Player | None, now) -> tuple[Room, Entry]:
    """The room and the player's entry in its running race (both rows locked, the room
    first as for every action), checking every deadline. One query finds them; only when
    it finds nothing do more say why."""
    found = None
    if player is not None:
        found = hot_sql.lock_room_and_entry(room_code(code), player_id=player.pk)
    if found is None:
        _why_no_entry(locked_room(code), player, now)
    room, entry = found
    check_deadlines(entry.race, now)
    if entry.status != Entry.Status.PLAYING:
        raise RoomError(_("your race is over"), "entry_over")
    if entry.cpu_control:
        stand_in.give_back(room, entry, now)
        raise SeatTakenBack(_("your seat is yours again"), "taken_back")
    return room, entry


def take_seat_back(player: Player, seat_id: int, code: str, now=None) -> bool:
    """A socket of a seat a CPU stands in for opened: the seat is the player's again
    before the board is shown. True when it was handed back."""
    stood_in = Entry.objects.filter(
        seat_id=seat_id,
        cpu_control=True,
        status=Entry.Status.PLAYING,
        race__status=Race.Status.RUNNING,
    )
    if not stood_in.exists():  # the common case: one cheap read, no lock
        return False
    try:
        _claim_seat(player, code, now=now)
    except RoomError:  # the race ended or the board is over meanwhile: nothing to take
        return False
    return True


@race_action
def _claim_seat(player, code, now=None) -> Entry:
    return _room_and_playing_entry(code, player, now)[1]


def _why_no_entry(room: Room, player: Player | None, now: datetime) -> NoReturn:
    _seat_of(room, player)
    race = room.current_race()
    if race is None or race.status != Race.Status.RUNNING:
        raise RoomError(_("no race is running"), "no_race")
    check_deadlines(race, now)
    raise RoomError(_("you have no board in this race"), "no_entry")


def check_deadlines(race: Race, now: datetime) -> None:
    if now >= race.cut_off_at:
        raise RaceOver(_("the race is over"), "race_over")
    if now < race.go_at:
        raise RoomError(_("the race has not started yet"), "too_early")


def _seat_of(room: Room, player: Player | None) -> Seat:
    seat = room.seats.filter(player=player).first() if player is not None else None
    if seat is None:
        raise RoomError(_("you have no seat in this room"), "no_seat")
    return seat


def _acted(entry: Entry, now: datetime, by_cpu: bool) -> None:
    entry.last_action_at = now
    if not by_cpu:
        entry.cpu_control = False  # the human is back: the CPU lets go


@race_action
def play_pair(player, code, tiles: tuple[int, int], n: int, now=None) -> Entry:
    """Remove a pair: checked by the engine, stored, then announced. `tiles` and `n` are
    whole numbers (the socket's schema says so: rooms/core/messages.py); `n` is the number of
    pairs the client has seen removed; a retry of an acknowledged move is a no-op."""
    room, entry = _room_and_playing_entry(code, player, now)
    i, j = sorted(tiles)
    if n == entry.pairs_removed - 1 and _last_pair(entry) == [i, j]:
        return entry
    _not_too_fast(entry, now)
    return remove_pair(room, entry, i, j, n, now, by_cpu=False)


def _not_too_fast(entry: Entry, now) -> None:
    if too_fast(entry.last_human_pair_at, now):
        message = _("too fast: a pair needs two deliberate taps (at least %(ms)s ms apart)")
        raise RoomError(message % {"ms": settings.PAIR_FLOOR_MS}, "too_fast")


def too_fast(last_human_pair_at: datetime | None, now: datetime) -> bool:
    """docs/RULES.md §Fair play: no human makes two pairs within PAIR_FLOOR_MS."""
    floor = timedelta(milliseconds=settings.PAIR_FLOOR_MS)
    return last_human_pair_at is not None and now - last_human_pair_at < floor


def remove_pair(room, entry, i: int, j: int, n: int, now, by_cpu: bool) -> Entry:
    """The one write path of a pair, for players and CPUs (room and entry locked)."""
    if n != entry.pairs_removed:
        raise RoomError(
            _("out of date: %(removed)s pairs are removed, not %(n)s")
            % {"removed": entry.pairs_removed, "n": n},
            "stale",
        )
    if entry.penalty_until and now < entry.penalty_until:
        raise RoomError(_("wait for the shuffle penalty to end"), "penalty")
    position = position_of(entry)
    ok, reason = position.can_remove(i, j)
    if not ok:
        raise RoomError(reasons.translate(reason), "illegal")
    read = entry.pairs_removed, entry.shuffles_used, entry.cpu_control
    position = position.remove(i, j)
    store_position(entry, position)
    entry.pairs_removed += 1
    entry.cpu_pairs += int(by_cpu)
    if not by_cpu:
        entry.last_human_pair_at = now
    _acted(entry, now, by_cpu)
    _settle(entry, position, now)
    if not hot_sql.record_pair(_pair_write(entry, read, (i, j), now, by_cpu)):
        # Room and board are locked: nothing else can have changed them meanwhile.
        raise RuntimeError(f"board {entry.pk} changed under its lock")
    _after_entry_change(room, entry, now)
    return entry


def _pair_write(entry: Entry, read: tuple, tiles, now, by_cpu: bool) -> hot_sql.PairWrite:
    """The pair just made on `entry` (changed in memory), as stored; `read` is the board's
    (pairs, shuffles, controller) before it."""
    return hot_sql.PairWrite(
        entry_id=entry.pk,
        race_id=entry.race_id,
        number=read[0],
        shuffles_used=read[1],
        was_cpu_control=read[2],
        tiles=tiles,
        alive=entry.alive,
        at=now,
        by_cpu=by_cpu,
        cpu_control=entry.cpu_control,
        status=entry.status,
        finished_ms=entry.finished_ms,
        cpu_step=entry.cpu_step if by_cpu else None,
    )


def _last_pair(entry: Entry):
    last = entry.moves.filter(kind=Move.Kind.PAIR).order_by("-pk").first()
    return last.tiles if last else None


def _settle(entry: Entry, position, now: datetime) -> None:
    """Finished when the board is empty; out when blocked with no shuffle left."""
    race = entry.race
    if position.is_won():
        entry.status = Entry.Status.FINISHED
        entry.finished_ms = int((now - race.go_at).total_seconds() * 1000)
    elif is_out(position, entry.shuffles_used, race.rules["shuffles"]):
        entry.status = Entry.Status.OUT


def is_out(position, shuffles_used: int, shuffles_allowed: int) -> bool:
    """Blocked, with no shuffle left: the board is out (docs/RULES.md §Races)."""
    return position.is_blocked() and shuffles_used >= shuffles_allowed


def _after_entry_change(room: Room, entry: Entry, now: datetime) -> None:
    standings_feed.changed(room.code)
    if entry.status == Entry.Status.PLAYING:
        return
    if _every_human_done(entry.race):
        race_end.end_race(entry.race, now)
    else:  # the last human left playing may have been idle for long already
        stand_in.take_idle_last_player(entry.race, now)


def _every_human_done(race: Race) -> bool:
    humans_playing = race.entries.filter(status=Entry.Status.PLAYING, seat__player__isnull=False)
    return not humans_playing.exists()


class Hinted(NamedTuple):
    pair: tuple[int, int]
    hints_left: int  # after this one, as the page's Hint button shows it


def use_hint(player, code, now=None) -> Hinted:
    """The hinted pair (docs/RULES.md §Races), shown to this player only, and the hints
    left once it is counted against the limit.

    The solver may think for up to HINT_TIME_LIMIT_SECONDS, so it thinks with no lock
    held: the room's lock orders every pair of the room, and a hint inside it held them
    all up for that long. The board is read (and the request checked) in one short
    transaction, the hint counted in another if the board is still the one thought on."""
    board = _hint_board(player, code, now=now)
    found = engine_hint(position_of(board), time_limit=HINT_TIME_LIMIT_SECONDS)
    if found.pair is None:
        raise RoomError(_("no pair can be played: shuffle or give up"), "blocked")
    return _count_hint(player, code, board_state(board), found.pair, now=now)


@race_action
def _hint_board(player, code, now=None) -> Entry:
    room, entry = _room_and_playing_entry(code, player, now)
    _check_hints_left(entry)
    return entry


@race_action
def _count_hint(player, code, thought_on: tuple, pair, now=None) -> Hinted:
    room, entry = _room_and_playing_entry(code, player, now)
    _check_hints_left(entry)
    if board_state(entry) != thought_on:  # a pair or a shuffle came in meanwhile
        raise RoomError(_("the board changed while the hint was found: ask again"), "stale")
    entry.hints_used += 1
    _acted(entry, now, by_cpu=False)
    entry.save(update_fields=["hints_used", "last_action_at", "cpu_control"])
    return Hinted(pair, entry.race.rules["hints"] - entry.hints_used)


def _check_hints_left(entry: Entry) -> None:
    if entry.hints_used >= entry.race.rules["hints"]:
        raise RoomError(_("no hints left"), "no_hints")


def board_state(entry: Entry) -> tuple:
    """What a board's next move depends on: its tiles and how many pairs and shuffles it
    has had (a shuffle moves faces, and may move tiles)."""
    return entry.alive, entry.pairs_removed, entry.shuffles_used


@race_action
def shuffle(player, code, now=None) -> Entry:
    room, entry = _room_and_playing_entry(code, player, now)
    return shuffle_entry(room, entry, now, by_cpu=False)


def shuffle_entry(room, entry, now, by_cpu: bool) -> Entry:
    """Only while blocked, within the limit; the penalty pause starts now (docs/RULES.md §Races)."""
    rules = entry.race.rules
    if entry.shuffles_used >= rules["shuffles"]:
        raise RoomError(_("no shuffles left"), "no_shuffles")
    seed = secrets.randbits(48)
    try:
        shuffled = engine_shuffle(position_of(entry), seed=seed)
    except ShuffleError as error:
        raise RoomError(reasons.translate(str(error)), "not_blocked") from None
    store_position(entry, shuffled.position)
    if shuffled.moved:
        entry.positions = [list(p) for p in shuffled.position.layout.positions]
    entry.shuffles_used += 1
    penalty = rules["shuffle_penalty_seconds"]
    entry.penalty_until = now + timedelta(seconds=penalty) if penalty else None
    Move.objects.create(
        entry=entry,
        number=entry.pairs_removed,
        kind=Move.Kind.SHUFFLE,
        seed=seed,
        at=now,
        by_cpu=by_cpu,
    )
    _acted(entry, now, by_cpu)
    entry.save()
    standings_feed.changed(room.code)
    return entry


@race_action
def give_up(player, code, now=None) -> Entry:
    room, entry = _room_and_playing_entry(code, player, now)
    return give_up_entry(room, entry, now, by_cpu=False)


def give_up_entry(room, entry, now, by_cpu: bool) -> Entry:
    entry.status = Entry.Status.GAVE_UP
    _acted(entry, now, by_cpu)
    entry.save()
    _after_entry_change(room, entry, now)
    return entry
