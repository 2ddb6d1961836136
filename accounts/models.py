import secrets

from django.conf import settings
from django.db import models

NICKNAME_MAX_LENGTH = 24


def new_device_token() -> str:
    return secrets.token_urlsafe(32)


class Player(models.Model):
    """Someone playing from a device: no sign-up, a nickname and a device token.

    The token lives in a signed, HttpOnly cookie; records, statistics and seats hang on
    the player. Signing in later attaches the player to an account.
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
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return self.nickname or f"Player {self.pk}"
