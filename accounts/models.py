import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext as _

from mahjong.race_rules import ratings

NICKNAME_MAX_LENGTH = 24


def guest_name(number) -> str:
    """The name of a player who chose none, from their number, in the active language:
    "Player 12", "Jugador 12". `number` may be a placeholder ("{n}": a page's script
    fills it in, rooms.views.race_strings)."""
    return _("Player %(n)s") % {"n": number}


def new_device_token() -> str:
    return secrets.token_urlsafe(32)


class Player(models.Model):
    """Someone playing from a device: no sign-up, a nickname and a device token.

    The token lives in a signed, HttpOnly cookie; records, statistics and seats hang on
    the player. Signing in attaches the player to an account, or merges it into the
    account's player (one per account) and keeps it as an empty husk, `merged_into`.
    """

    device_token = models.CharField(max_length=64, unique=True, default=new_device_token)
    nickname = models.CharField(max_length=NICKNAME_MAX_LENGTH, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="merged_devices",
        help_text="The account's player this device's records were moved to.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(auto_now=True)
    # Set by an admin voiding a result played at an inhuman pace (docs/RULES.md §Fair play).
    banned_from_ranked = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=Q(user__isnull=False), name="one_player_per_account"
            ),
        ]

    def __str__(self):
        return self.display_name

    @property
    def display_name(self) -> str:
        return self.nickname or guest_name(self.pk)

    @property
    def has_account(self) -> bool:
        return self.user_id is not None


class Rating(models.Model):
    """A player's current Glicko-2 rating for ranked races (docs/RULES.md §Ranked play and
    ratings, docs/ACCOUNTS.md §Ratings); see mahjong/race_rules/ratings.py. `value` is the mean."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    value = models.FloatField(default=ratings.START_RATING)
    deviation = models.FloatField(default=ratings.START_DEVIATION)
    volatility = models.FloatField(default=ratings.START_VOLATILITY)
    games = models.PositiveIntegerField(default=0)
    rated_at = models.DateTimeField(null=True, blank=True, help_text="The last rated race.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["-value"])]

    def __str__(self):
        return f"{self.player}: {self.shown}{'?' if self.provisional else ''}"

    @property
    def shown(self) -> int:
        return round(self.value)

    @property
    def provisional(self) -> bool:
        return ratings.is_provisional(self.deviation)

    @property
    def glicko(self) -> ratings.Glicko:
        return ratings.Glicko(self.value, self.deviation, self.volatility)


class RatingChange(models.Model):
    """One rated race of one player: the history behind a Rating, never edited."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    before = models.FloatField()
    after = models.FloatField()
    # The deviation before and after this race (null for races the Elo rated).
    deviation_before = models.FloatField(null=True, blank=True)
    deviation = models.FloatField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(help_text="1 is first; tied players share it.")
    field_size = models.PositiveSmallIntegerField(help_text="Human players in the race.")
    # The rooms.Race this came from (its primary key). A number, not a foreign key, so
    # accounts' migrations stay independent of rooms'; the admin links it to the race.
    race_ref = models.PositiveBigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["player", "race_ref"], name="one_change_per_race"),
        ]
        indexes = [
            models.Index(fields=["player", "created_at"]),
            # The ratings board of a day, week or month (records/leaderboards.py).
            models.Index(fields=["created_at"], name="ratingchange_created"),
        ]

    def __str__(self):
        return f"{self.player}: {round(self.before)} → {round(self.after)}"

    @property
    def delta(self) -> float:
        return self.after - self.before

    @property
    def shown_delta(self) -> int:
        """The change as shown: the difference of the shown (rounded) ratings."""
        return round(self.after) - round(self.before)

    @property
    def signed_delta(self) -> str:
        """ "+16", "−8" (a true minus sign), "0": how a change reads beside a race."""
        delta = self.shown_delta
        return f"+{delta}" if delta > 0 else f"−{-delta}" if delta < 0 else "0"

    @property
    def provisional(self) -> bool:
        return self.deviation is not None and ratings.is_provisional(self.deviation)
