"""The language of a websocket connection: the same choice LocaleMiddleware makes for a
page (the language cookie, then the browser's Accept-Language), read from the scope."""

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header


def _supported(code: str) -> str | None:
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def from_scope(scope) -> str:
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    if cookie and _supported(cookie):
        return _supported(cookie)
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accept):
        if code != "*" and _supported(code):
            return _supported(code)
    return settings.LANGUAGE_CODE
