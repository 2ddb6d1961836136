"""Messages from the engine and the live socket reach players in their language: the
engine stays free of Django and its reasons are translated at the boundary."""

import pytest
from channels.testing import WebsocketCommunicator
from django.utils import translation

from config.asgi import application
from infra import language
from mahjong import reasons
from mahjong.engine.deal import deal_from_code
from tests.practice.practice_helpers import BEGINNER_CODE
from tests.rooms.rooms_helpers import HOST, ORIGIN, cookie_for, room_with


def a_blocked_tile_reason() -> str:
    position = deal_from_code(BEGINNER_CODE).start()
    free = set(position.free_tiles())
    blocked = next(i for i in range(len(position.faces)) if i not in free)
    ok, reason = position.can_remove(blocked, next(iter(free)))
    assert not ok
    return reason


def test_a_real_blocked_tile_reason_is_translated_into_spanish():
    reason = a_blocked_tile_reason()
    with translation.override("es"):
        spanish = reasons.translate(reason)
    assert spanish.startswith("la ficha ") and "no está libre" in spanish
    assert "covered" not in spanish and "both sides" not in spanish


def test_each_reason_shape_is_translated():
    with translation.override("es"):
        assert (
            reasons.translate("tile 5 is not free: covered by #7, #8 and blocked on both sides")
            == "la ficha 5 no está libre: con #7, #8 encima y con fichas a ambos lados"
        )
        assert reasons.translate("3D does not match R") == "3D no forma pareja con R"
        assert reasons.translate("tile 4 has already been removed") == (
            "la ficha 4 ya se ha retirado"
        )


def test_reasons_stay_english_in_english_and_unknown_ones_pass_through():
    reason = a_blocked_tile_reason()
    with translation.override("en"):
        assert reasons.translate(reason) == reason
    with translation.override("es"):
        assert reasons.translate("something new") == "something new"


@pytest.mark.parametrize(
    "cookie, accept, expected",
    [
        ("", "es-ES,es;q=0.9,en;q=0.5", "es"),
        ("", "fr-FR,fr;q=0.9", "en"),
        ("django_language=en", "es", "en"),
        ("django_language=es", "en", "es"),
    ],
)
def test_a_socket_takes_the_cookie_before_the_browser_language(cookie, accept, expected):
    scope = {
        "cookies": dict([cookie.split("=")]) if cookie else {},
        "headers": [(b"accept-language", accept.encode())],
    }
    assert language.from_scope(scope) == expected


@pytest.mark.django_db(transaction=True)
async def test_a_refusal_on_the_socket_comes_back_in_the_players_language():
    from asgiref.sync import sync_to_async

    room, (player,) = await sync_to_async(room_with)("Mei")
    headers = [ORIGIN, HOST, (b"cookie", cookie_for(player).encode())]
    headers.append((b"accept-language", b"es-ES,es;q=0.9"))
    ws = WebsocketCommunicator(application, f"/ws/rooms/{room.code}/", headers=headers)
    connected, _ = await ws.connect()
    assert connected
    await ws.send_json_to({"type": "hint", "id": 7})
    while (answer := await ws.receive_json_from(timeout=5)).get("id") != 7:
        pass
    assert answer["type"] == "error"
    assert answer["message"] == "no hay ninguna carrera en curso"
    await ws.disconnect()


# Channels closes stale database connections around every consumer message, the
# no-route consumer's too: with a connection left on that thread by an earlier test,
# that is database access, so this test is allowed it.
@pytest.mark.django_db
async def test_a_socket_at_an_unknown_address_is_told_so_in_the_players_language():
    headers = [ORIGIN, HOST, (b"accept-language", b"es-ES,es;q=0.9")]
    ws = WebsocketCommunicator(application, "/ws/nowhere/", headers=headers)
    connected, _ = await ws.connect()
    assert connected
    answer = await ws.receive_json_from(timeout=5)
    assert answer == {"type": "error", "code": "no_route", "message": "no existe esa dirección"}
    await ws.disconnect()
