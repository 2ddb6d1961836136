"""Who is playing: the player behind a request's device-token cookie.

The token is a long random string in a signed, HttpOnly cookie. A visitor gets one the
first time a page needs a player (not on every request, so crawlers make no rows).
A websocket cannot set cookies, so pages set it before any socket opens.
"""

from django.conf import settings
from django.core import signing

from accounts import actions
from accounts.models import Player

COOKIE_NAME = "mj_device"
COOKIE_SALT = "accounts.device-token"
COOKIE_MAX_AGE = 2 * 365 * 24 * 60 * 60


def player_for_request(request) -> Player | None:
    """The request's player, or None when it has no valid device token."""
    if hasattr(request, "_player"):
        return request._player
    token = token_from_cookie(request.COOKIES.get(COOKIE_NAME))
    request._player = Player.objects.filter(device_token=token).first() if token else None
    return request._player


def ensure_player(request) -> Player:
    """The request's player, created when the device has none (or a forged token).

    When someone is signed in, it is always the account's player: a device cookie that
    does not match (signed in through the admin, or the cookie was cleared) is merged
    or replaced, so records never land beside the account.
    """
    player = player_for_request(request)
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        if player is None or player.user_id != user.pk:
            player = use_player(request, actions.sign_in_device(user, player))
    elif player is None:
        player = use_player(request, actions.new_player())
    return player


def use_player(request, player: Player) -> Player:
    """From now on the request (and the device cookie set on its response) is `player`."""
    request._player = player
    return player


def forget_device(request, response) -> None:
    """After signing out: the device plays as a new anonymous player from its next page."""
    request._player = None
    response.delete_cookie(COOKIE_NAME, samesite="Lax")


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
                signed_token(player.device_token),
                max_age=COOKIE_MAX_AGE,
                httponly=True,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response


def player_from_scope(scope) -> Player | None:
    """The player of a websocket connection, from the cookie its page set."""
    token = token_from_cookie(scope.get("cookies", {}).get(COOKIE_NAME))
    return Player.objects.filter(device_token=token).first() if token else None


# One signer for HTTP requests and websocket scopes alike. (Django 6.1 changed the salt
# of set_signed_cookie, and a scope has no request to call get_signed_cookie on.)
def _signer() -> signing.Signer:
    return signing.Signer(salt=COOKIE_SALT)


def signed_token(token: str) -> str:
    return _signer().sign(token)


def token_from_cookie(raw: str | None) -> str | None:
    """The device token in a cookie value, or None when missing or forged."""
    if not raw:
        return None
    try:
        return _signer().unsign(raw)
    except signing.BadSignature:
        return None
