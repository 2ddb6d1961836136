"""Every write to rooms and races, one function per action (DESIGN: one write path).

Players' websocket messages, HTTP views, CPU tasks and the deadline sweeper all call
these. Each runs in a transaction that first locks the room row, so a room's actions
happen one at a time in a single order (lichess's "one sequential owner per game"), and
each publishes its event only after its transaction commits.
"""

import functools
import random
import secrets
from datetime import datetime, timedelta
from typing import NoReturn

from celery import current_app
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import actions as accounts_actions
from accounts.models import NICKNAME_MAX_LENGTH, Player
from mahjong import reasons
from mahjong.engine.catalog import level_layout
from mahjong.engine.codes import make_code
from mahjong.engine.hint import hint as engine_hint
from mahjong.engine.shuffle import ShuffleError
from mahjong.engine.shuffle import shuffle as engine_shuffle
from rooms import cpu, events, hot_sql, pools, ranking, standings_feed
from rooms.boards import deal_for, position_of, store_position
from rooms.models import (
    LEVELS,
    MAX_SEATS,
    RULE_FIELDS,
    CpuLevel,
    Entry,
    Move,
    Race,
    Room,
    Seat,
    SiteDefaults,
    room_code,
)

CUT_OFF = timedelta(minutes=60)
HINT_TIME_LIMIT_SECONDS = 1.0


class RoomError(Exception):
    """A refused action. `message` is for the player; nothing was changed."""

    def __init__(self, message: str, code: str = "refused"):
        super().__init__(message)
        self.message, self.code = message, code


class RaceOver(RoomError):
    """The action came after the race's cut-off: refused, and the race gets closed."""


def race_action(action):
    """A player's (or a CPU's) action in the running race, in one transaction. One
    arriving after the cut-off is refused and closes the race in a transaction of its
    own, so the refusal's rollback does not undo the closing (DESIGN: lazy deadlines)."""

    @functools.wraps(action)
    def run(player, code, *args, now=None, **kwargs):
        now = now or timezone.now()
        try:
            with transaction.atomic():
                return action(player, code, *args, now=now, **kwargs)
        except RaceOver:
            close_if_due(code, now=now)
            raise

    return run


# --- rooms and seats -----------------------------------------------------------------
def clean_nickname(nickname) -> str:
    if not isinstance(nickname, str):
        raise RoomError(_("a nickname must be text"), "bad_nickname")
    nickname = " ".join(nickname.split())
    if not nickname:
        raise RoomError(_("choose a nickname"), "bad_nickname")
    if len(nickname) > NICKNAME_MAX_LENGTH or not nickname.isprintable():
        raise RoomError(
            _("a nickname has at most %(n)d letters") % {"n": NICKNAME_MAX_LENGTH}, "bad_nickname"
        )
    return nickname


@transaction.atomic
def create_room(player: Player, nickname) -> Room:
    nickname = clean_nickname(nickname)
    player.nickname = nickname
    player.save(update_fields=["nickname"])
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


def locked_room(code: str) -> Room:
    """The room, its row locked until the transaction commits."""
    room = hot_sql.lock_room(room_code(code))
    if room is None:
        raise RoomError(_("no room has this code"), "no_room")
    return room


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
    if player.nickname != nickname:
        player.nickname = nickname
        player.save(update_fields=["nickname"])
    seat = Seat.objects.create(room=room, player=player, nickname=nickname)
    events.publish_lobby(room)
    return seat


def _owner_only(room: Room, player: Player) -> None:
    if room.ranked:
        raise RoomError(_("a ranked room's rules and seats are fixed"), "ranked")
    if player is None or room.owner_id != player.pk:
        raise RoomError(_("only the room's owner can do that"), "not_owner")


def _no_race_running(room: Room, now: datetime) -> None:
    race = room.current_race()
    if race is not None and race.status == Race.Status.RUNNING:
        raise RoomError(_("not while a race is running"), "race_running")


