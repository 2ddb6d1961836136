"""Rooms, their local rules and the site defaults, seats, races, each seat's board in a
race, every move, the deal pools and the ranked queue."""

import secrets
from datetime import timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils import translation
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from accounts.models import NICKNAME_MAX_LENGTH, Player, guest_name
from mahjong.race_rules import ranking
from mahjong.rules import (
    IDLE_LIMITS,
    LAST_PLAYER_IDLE,
    SHUFFLE_PENALTIES,
    TIME_LIMITS,
    Level,
)

ROOM_CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I look-alikes
ROOM_CODE_LENGTH = 6


class CpuLevel(models.TextChoices):
    RELAXED = "relaxed", _("Relaxed")
    STEADY = "steady", _("Steady")
    SHARP = "sharp", _("Sharp")


def cpu_name(number, level: str) -> str:
    """A CPU seat's name in the active language, made when it is shown: "CPU 1 (Steady)",
    "CPU 1 (Constante)". `number` may be a placeholder ("{n}": the room page's scripts
    fill it in, rooms.views.race_strings)."""
    template = pgettext("a CPU seat's name: its number and level", "CPU %(number)s (%(level)s)")
    return template % {"number": number, "level": gettext(CpuLevel(level).label)}


RULE_FIELDS = (
    "level",
    "flowers",
    "layout",
    "shuffles",
    "shuffle_penalty_seconds",
    "hints",
    "handicap",
    "show_matches",
    "time_limit_minutes",
    "idle_limit_seconds",
)


class Rules(models.Model):
    """The local rules (docs/RULES.md §Local rules and site defaults), shared by the site
    defaults and every room."""

    level = models.CharField(max_length=10, choices=Level, default=Level.EASY)
    flowers = models.BooleanField(_("flowers and seasons"), default=False)
    # "" races on the level's layout (the default); otherwise a layout picker's key, a
    # built-in layout's name or a stored layout's "U<id>" (layouts/library.py): everyone
    # gets one deal on it, dealt on demand, and the handicap does not apply
    # (docs/RULES.md §Local rules and site defaults).
    layout = models.CharField(_("layout"), max_length=16, blank=True, default="")
    shuffles = models.PositiveSmallIntegerField(default=3, validators=[MaxValueValidator(10)])
    shuffle_penalty_seconds = models.PositiveSmallIntegerField(
        _("shuffle penalty pause"), default=0, choices=SHUFFLE_PENALTIES
    )
    hints = models.PositiveSmallIntegerField(default=3, validators=[MaxValueValidator(10)])
    handicap = models.BooleanField(_("winner handicap"), default=False)
    # A helper the room may allow: the board lights the free tiles that match the
    # selected one (docs/RULES.md §Local rules and site defaults).
    show_matches = models.BooleanField(_("highlight matching tiles"), default=False)
    time_limit_minutes = models.PositiveSmallIntegerField(
        _("time limit"), default=10, choices=TIME_LIMITS
    )
    idle_limit_seconds = models.PositiveSmallIntegerField(
        _("idle limit"), default=0, choices=IDLE_LIMITS
    )

    class Meta:
        abstract = True

    def rules(self) -> dict:
        return {name: getattr(self, name) for name in RULE_FIELDS}


class SiteDefaults(Rules):
    """The rules a new room starts from; one row, edited by admins."""

    class Meta:
        verbose_name = verbose_name_plural = "site defaults"

    def __str__(self):
        return "Site defaults"

    @classmethod
    def load(cls) -> "SiteDefaults":
        """The admins' row (made by a migration); the built-in defaults, unsaved, if an
        admin deleted it. Reading never writes."""
        return cls.objects.filter(pk=1).first() or cls(pk=1)


def new_room_code() -> str:
    return "".join(secrets.choice(ROOM_CODE_LETTERS) for _ in range(ROOM_CODE_LENGTH))


def room_code(text) -> str:
    """`text` as a room code (upper case), or "" when it cannot be one, so a lookup finds
    no room instead of failing: PostgreSQL refuses a NUL character in a query outright."""
    code = str(text).strip().upper()
    return code if code.isascii() and code.isalnum() and len(code) <= ROOM_CODE_LENGTH else ""


