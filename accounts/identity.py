"""Who is playing: the player behind a request's device-token cookie.

The token is a long random string in a signed, HttpOnly cookie. A visitor gets one the
first time a page needs a player (not on every request, so crawlers make no rows).
A websocket cannot set cookies, so pages set it before any socket opens.
"""

from django.conf import settings
from django.core import signing

from accounts.models import Player

COOKIE_NAME = "mj_device"
COOKIE_SALT = "accounts.device-token"
COOKIE_MAX_AGE = 2 * 365 * 24 * 60 * 60


def player_for_request(request) -> Player | None:
    """The request's player, or None when it has no valid device token."""
    if hasattr(request, "_player"):
        return request._player
    token = request.get_signed_cookie(COOKIE_NAME, default=None, salt=COOKIE_SALT)
    request._player = Player.objects.filter(device_token=token).first() if token else None
    return request._player


def ensure_player(request) -> Player:
    """The request's player, created when the device has none (or a forged token)."""
    player = player_for_request(request)
    if player is None:
        player = Player.objects.create()
        request._player = player
    return player


class DeviceCookieMiddleware:
    """Sets (and refreshes) the device cookie on responses to requests that had a player."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        player = getattr(request, "_player", None)
        if player is not None:
            response.set_signed_cookie(
                COOKIE_NAME,
                player.device_token,
                salt=COOKIE_SALT,
                max_age=COOKIE_MAX_AGE,
                httponly=True,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response


def player_from_scope(scope) -> Player | None:
    """The player of a websocket connection, from the cookie its page set."""
    raw = scope.get("cookies", {}).get(COOKIE_NAME)
    if not raw:
        return None
    try:
        token = signing.get_cookie_signer(salt=COOKIE_NAME + COOKIE_SALT).unsign(raw)
    except signing.BadSignature:
        return None
    return Player.objects.filter(device_token=token).first()
