"""Every page speaks Spanish and English: the language comes from the browser, a choice
made with the switcher is remembered, and players' error messages follow it."""

import json
import re

import pytest
from django.conf import settings

from accounts.models import Player
from tests.rooms.rooms_helpers import room_with

pytestmark = pytest.mark.django_db

# (path, a phrase of that page in English, the same in Spanish)
PAGES = [
    ("/", "Play now", "Jugar ahora"),
    ("/play/", "New game", "Partida nueva"),
    ("/records/", "Your records", "Tus récords"),
    ("/rooms/", "Create a room", "Crear una sala"),
    ("/ranked/", "Join the queue", "Unirse a la cola"),
    ("/rules/", "Frequently asked questions", "Preguntas frecuentes"),
    ("/learn/", "Skip the tutorial", "Saltar el tutorial"),
    ("/leaderboards/", "Daily challenge", "Reto diario"),
    ("/me/", "Recent races", "Carreras recientes"),
    ("/accounts/login/", "Forgot your password?", "¿Has olvidado tu contraseña?"),
    ("/accounts/signup/", "Already have an account?", "¿Ya tienes cuenta?"),
    ("/accounts/password-reset/", "Send the link", "Enviar el enlace"),
    ("/status/", "Live connection", "Conexión en directo"),
]


def page_text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


@pytest.mark.parametrize("path, english, spanish", PAGES)
def test_each_page_renders_in_spanish_for_a_spanish_browser(client, path, english, spanish):
    page = page_text(client.get(path, HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9"))
    assert '<html lang="es">' in page
    assert spanish in page and english not in page


@pytest.mark.parametrize("path, english, spanish", PAGES)
def test_each_page_renders_in_english_for_an_english_browser(client, path, english, spanish):
    page = page_text(client.get(path, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9"))
    assert '<html lang="en">' in page
    assert english in page and spanish not in page


@pytest.mark.parametrize("language, phrase", [("en", "Shuffles left"), ("es", "Mezclas restantes")])
def test_a_room_page_and_its_board_words_follow_the_language(client, language, phrase):
    room, _players = room_with("Mei")
    page = page_text(client.get(f"/rooms/{room.code}/", HTTP_ACCEPT_LANGUAGE=language))
    assert phrase in page
    words = {"en": '"go": "Go!"', "es": '"go": "\\u00a1Ya!"'}[language]
    assert words in page  # the race script's strings, translated on the server


@pytest.mark.parametrize("language, phrase", [("en", "Plays without"), ("es", "Juega sin cuenta")])
def test_a_player_profile_renders_in_both_languages(client, language, phrase):
    player = Player.objects.create(nickname="Lin")
    page = page_text(client.get(f"/players/{player.pk}/", HTTP_ACCEPT_LANGUAGE=language))
    assert phrase in page


def test_the_switcher_remembers_the_choice_over_the_browser_language(client):
    page = page_text(client.get("/", HTTP_ACCEPT_LANGUAGE="es"))
    assert 'action="/i18n/setlang/"' in page and 'name="language" value="en"' in page
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    page = page_text(client.get("/rules/", HTTP_ACCEPT_LANGUAGE="es"))
    assert "Frequently asked questions" in page


def test_the_switcher_needs_the_csrf_token():
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/i18n/setlang/", {"language": "es"}).status_code == 403


def test_the_current_language_is_marked_in_the_switcher(client):
    page = page_text(client.get("/", HTTP_ACCEPT_LANGUAGE="es"))
    current = re.search(r'<button[^>]*value="es"[^>]*>', page, re.S).group(0)
    assert 'aria-current="true"' in current


def test_a_form_error_is_shown_in_spanish(client):
    client.get("/me/")
    response = client.post("/me/", {"nickname": "   "}, HTTP_ACCEPT_LANGUAGE="es")
    assert "Escribe un apodo" in response.content.decode()


def test_a_practice_refusal_comes_back_in_spanish(client):
    client.get("/play/", HTTP_ACCEPT_LANGUAGE="es")
    response = client.post(
        "/play/api/move", b"{}", content_type="application/json", HTTP_ACCEPT_LANGUAGE="es"
    )
    assert response.status_code == 400
    assert response.json()["error"] == "envía las dos fichas de la pareja como 'tiles': [i, j]"


def test_a_bad_game_code_is_explained_in_spanish(client):
    response = client.get("/play/MJ1-XYZ/", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400
    assert "Este enlace no abre ninguna partida" in response.content.decode()


def test_a_room_refusal_comes_back_in_spanish(client):
    response = client.post("/rooms/new", {"nickname": " "}, HTTP_ACCEPT_LANGUAGE="es")
    assert "Escribe un apodo" in response.content.decode()


def test_level_names_are_translated_on_the_practice_and_ranked_pages(client):
    page = page_text(client.get("/play/", HTTP_ACCEPT_LANGUAGE="es"))
    assert '<span class="choice-label">Principiante</span>' in page
    client.post("/ranked/join", {"nickname": "Ana", "level": "hard"})
    page = page_text(client.get("/ranked/", HTTP_ACCEPT_LANGUAGE="es"))
    assert "Difícil: 1 esperando" in page


def test_the_status_page_names_every_part_in_spanish(client):
    from infra import health

    page = page_text(client.get("/status/", HTTP_ACCEPT_LANGUAGE="es"))
    found = re.search(r'<script id="strings" type="application/json">(.*?)</script>', page)
    parts = json.loads(found.group(1))["parts"]
    assert set(parts) == set(health.CHECKS)  # a name for each part /healthz reports
    assert parts == {
        "database": "base de datos",
        "redis": "Redis",
        "worker": "ejecutor de tareas",
        "scheduler": "programador de tareas",
    }