class Room(Rules):
    code = models.CharField(max_length=ROOM_CODE_LENGTH, unique=True, default=new_room_code)
    owner = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="owned_rooms")
    created_at = models.DateTimeField(auto_now_add=True)
    # Every event sent to the room carries the next version (docs/ARCHITECTURE.md
    # §Versioned events); rooms.core.room.advance_version is its one write.
    version = models.PositiveBigIntegerField(default=0)
    # Formed by the ranked queue (rooms/ranked/actions.py): fixed rules, humans only, no owner
    # actions, the race starts by itself and is rated when it ends.
    ranked = models.BooleanField(default=False)
    # Listed on /rooms/ for anyone to join while in its lobby; private (link only) by default.
    public = models.BooleanField(default=False)
    # Run by another domain (an arena, arenas/): fixed rules, no owner's tools, joined
    # only through that domain, its one race started by it (player None). Rooms never
    # learn which domain: it links its races to them on its own side (arenas.ArenaRace).
    hosted = models.BooleanField(default=False)
    # When the owner offered another game after a race: the rematch's ready check runs
    # from then (docs/RULES.md §Races); None when no offer is open.
    offer_at = models.DateTimeField(null=True, blank=True)
    # A public quick race of "Race now" (rooms/quick/actions.py): fixed rules, no owner
    # actions, unrated; it starts by itself at `quick_starts_at` (None once started).
    quick = models.BooleanField(default=False)
    quick_starts_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # Two clicks at once never open two waiting quick races of one level.
            models.UniqueConstraint(
                fields=["level"],
                condition=models.Q(quick=True, quick_starts_at__isnull=False),
                name="one_waiting_quick_room_per_level",
            )
        ]

    def __str__(self):
        return self.code

    def next_race_number(self) -> int:
        """The number the room's next race will have (races are numbered from 1)."""
        return self.races.count() + 1

    def current_race(self):
        """The room's latest race: the highest number (rooms/core/hot_sql.py reads it alike)."""
        return self.races.order_by(f"-{Race.ORDER}").first()


class Seat(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="seats"
    )
    nickname = models.CharField(max_length=NICKNAME_MAX_LENGTH)
    cpu_level = models.CharField(max_length=10, choices=CpuLevel, blank=True)
    # A CPU seat's number in its room ("CPU 2"): its name is made from the number and the
    # level in the reader's language (`name`); `nickname` keeps the English one.
    cpu_number = models.PositiveSmallIntegerField(null=True, blank=True)
    # A player who chose no name sits as "Player 12": the number, named in the reader's
    # language where shown (`name`, `for_player`); `nickname` keeps the English name.
    guest_number = models.PositiveIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    # Refreshed while a socket of the seat is open; a seat not seen for the grace is
    # away and a CPU plays it (docs/RULES.md §Leaving). A timestamp survives a crash.
    last_seen_at = models.DateTimeField(null=True, blank=True)
    win_streak = models.PositiveSmallIntegerField(default=0)  # for the winner handicap
    # The number of the next race this seat's player said "Ready" for (a rematch).
    ready_for = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["room", "player"],
                name="one_seat_per_player_and_room",
                condition=models.Q(player__isnull=False),
            )
        ]
        ordering = ["pk"]

    def __str__(self):
        return self.nickname

    @classmethod
    def new_cpu(cls, room: Room, number: int, level: str) -> "Seat":
        """A CPU seat: named in English in the row, in each reader's language where shown."""
        with translation.override("en"):
            nickname = cpu_name(number, level)
        return cls.objects.create(room=room, nickname=nickname, cpu_level=level, cpu_number=number)

    @classmethod
    def for_player(cls, room: Room, player: Player, **fields) -> "Seat":
        """`player`'s seat under the name they chose; one who chose none is numbered,
        named "Player 12" in the row and in each reader's language where shown."""
        if player.nickname:
            return cls.objects.create(room=room, player=player, nickname=player.nickname, **fields)
        with translation.override("en"):
            nickname = guest_name(player.pk)
        return cls.objects.create(
            room=room, player=player, nickname=nickname, guest_number=player.pk, **fields
        )

    @property
    def is_cpu(self) -> bool:
        return bool(self.cpu_level)

    @property
    def name(self) -> str:
        """The seat's name as shown now: a player's nickname, a CPU's or a nameless
        player's in the active language."""
        return seat_name(self.nickname, self.cpu_level, self.cpu_number, self.guest_number)


