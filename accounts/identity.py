"""Who is playing: the player behind a request's device-token cookie.

The token is a long random string in a signed, HttpOnly cookie. A visitor gets one the
first time a page needs a player (not on every request, so crawlers make no rows).
A websocket cannot set cookies, so pages set it before any socket opens; the socket
reads it from its scope. Both sides sign and check it with the one signer below (not
Django's signed-cookie helpers, whose salt scheme changes between releases).
"""

from django.conf import settings
from django.core import signing

from accounts.models import Player

COOKIE_NAME = "mj_device"
COOKIE_MAX_AGE = 2 * 365 * 24 * 60 * 60
_signer = signing.TimestampSigner(salt="accounts.device-token")


def sign_device_token(token: str) -> str:
    return _signer.sign(token)


def device_token_from_cookie(value: str | None) -> str | None:
    """The token in a cookie value, or None when it is missing, forged or too old."""
    if not value:
        return None
    try:
        return _signer.unsign(value, max_age=COOKIE_MAX_AGE)
    except signing.BadSignature:
        return None


def _player_with_token(token: str | None) -> Player | None:
    return Player.objects.filter(device_token=token).first() if token else None


def player_for_request(request) -> Player | None:
    """The request's player, or None when it has no valid device token."""
    if not hasattr(request, "_player"):
        token = device_token_from_cookie(request.COOKIES.get(COOKIE_NAME))
        request._player = _player_with_token(token)
    return request._player


def ensure_player(request) -> Player:
    """The request's player, created when the device has none (or a forged token)."""
    player = player_for_request(request)
    if player is None:
        player = Player.objects.create()
        request._player = player
    return player


def player_from_scope(scope) -> Player | None:
    """The player of a websocket connection, from the cookie its page set."""
    token = device_token_from_cookie(scope.get("cookies", {}).get(COOKIE_NAME))
    return _player_with_token(token)


class DeviceCookieMiddleware:
    """Sets (and refreshes) the device cookie on responses to requests that had a player."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        player = getattr(request, "_player", None)
        if player is not None:
            response.set_cookie(
                COOKIE_NAME,
                sign_device_token(player.device_token),
                max_age=COOKIE_MAX_AGE,
                httponly=True,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response
