"""Arenas (docs/RULES.md §Arenas): a window of play with fixed room rules, the schedules
admins edit, the players who joined, which races the arena owns and every race's score.

The table is the ArenaResult rows summed per player (arenas/scoring.py writes them and can
write them all again from the races); ArenaPlayer keeps the sums for a fast read."""

import secrets
from datetime import timedelta

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import NICKNAME_MAX_LENGTH, Player
from rooms.models import ROOM_CODE_LETTERS, RULE_FIELDS, Entry, Race, Rules

ARENA_CODE_LENGTH = 8
MIN_MINUTES, MAX_MINUTES = 10, 120
NAME_MAX_LENGTH = 60


def new_arena_code() -> str:
    return "".join(secrets.choice(ROOM_CODE_LETTERS) for _ in range(ARENA_CODE_LENGTH))


def arena_code(text) -> str:
    """`text` as an arena code, or "" when it cannot be one (a lookup then finds none)."""
    code = str(text).strip().upper()
    return code if code.isascii() and code.isalnum() and len(code) <= ARENA_CODE_LENGTH else ""


duration_validators = [MinValueValidator(MIN_MINUTES), MaxValueValidator(MAX_MINUTES)]


class ArenaSchedule(Rules):
    """A recurring public arena, edited by admins: "Easy, every hour at :00, 30 min";
    "Hard, daily 20:00 UTC, 60 min". The beat task creates each arena `ahead_minutes`
    before it starts (arenas/schedule.py)."""

    class Every(models.TextChoices):
        HOUR = "hour", _("every hour")
        DAY = "day", _("every day")

    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    every = models.CharField(max_length=4, choices=Every, default=Every.HOUR)
    at_hour = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(23)], help_text="UTC; daily arenas only"
    )
    at_minute = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(59)])
    minutes = models.PositiveSmallIntegerField(default=30, validators=duration_validators)
    ahead_minutes = models.PositiveSmallIntegerField(
        default=120, validators=[MaxValueValidator(24 * 60)], help_text="created this early"
    )
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self):
        return self.name


class Arena(Rules):
    class Status(models.TextChoices):
        UPCOMING = "upcoming", _("Upcoming")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")  # its window is over and its last race counted

    code = models.CharField(max_length=ARENA_CODE_LENGTH, unique=True, default=new_arena_code)
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    starts_at = models.DateTimeField(db_index=True)
    minutes = models.PositiveSmallIntegerField(default=30, validators=duration_validators)
    # Listed on /arenas/ and the home page; otherwise reached by its link (the code is the
    # secret: eight letters of 32, about 10^12).
    public = models.BooleanField(default=False)
    creator = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="arenas"
    )
    schedule = models.ForeignKey(
        ArenaSchedule, null=True, blank=True, on_delete=models.SET_NULL, related_name="arenas"
    )
    status = models.CharField(max_length=10, choices=Status, default=Status.UPCOMING)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # Two beats never make two arenas of one schedule at one time.
            models.UniqueConstraint(
                fields=["schedule", "starts_at"], name="one_arena_per_schedule_and_start"
            )
        ]
        ordering = ["starts_at", "pk"]

    def __str__(self):
        return f"{self.name} ({self.code})"

    @property
    def ends_at(self):
        return self.starts_at + timedelta(minutes=self.minutes)

    def race_rules(self) -> dict:
        return {name: getattr(self, name) for name in RULE_FIELDS}


class ArenaPlayer(models.Model):
    class State(models.TextChoices):
        PAUSED = "paused", _("Paused")
        WAITING = "waiting", _("Waiting")
        RACING = "racing", _("Racing")

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="players")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="arena_places")
    nickname = models.CharField(max_length=NICKNAME_MAX_LENGTH)
    joined_at = models.DateTimeField(auto_now_add=True)
    state = models.CharField(max_length=10, choices=State, default=State.PAUSED)
    waiting_since = models.DateTimeField(null=True, blank=True)
    # Drop hints and shuffles before "go" in the next races (+1 on finishing).
    all_in = models.BooleanField(default=False)
    # The sums of the player's ArenaResult rows (arenas/scoring.py keeps them).
    points = models.PositiveIntegerField(default=0)
    races = models.PositiveIntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)  # top-half races in a row
    share_total = models.FloatField(default=0)  # for the tie-break: the average share
    best_ms = models.PositiveBigIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["arena", "player"], name="one_place_per_arena")
        ]
        indexes = [models.Index(fields=["arena", "state"])]

    def __str__(self):
        return f"{self.nickname} · {self.arena.code}"

    @property
    def average_share(self) -> float:
        return self.share_total / self.races if self.races else 0.0


class ArenaRace(models.Model):
    """A race the arena owns: an ordinary room's race (Room.hosted), linked from here so
    rooms never know arenas."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="arena_races")
    race = models.OneToOneField(Race, on_delete=models.CASCADE, related_name="arena_race")
    created_at = models.DateTimeField(auto_now_add=True)
    # The seats that went all in before "go".
    all_in_seats = models.JSONField(default=list)
    scored_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"{self.arena.code} · {self.race}"


class ArenaResult(models.Model):
    """One human's score in one arena race (docs/RULES.md §Arenas)."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="results")
    arena_race = models.ForeignKey(ArenaRace, on_delete=models.CASCADE, related_name="results")
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="arena_result")
    arena_player = models.ForeignKey(ArenaPlayer, on_delete=models.CASCADE, related_name="results")
    points = models.PositiveSmallIntegerField(default=0)
    share = models.FloatField(null=True, blank=True)  # None: no human opponent
    top_half = models.BooleanField(default=False)
    streak_applied = models.BooleanField(default=False)  # the points were doubled
    all_in = models.BooleanField(default=False)
    finished_in_time = models.BooleanField(default=False)
    flagged = models.BooleanField(default=False)  # scored 0 until an admin clears it
    stand_in = models.BooleanField(default=False)  # a stand-in played: given up at own progress
    finished_ms = models.PositiveBigIntegerField(null=True, blank=True)
    ended_at = models.DateTimeField()

    class Meta:
        ordering = ["ended_at", "pk"]

    def __str__(self):
        return f"{self.arena_player} · {self.points}"