def seat_name(
    nickname: str, cpu_level: str | None, cpu_number: int | None, guest_number: int | None = None
) -> str:
    """Seat.name from a seat's columns (for rows read as values)."""
    if cpu_level and cpu_number:
        return cpu_name(cpu_number, cpu_level)
    if guest_number:
        return guest_name(guest_number)
    return nickname


class Race(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running"  # counting down until go_at, then playing
        FINISHED = "finished"

    ORDER = "number"  # a room's races in the order they ran: the latest has the highest

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="races")
    number = models.PositiveIntegerField()
    rules = models.JSONField()  # the room's rules when it started: edits don't reach it
    status = models.CharField(max_length=10, choices=Status, default=Status.RUNNING)
    started_at = models.DateTimeField()
    go_at = models.DateTimeField()
    time_limit_at = models.DateTimeField()
    cut_off_at = models.DateTimeField(db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="race_number_per_room")
        ]
        # The race boards of a day, week or month (records/leaderboards.py).
        indexes = [models.Index(fields=["finished_at"], name="race_finished")]

    def __str__(self):
        return f"{self.room.code} #{self.number}"


class Entry(ranking.HasStanding, models.Model):
    """One seat's board in one race."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        OUT = "out", _("Out")  # blocked with no shuffle left
        GAVE_UP = "gave_up", _("Gave Up")

    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="entries")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="entries")
    level = models.CharField(max_length=10, choices=Level)
    code = models.CharField(max_length=20)
    faces = models.JSONField()  # current face of every tile (a shuffle changes them)
    positions = models.JSONField(null=True, blank=True)  # only once a shuffle moved tiles
    alive = models.CharField(max_length=64)  # hex bitmask of the tiles still on the table
    tile_count = models.PositiveSmallIntegerField()
    pairs_removed = models.PositiveSmallIntegerField(default=0)
    # Of those, the pairs a CPU made: all of a CPU seat's, and a stand-in's on a human's
    # board. A human's race counts as theirs only when this is 0 (docs/RULES.md §Leaving).
    cpu_pairs = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status, default=Status.PLAYING)
    finished_ms = models.PositiveBigIntegerField(null=True, blank=True)  # from go to the end
    hints_used = models.PositiveSmallIntegerField(default=0)
    shuffles_used = models.PositiveSmallIntegerField(default=0)
    penalty_until = models.DateTimeField(null=True, blank=True)
    last_action_at = models.DateTimeField(null=True, blank=True)
    # The human's own last pair (a stand-in's do not count): the pace floor's reference.
    last_human_pair_at = models.DateTimeField(null=True, blank=True)
    cpu_control = models.BooleanField(default=False)  # a CPU plays for an absent human
    # The last CPU step taken on this board: a step runs only as cpu_step + 1, so a
    # duplicate delivery of a task (or a second chain) finds it taken and does nothing.
    cpu_step = models.PositiveIntegerField(default=0)
    cpu_kicked_at = models.DateTimeField(null=True, blank=True)  # last (re)start of a chain
    # Inhuman pace (mahjong/race_rules/pace.py), found when the race ends: the result stays in the
    # race, but off every board and rating until an admin clears it (or voids it).
    pace_flagged = models.BooleanField(default=False)
    pace_median_ms = models.PositiveIntegerField(null=True, blank=True)
    pace_spread = models.FloatField(null=True, blank=True)
    voided = models.BooleanField(default=False)  # by an admin: never on a board or rating
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["race", "seat"], name="one_entry_per_seat_and_race")
        ]
        verbose_name_plural = "entries"
        # The race boards walk a level's clean finishes fastest first
        # (records/leaderboards.py, docs/PERFORMANCE.md §Leaderboards by period).
        indexes = [
            models.Index(
                fields=["level", "finished_ms"],
                name="entry_clean_level_time",
                condition=models.Q(
                    status="finished", cpu_pairs=0, pace_flagged=False, voided=False
                ),
            )
        ]

    def __str__(self):
        return f"{self.race} · {self.seat}"

    # What the sweeper asks of a board (rooms/sweeper.py); the seat and race are loaded.
    @property
    def cpu_plays(self) -> bool:
        """A CPU plays this board: a CPU seat, or a stand-in for an absent human."""
        return self.seat.is_cpu or self.cpu_control

    def away_or_idle(self, now, last_one_playing: bool = False) -> bool:
        """The human is gone: no socket seen for the grace, no move for the room's idle
        limit, or, being the last human still playing, none for LAST_PLAYER_IDLE
        (docs/RULES.md §Leaving)."""
        if self.cpu_plays:
            return False
        go_at = self.race.go_at
        grace = timedelta(seconds=settings.DISCONNECT_GRACE_SECONDS)
        # A socket marks its seat seen every few seconds, except while the player makes
        # pairs: each pair's own time counts as seen (one write fewer per pair).
        seen = max(self.seat.last_seen_at or go_at, self.last_action_at or go_at)
        idle_limit = self.race.rules["idle_limit_seconds"]
        idle = now - (self.last_action_at or go_at)
        if last_one_playing and idle > LAST_PLAYER_IDLE:
            return True
        return now - seen > grace or bool(idle_limit and idle > timedelta(seconds=idle_limit))

    def stalled(self, now) -> bool:
        """The CPU's chain of steps has been silent too long (a worker died)."""
        go_at = self.race.go_at
        last = max(self.last_action_at or go_at, self.cpu_kicked_at or go_at)
        return now - last > timedelta(seconds=settings.CPU_STALL_SECONDS)


