from django.db import models
from django.utils import timezone

from accounts.models import Player


class SoloGame(models.Model):
    """One solo practice game of one player (docs/RULES.md §Solo play).

    The deal is named by its game code (codes are stable forever), so the faces are
    not stored. `moves` is the stack of pairs removed so far, undo pops it. The clock
    is `elapsed_ms` plus the time since `running_since` while the clock runs.
    """

    class Status(models.TextChoices):
        PLAYING = "playing"
        WON = "won"
        ABANDONED = "abandoned"  # replaced by a new game before it was won

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="solo_games")
    code = models.CharField(max_length=20)
    # The built-in layout's number; None on a stored layout, named by the code's
    # `MJ1-U<id>-` (docs/LAYOUTS.md §Stored layouts).
    layout_number = models.PositiveSmallIntegerField(null=True, blank=True)
    tile_count = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status, default=Status.PLAYING)
    moves = models.JSONField(default=list)
    # The game clock (ms, pauses left out) at each pair of `moves`, for its replay
    # (docs/ARCHITECTURE.md §Replays); undo pops both.
    move_ms = models.JSONField(default=list)
    hints_used = models.PositiveIntegerField(default=0)
    # The player had seen this deal before (a game or a race board of the same code, on
    # this device or account: mahjong.sightings): a win of it is practice, never a
    # record (docs/RULES.md §Records and boards).
    seen_before = models.BooleanField(default=False)
    undos_used = models.PositiveIntegerField(default=0)
    elapsed_ms = models.PositiveBigIntegerField(default=0)
    running_since = models.DateTimeField(null=True, blank=True)
    # The page that shows the game: each page served counts one up. A pause names its
    # page, so one sent by a page being left (a reload) that arrives after the new page
    # was served is ignored (docs/PRACTICE.md §The server is the referee).
    page = models.PositiveIntegerField(default=0)
    # When the last pair was played (wall clock): the pace floor's reference.
    last_pair_at = models.DateTimeField(null=True, blank=True)
    # Won at an inhuman pace (mahjong/race_rules/pace.py): off every table until an admin clears it
    # (docs/RULES.md §Fair play), with the figures that showed it.
    pace_flagged = models.BooleanField(default=False)
    pace_median_ms = models.PositiveIntegerField(null=True, blank=True)
    pace_spread = models.FloatField(null=True, blank=True)
    # Some of its moves waited on the page while the connection was down and reached the
    # server later (docs/PRACTICE.md §Offline): its pace was not refereed, so it is on
    # no table (CLEAN), whatever its time.
    played_offline = models.BooleanField(default=False)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    time_ms = models.PositiveBigIntegerField(null=True, blank=True)  # winning time
    # A ghost race (docs/RULES.md §Ghost races): the deal of a replay, raced against its
    # recorded pairs. Seen before by definition, so never a record, and no daily attempt.
    ghost = models.BooleanField(default=False)

    class Meta:
        # Made by the "mahjong" app before practice had an app of its own: the table and
        # its indexes keep their names (practice/migrations/0001_initial.py).
        db_table = "mahjong_sologame"
        indexes = [
            models.Index(fields=["player", "status"], name="mahjong_sol_player__960af8_idx"),
            models.Index(
                fields=["player", "layout_number", "time_ms"], name="mahjong_sol_player__557c2f_idx"
            ),
            # The leaderboards by period (records/leaderboards.py, docs/PERFORMANCE.md):
            # clean wins fastest first per layout (all time), clean wins by when they
            # ended (a day, week or month), a day's deal by when its games started (the
            # daily challenge), and the daily layout's first game (all time's first day).
            models.Index(
                fields=["layout_number", "time_ms", "finished_at"],
                name="sologame_clean_layout_time",
                condition=models.Q(
                    status="won", hints_used=0, seen_before=False, pace_flagged=False
                ),
            ),
            models.Index(
                fields=["finished_at"],
                name="sologame_clean_finished",
                condition=models.Q(
                    status="won", hints_used=0, seen_before=False, pace_flagged=False
                ),
            ),
            models.Index(fields=["code", "started_at"], name="sologame_code_started"),
            models.Index(fields=["layout_number", "started_at"], name="sologame_layout_started"),
        ]

    def __str__(self):
        return f"{self.code} ({self.status})"

    # A win that may stand as a record: no hint, the player's first sight of the deal,
    # a human's pace (no standing pace flag), refereed as it was played (not offline).
    CLEAN = models.Q(hints_used=0, seen_before=False, pace_flagged=False, played_offline=False)

    @property
    def clean(self) -> bool:
        return (
            self.hints_used == 0
            and not self.seen_before
            and not self.pace_flagged
            and not self.played_offline
        )

    def clock_ms(self, now=None) -> int:
        if self.running_since is None:
            return self.elapsed_ms
        now = now or timezone.now()
        return self.elapsed_ms + max(0, int((now - self.running_since).total_seconds() * 1000))

    def same_layout(self) -> models.Q:
        """Games on this game's layout: a built-in's number, or a stored layout's code
        prefix `MJ1-U<id>-` or `MJ2-U<id>-` (stored layouts have no number; docs/ENGINE.md
        §Game codes)."""
        if self.layout_number is not None:
            return models.Q(layout_number=self.layout_number)
        stored = self.code.split("-")[1]  # "U<id>": MJ1 and MJ2 codes on it alike
        prefixes = models.Q(code__startswith=f"MJ1-{stored}-") | models.Q(
            code__startswith=f"MJ2-{stored}-"
        )
        return models.Q(prefixes, layout_number=None)

    @classmethod
    def best_win_ms(cls, player, layout: int | models.Q, exclude_pk=None) -> int | None:
        """The player's record on this layout (a built-in's number, or `same_layout()`):
        their fastest clean win (leaving out one game, to compare)."""
        if not isinstance(layout, models.Q):
            layout = models.Q(layout_number=layout)
        wins = cls.objects.filter(cls.CLEAN, layout, player=player, status=cls.Status.WON)
        wins = wins.exclude(pk=exclude_pk)
        return wins.aggregate(best=models.Min("time_ms"))["best"]

    @property
    def paused(self) -> bool:
        return self.status == self.Status.PLAYING and self.running_since is None