@transaction.atomic
def update_rules(player: Player, code: str, changes, now=None) -> Room:
    room = locked_room(code)
    _owner_only(room, player)
    _no_race_running(room, now or timezone.now())
    if not isinstance(changes, dict) or not changes:
        raise RoomError(_("send the rules to change as an object"), "bad_rules")
    unknown = sorted(set(changes) - set(RULE_FIELDS))
    if unknown:
        raise RoomError(_("unknown rule %(rules)s") % {"rules": ", ".join(unknown)}, "bad_rules")
    for name, value in changes.items():
        setattr(room, name, _rule_value(room, name, value))
    room.save(update_fields=[*changes])
    events.publish_lobby(room)
    return room


def _rule_value(room: Room, name: str, value):
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


@transaction.atomic
def add_cpu(player: Player, code: str, level) -> Seat:
    room = locked_room(code)
    _owner_only(room, player)
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
    events.publish_lobby(room)
    return seat


@transaction.atomic
def remove_seat(player: Player, code: str, seat_id, now=None) -> None:
    room = locked_room(code)
    _owner_only(room, player)
    _no_race_running(room, now or timezone.now())
    seat = room.seats.filter(pk=_whole(seat_id, "seat")).first()
    if seat is None:
        raise RoomError(_("no such seat in this room"), "no_seat")
    if seat.player_id == room.owner_id:
        raise RoomError(_("the owner keeps their seat"), "owner_seat")
    seat.delete()
    events.publish_lobby(room)


