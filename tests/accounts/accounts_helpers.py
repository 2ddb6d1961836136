"""Named helpers for accounts tests: players, accounts and finished games made directly."""

import datetime
import uuid

from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.identity import COOKIE_NAME, token_from_cookie
from accounts.models import Player
from practice.models import SoloGame
from tests.practice.practice_helpers import BEGINNER_CODE

PASSWORD = "tile-pairs-4-ever"
# The real hasher takes a good fraction of a second per guess, by design; the throttle
# tests make dozens of them.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_account(username="mei", password=PASSWORD, email="mei@example.org"):
    return get_user_model().objects.create_user(username, email=email, password=password)


def at_noon(day: datetime.date) -> datetime.datetime:
    """Midday UTC of `day`: safely inside that day's daily challenge."""
    return datetime.datetime.combine(day, datetime.time(12), tzinfo=datetime.UTC)


def won_game(player, time_ms, code=BEGINNER_CODE, layout_number=1, started_at=None, hints=0):
    started_at = started_at or timezone.now() - datetime.timedelta(seconds=time_ms / 1000)
    return SoloGame.objects.create(
        player=player,
        code=code,
        layout_number=layout_number,
        tile_count=34,
        status=SoloGame.Status.WON,
        moves=[[0, 1]],
        elapsed_ms=time_ms,
        time_ms=time_ms,
        hints_used=hints,
        started_at=started_at,
        finished_at=started_at + datetime.timedelta(milliseconds=time_ms),
    )


def playing_game(player, code=BEGINNER_CODE, started_at=None):
    return SoloGame.objects.create(
        player=player,
        code=code,
        layout_number=1,
        tile_count=34,
        started_at=started_at or timezone.now(),
        running_since=timezone.now(),
    )


def device_player(client) -> Player:
    """The player behind a test client's device cookie (it must have one)."""
    return Player.objects.get(device_token=token_from_cookie(client.cookies[COOKIE_NAME].value))


def log_in(client, username="mei", password=PASSWORD, **extra):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


class FakeClock:
    """A clock the test moves by hand: the throttle never makes a test sleep."""

    def __init__(self, now=1_000_000.0):
        self.now = now

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


def fresh_throttle_prefix() -> str:
    """A key prefix of its own on the real Redis, so no count leaks between tests."""
    return f"test-{uuid.uuid4().hex}:"


def use_fresh_throttle(monkeypatch):
    """The login form's throttle on a fresh cache and a fake clock (`throttle.clock`)."""
    from accounts.forms import ThrottleMixin
    from accounts.throttle import LoginThrottle

    fresh = LoginThrottle(prefix=fresh_throttle_prefix(), clock=FakeClock())
    monkeypatch.setattr(ThrottleMixin, "throttle", fresh)
    return fresh