class Move(models.Model):
    """Every pair removed and every shuffle, with its time: the data for replays."""

    class Kind(models.TextChoices):
        PAIR = "pair"
        SHUFFLE = "shuffle"

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()  # pairs removed before it
    kind = models.CharField(max_length=10, choices=Kind, default=Kind.PAIR)
    tiles = models.JSONField(null=True, blank=True)  # [i, j] for a pair
    # A shuffle's seed: the engine deals the same rearrangement again from it, so a
    # replay shows the very board the player got (docs/ARCHITECTURE.md §Replays).
    seed = models.PositiveBigIntegerField(null=True, blank=True)
    at = models.DateTimeField()
    by_cpu = models.BooleanField(default=False)

    class Meta:
        ordering = ["pk"]
        constraints = [
            # The database itself refuses a doubled pair, whatever path it came by.
            models.UniqueConstraint(
                fields=["entry", "number"],
                condition=models.Q(kind="pair"),
                name="one_pair_per_number",
            )
        ]


class PooledDeal(models.Model):
    """A ready deal for a level, graded by playing it (mahjong/race_rules/grading.py), waiting to be
    taken by the next race at that level (rooms/pools/actions.py)."""

    level = models.CharField(max_length=10, choices=Level)
    flowers = models.BooleanField(default=False)
    code = models.CharField(max_length=20, unique=True)
    score = models.FloatField()  # 0 forgiving .. 1 punishing
    first_pairs = models.PositiveSmallIntegerField()
    winning_first_pairs = models.PositiveSmallIntegerField()
    dead_end_rate = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["level", "flowers", "id"])]

    def __str__(self):
        return f"{self.code} ({self.level}, {self.score:.2f})"


class QueueEntry(models.Model):
    """A player waiting in the ranked queue of one level (rooms/ranked/actions.py writes it)."""

    # One queue at a time: joining another level moves the player there.
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="queue_entry")
    level = models.CharField(max_length=10, choices=Level)
    joined_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        verbose_name_plural = "queue entries"

    def __str__(self):
        return f"{self.player} · {self.level}"