def _whole(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RoomError(
            _("%(what)s must be a whole number, not %(value)r") % {"what": what, "value": value},
            "bad_message",
        )
    return value


# --- starting a race -------------------------------------------------------------------
@transaction.atomic
def start_race(player: Player, code: str, now=None, seed=None) -> Race:
    """Start the countdown; one deal per level in play. `seed` fixes the deals (tests)."""
    now = now or timezone.now()
    room = locked_room(code)
    _may_start(room, player)
    _no_race_running(room, now)
    seats = list(room.seats.all())
    go_at = now + timedelta(seconds=settings.RACE_COUNTDOWN_SECONDS)
    race = Race.objects.create(
        room=room,
        number=room.races.count() + 1,
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
            codes[level] = _deal_code(level, room.flowers, seed)
        _new_entry(race, seat, level, codes[level])
    events.publish_race_started(room, race)
    _start_cpu_chains(race, seats)
    return race


def _deal_code(level: str, flowers: bool, seed) -> str:
    """A graded deal from the level's pool (refilled after commit); a fixed seed
    (tests) names its deal directly."""
    if seed is not None:
        return make_code(level_layout(level, flowers).number, seed)
    args = [level, flowers]
    # robust: with the broker down the race still started; the pools refill every minute.
    refill = functools.partial(current_app.send_task, "rooms.tasks.refill_pool", args=args)
    transaction.on_commit(refill, robust=True)
    return pools.take(level, flowers)


def seat_level(room: Room, seat: Seat) -> str:
    """The room's level, raised one step per consecutive win with the handicap on."""
    base = LEVELS.index(room.level)
    raise_by = seat.win_streak if room.handicap else 0
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
        found = hot_sql.lock_room_and_playing_entry(room_code(code), player.pk)
    if found is None:
        _why_no_entry(locked_room(code), player, now)
    room, entry = found
    _check_deadlines(entry.race, now)
    if entry.status != Entry.Status.PLAYING:
        raise RoomError(_("your race is over"), "entry_over")
    return room, entry


def _why_no_entry(room: Room, player: Player | None, now: datetime) -> NoReturn:
    _seat_of(room, player)
    race = room.current_race()
    if race is None or race.status != Race.Status.RUNNING:
        raise RoomError(_("no race is running"), "no_race")
    _check_deadlines(race, now)
    raise RoomError(_("you have no board in this race"), "no_entry")


def _check_deadlines(race: Race, now: datetime) -> None:
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
def play_pair(player, code, tiles, n, now=None) -> Entry:
    """Remove a pair: checked by the engine, stored, then announced. `n` is the number
    of pairs the client has seen removed; a retry of an acknowledged move is a no-op."""
    room, entry = _room_and_playing_entry(code, player, now)
    i, j = _pair(tiles)
    n = _whole(n, "n")
    if n == entry.pairs_removed - 1 and _last_pair(entry) == [i, j]:
        return entry
    return remove_pair(room, entry, i, j, n, now, by_cpu=False)


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
    position = position.remove(i, j)
    store_position(entry, position)
    entry.pairs_removed += 1
    _acted(entry, now, by_cpu)
    _settle(entry, position, now)
    hot_sql.record_pair(entry, PAIR_FIELDS, n, [i, j], now, by_cpu)
    _after_entry_change(room, entry, now)
    return entry


# What a pair changes (a CPU step also sets cpu_step); the faces stay where they are.
PAIR_FIELDS = (
    "alive",
    "pairs_removed",
    "last_action_at",
    "cpu_control",
    "status",
    "finished_ms",
    "cpu_step",
)


def _pair(tiles) -> tuple[int, int]:
    if not isinstance(tiles, list) or len(tiles) != 2:
        raise RoomError(_("send the two tiles of the pair as 'tiles': [i, j]"), "bad_message")
    i, j = (_whole(t, "a tile") for t in tiles)
    return min(i, j), max(i, j)


def _last_pair(entry: Entry):
    last = entry.moves.filter(kind=Move.Kind.PAIR).order_by("-pk").first()
    return last.tiles if last else None


def _settle(entry: Entry, position, now: datetime) -> None:
    """Finished when the board is empty; out when blocked with no shuffle left."""
    race = entry.race
    if position.is_won():
        entry.status = Entry.Status.FINISHED
        entry.finished_ms = int((now - race.go_at).total_seconds() * 1000)
    elif position.is_blocked() and entry.shuffles_used >= race.rules["shuffles"]:
        entry.status = Entry.Status.OUT


def _after_entry_change(room: Room, entry: Entry, now: datetime) -> None:
    standings_feed.changed(room.code)
    if entry.status != Entry.Status.PLAYING and _every_human_done(entry.race):
        end_race(entry.race, now)


def _every_human_done(race: Race) -> bool:
    humans_playing = race.entries.filter(status=Entry.Status.PLAYING, seat__player__isnull=False)
    return not humans_playing.exists()


def use_hint(player, code, now=None) -> tuple[int, int] | None:
    """The hinted pair (SPEC §4), shown to this player only; counted against the limit.

    The solver may think for up to HINT_TIME_LIMIT_SECONDS, so it thinks with no lock
    held: the room's lock orders every pair of the room, and a hint inside it held them
    all up for that long. The board is read (and the request checked) in one short
    transaction, the hint counted in another if the board is still the one thought on."""
    board = _hint_board(player, code, now=now)
    found = engine_hint(position_of(board), time_limit=HINT_TIME_LIMIT_SECONDS)
    if found.pair is None:
        raise RoomError(_("no pair can be played: shuffle or give up"), "blocked")
    return _count_hint(player, code, _board_state(board), found.pair, now=now)


@race_action
def _hint_board(player, code, now=None) -> Entry:
    room, entry = _room_and_playing_entry(code, player, now)
    _check_hints_left(entry)
    return entry


@race_action
def _count_hint(player, code, thought_on: tuple, pair, now=None) -> tuple[int, int]:
    room, entry = _room_and_playing_entry(code, player, now)
    _check_hints_left(entry)
    if _board_state(entry) != thought_on:  # a pair or a shuffle came in meanwhile
        raise RoomError(_("the board changed while the hint was found: ask again"), "stale")
    entry.hints_used += 1
    _acted(entry, now, by_cpu=False)
    entry.save(update_fields=["hints_used", "last_action_at", "cpu_control"])
    return pair


def _check_hints_left(entry: Entry) -> None:
    if entry.hints_used >= entry.race.rules["hints"]:
        raise RoomError(_("no hints left"), "no_hints")


def _board_state(entry: Entry) -> tuple:
    """What a board's next move depends on: its tiles and how many pairs and shuffles it
    has had (a shuffle moves faces, and may move tiles)."""
    return entry.alive, entry.pairs_removed, entry.shuffles_used


@race_action
def shuffle(player, code, now=None) -> Entry:
    room, entry = _room_and_playing_entry(code, player, now)
    return shuffle_entry(room, entry, now, by_cpu=False)


def shuffle_entry(room, entry, now, by_cpu: bool) -> Entry:
    """Only while blocked, within the limit; the penalty pause starts now (SPEC §4)."""
    rules = entry.race.rules
    if entry.shuffles_used >= rules["shuffles"]:
        raise RoomError(_("no shuffles left"), "no_shuffles")
    try:
        shuffled = engine_shuffle(position_of(entry), seed=secrets.randbits(48))
    except ShuffleError as error:
        raise RoomError(reasons.translate(str(error)), "not_blocked") from None
    store_position(entry, shuffled.position)
    if shuffled.moved:
        entry.positions = [list(p) for p in shuffled.position.layout.positions]
    entry.shuffles_used += 1
    penalty = rules["shuffle_penalty_seconds"]
    entry.penalty_until = now + timedelta(seconds=penalty) if penalty else None
    Move.objects.create(
        entry=entry, number=entry.pairs_removed, kind=Move.Kind.SHUFFLE, at=now, by_cpu=by_cpu
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


# --- CPU players (DESIGN: chains of short, idempotent tasks) ---------------------------
def schedule_cpu_step(code: str, seat_id: int, step: int, delay_seconds: float) -> None:
    """Queue a CPU step once the current transaction commits (never for a rolled-back
    change). By name, so this module need not import the tasks that import it."""
    delay = max(0.0, delay_seconds * settings.CPU_DELAY_SCALE)
    args = [code, seat_id, step]
    # robust: with the broker down the step's change is stored all the same; the sweeper
    # restarts a chain silent for CPU_STALL_SECONDS.
    transaction.on_commit(
        lambda: current_app.send_task("rooms.tasks.cpu_step", args=args, countdown=delay),
        robust=True,
    )


def _cpu_profile(entry: Entry) -> cpu.Profile:
    # A CPU standing in for an absent human plays at the middle level.
    return cpu.PROFILES.get(entry.seat.cpu_level, cpu.PROFILES["steady"])


def cpu_act(player, code, seat_id, step, now=None) -> Entry | None:
    """One step of a CPU seat (or of a CPU standing in for an away human): look at the
    board, think, act through the same write paths as humans, and schedule the next step.
    Runs only as the board's step cpu_step + 1: a duplicate or stale delivery does nothing.

    It thinks with no lock held: its solver may take PLAN_TIME_LIMIT_SECONDS, and the
    room's lock orders every pair of the room (inside it, a room of CPUs held its humans'
    pairs up). The board is read in one short transaction and the move made in another,
    if the step is still due and the board still the one thought on."""
    entry = _cpu_board(player, code, seat_id, step, now=now)
    if entry is None:
        return None
    rng = random.Random(f"{entry.pk}:{step}")
    shuffles_left = entry.race.rules["shuffles"] - entry.shuffles_used
    decision = cpu.choose(position_of(entry), _cpu_profile(entry), shuffles_left, rng)
    return _cpu_play(player, code, seat_id, step, _board_state(entry), decision, rng, now=now)


@race_action
def _cpu_board(player, code, seat_id, step, now=None) -> Entry | None:
    """The board of a CPU step that is due and may play now, else None (a step too early
    for the board is moved to when it takes taps)."""
    found = _cpu_entry(code, seat_id, step, now)
    if found is None:
        return None
    room, entry = found
    wait = max(entry.race.go_at, entry.penalty_until or entry.race.go_at) - now
    if wait.total_seconds() <= 0:
        return entry
    entry.cpu_step = step
    entry.save(update_fields=["cpu_step"])
    schedule_cpu_step(code, seat_id, step + 1, wait.total_seconds() / settings.CPU_DELAY_SCALE)
    return None


@race_action
def _cpu_play(player, code, seat_id, step, thought_on, decision, rng, now=None):
    found = _cpu_entry(code, seat_id, step, now)
    if found is None:
        return None
    room, entry = found
    if _board_state(entry) != thought_on:
        return None  # the human came back and played: the chain ends (as with cpu_control)
    entry.cpu_step = step
    profile = _cpu_profile(entry)
    entry = _cpu_move(room, entry, decision, now)
    if entry.status == Entry.Status.PLAYING:
        open_pairs = len(position_of(entry).playable_pairs())
        schedule_cpu_step(code, seat_id, step + 1, cpu.think_seconds(profile, open_pairs, rng))
    return entry


def _cpu_entry(code: str, seat_id: int, step: int, now) -> tuple[Room, Entry] | None:
    """The room and the CPU's board, both locked, when this step is the board's next one
    and a CPU plays it; None otherwise."""
    room = locked_room(code)
    race = room.current_race()
    if race is None or race.status != Race.Status.RUNNING:
        return None
    if now >= race.cut_off_at:
        raise RaceOver(_("the race is over"), "race_over")
    entry = race.entries.select_for_update().select_related("seat").filter(seat_id=seat_id)
    entry = entry.first()
    if entry is None or entry.status != Entry.Status.PLAYING or step != entry.cpu_step + 1:
        return None
    if not (entry.seat.is_cpu or entry.cpu_control):
        return None  # the human is back
    return room, entry


def _cpu_move(room: Room, entry: Entry, decision: cpu.Decision, now) -> Entry:
    if decision.kind == "pair":
        i, j = decision.pair
        return remove_pair(room, entry, i, j, entry.pairs_removed, now, by_cpu=True)
    if decision.kind == "shuffle":
        return shuffle_entry(room, entry, now, by_cpu=True)
    return give_up_entry(room, entry, now, by_cpu=True)


def _start_cpu_chains(race: Race, seats: list[Seat]) -> None:
    rng = random.Random()
    for seat in seats:
        if seat.is_cpu:
            think = cpu.think_seconds(cpu.PROFILES[seat.cpu_level], 8, rng)
            countdown = (race.go_at - race.started_at).total_seconds()
            schedule_cpu_step(
                race.room.code, seat.pk, 1, countdown / settings.CPU_DELAY_SCALE + think
            )


# --- the sweeper (DESIGN: deadlines live in the database) -------------------------------
def sweep(now=None) -> dict:
    """Close what is due: races past their cut-off, away or idle humans (a CPU takes the
    seat), stalled CPU chains (a worker died). Each row is claimed with a conditional
    update, so two sweepers never act twice. Returns what it did, for logs and tests."""
    now = now or timezone.now()
    due = Race.objects.filter(status=Race.Status.RUNNING, cut_off_at__lte=now)
    closed = [code for code in due.values_list("room__code", flat=True) if close_if_due(code, now)]
    playing = Entry.objects.filter(
        race__status=Race.Status.RUNNING, race__go_at__lte=now, status=Entry.Status.PLAYING
    ).select_related("race__room", "seat")
    taken_over, kicked = [], []
    for entry in playing:
        if _away_or_idle(entry, now) and _claim_takeover(entry, now):
            taken_over.append(entry.pk)
        elif _cpu_plays(entry) and _stalled(entry, now) and _claim_kick(entry, now):
            kicked.append(entry.pk)
    return {
        "closed": closed,
        "taken_over": taken_over,
        "kicked": kicked,
        "grouped": _form_ranked_groups(now),
    }


def _cpu_plays(entry: Entry) -> bool:
    return entry.seat.is_cpu or entry.cpu_control


def _away_or_idle(entry: Entry, now) -> bool:
    if _cpu_plays(entry):
        return False
    grace = timedelta(seconds=settings.DISCONNECT_GRACE_SECONDS)
    # A socket marks its seat seen every few seconds, except while the player makes
    # pairs: each pair's own time counts as seen (one write fewer per pair).
    seen = max(
        entry.seat.last_seen_at or entry.race.go_at, entry.last_action_at or entry.race.go_at
    )
    idle_limit = entry.race.rules["idle_limit_seconds"]
    last = entry.last_action_at or entry.race.go_at
    return now - seen > grace or bool(idle_limit and now - last > timedelta(seconds=idle_limit))


def _stalled(entry: Entry, now) -> bool:
    last = max(entry.last_action_at or entry.race.go_at, entry.cpu_kicked_at or entry.race.go_at)
    return now - last > timedelta(seconds=settings.CPU_STALL_SECONDS)


def _claim_takeover(entry: Entry, now) -> bool:
    claimed = Entry.objects.filter(pk=entry.pk, cpu_control=False).update(
        cpu_control=True, cpu_kicked_at=now
    )
    if claimed:
        with transaction.atomic():
            schedule_cpu_step(entry.race.room.code, entry.seat_id, entry.cpu_step + 1, 0.5)
    return bool(claimed)


def _claim_kick(entry: Entry, now) -> bool:
    claimed = Entry.objects.filter(pk=entry.pk, cpu_kicked_at=entry.cpu_kicked_at).update(
        cpu_kicked_at=now
    )
    if claimed:
        with transaction.atomic():
            schedule_cpu_step(entry.race.room.code, entry.seat_id, entry.cpu_step + 1, 0)
    return bool(claimed)


# --- the end ---------------------------------------------------------------------------
def end_race(race: Race, now: datetime) -> None:
    """Rank, score and close a race (caller holds the room lock). Idempotent."""
    if race.status == Race.Status.FINISHED:
        return
    entries = list(race.entries.select_related("seat"))
    limit_ms = race.rules["time_limit_minutes"] * 60_000
    ranked = {r.key: r for r in ranking.rank([e.standing() for e in entries], limit_ms)}
    for entry in entries:
        entry.place = ranked[entry.pk].place
        entry.points = float(ranked[entry.pk].points)
        entry.save(update_fields=["place", "points"])
    _update_win_streaks(entries)
    race.status = Race.Status.FINISHED
    race.finished_at = now
    race.save(update_fields=["status", "finished_at"])
    if race.room.ranked:
        _rate(race, entries, now)
    events.publish_race_finished(race.room, race)


def _update_win_streaks(entries: list[Entry]) -> None:
    for entry in entries:
        won = entry.place == 1 and entry.status == Entry.Status.FINISHED
        entry.seat.win_streak = entry.seat.win_streak + 1 if won else 0
        entry.seat.save(update_fields=["win_streak"])


@transaction.atomic
def close_if_due(code: str, now=None) -> bool:
    """End the room's race if its cut-off has passed (the sweeper calls this)."""
    now = now or timezone.now()
    room = locked_room(code)
    race = room.current_race()
    if race is None or race.status != Race.Status.RUNNING or now < race.cut_off_at:
        return False
    end_race(race, now)
    return True


# --- presence --------------------------------------------------------------------------
def seat_seen(seat_id: int, now=None) -> None:
    """A socket of the seat is open and alive (SPEC §6 "leaving": away after the grace)."""
    Seat.objects.filter(pk=seat_id).update(last_seen_at=now or timezone.now())


# --- ranked rooms (the queue itself is rooms/ranked.py) ---------------------------------
def _may_start(room: Room, player: Player | None) -> None:
    """The owner starts a room's race; a ranked room's race is started by the site (the
    queue's grouping, `player` None) and never by a player."""
    if room.ranked and player is None:
        return
    _owner_only(room, player)


@transaction.atomic
def create_ranked_room(players: list[Player], level: str) -> Room:
    """A room for a group from the ranked queue: the site defaults at the queue's level,
    flowers and handicap off (everyone races the same deal), humans only."""
    room = _new_room(players[0])
    room.ranked, room.level, room.flowers, room.handicap = True, level, False, False
    room.save(update_fields=["ranked", "level", "flowers", "handicap"])
    for player in players:
        Seat.objects.create(room=room, player=player, nickname=player.display_name)
    return room


def _rate(race: Race, entries: list[Entry], now: datetime) -> None:
    """SPEC §6: every human of a ranked race is rated from their place (ties share it).
    In end_race's transaction; record_rated_result ignores a race already rated."""
    results = [(e.seat.player, e.place) for e in entries if e.seat.player_id is not None]
    accounts_actions.record_rated_result(results, race_ref=race.pk, at=now)


def _form_ranked_groups(now: datetime) -> list[str]:
    from rooms import ranked  # the queue builds on this module: imported when needed

    return ranked.form_groups(now=now)


@transaction.atomic
def end_race_by_staff(code: str, now=None) -> Race:
    """The admin's "End race now" for a stuck race: placed and scored as at the cut-off
    (and rated, in a ranked room)."""
    room = locked_room(code)
    race = room.current_race()
    if race is None or race.status != Race.Status.RUNNING:
        raise RoomError(_("this room has no running race"), "no_race")
    end_race(race, now or timezone.now())
    return race
