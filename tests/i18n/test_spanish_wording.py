"""The Spanish catalogue as a native speaker reads it (docs/I18N.md): one word for each
thing (Log in is not Join; "partida" is the deal, "disposición" the layout), seat tags
that fit anyone, and the words a tester flagged. Also the kind of a page's message:
news is not shown in the red of a refusal.
In Chromium: tests/browser/test_spanish_wording_browser.py."""

import html
import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext

CATALOG = Path(__file__).resolve().parents[2] / "locale/es/LC_MESSAGES/django.po"


def entries() -> list[tuple[str, str]]:
    """(msgid, every msgstr joined) of the Spanish catalogue."""
    found = []
    for block in CATALOG.read_text().split("\n\n"):
        parts = {"msgid": [], "msgstr": []}
        current = None
        for line in block.splitlines():
            head = re.match(r"(msgid|msgstr)(?:\[\d\])? (\".*\")$", line)
            if head:
                current = head.group(1)
                parts[current].append(head.group(2)[1:-1])
            elif line.startswith('"') and current:
                parts[current].append(line[1:-1])
        found.append(("".join(parts["msgid"]), " ".join(parts["msgstr"])))
    return found


def spanish(text: str) -> str:
    with translation.override("es"):
        return gettext(text)


def test_log_in_and_join_are_two_words():
    assert spanish("Log in") == "Iniciar sesión"
    assert spanish("Join") == "Unirse"
    assert spanish("Join this room") == "Unirse a esta sala"
    with translation.override("es"):
        assert gettext("Join %(owner)s's room") % {"owner": "Ana"} == "Unirse a la sala de Ana"
    joins = [msgstr for msgid, msgstr in entries() if msgid.startswith("Join")]
    assert joins and not any("Entrar" in msgstr for msgstr in joins)


def test_partida_is_the_deal_and_disposicion_the_layout_never_the_other_way():
    deals = layouts = 0
    for msgid, msgstr in entries():
        words = msgid.lower()
        if re.search(r"\bdeals?\b", words) and "layout" not in words:
            deals += 1
            assert "disposici" not in msgstr and "reparto" not in msgstr, msgid
        if "layout" in words and not re.search(r"\b(deals?|dealt|games?)\b", words):
            layouts += 1
            assert "partida" not in msgstr, msgid
    assert deals > 10 and layouts > 10


def test_seat_tags_and_the_ready_check_fit_anyone():
    tags = [spanish(word) for word in ("owner", "ready", "not ready yet")]
    assert tags == ["creó la sala", "a punto", "aún no está a punto"]
    for msgid in (
        "You are ready: the owner starts the next race.",
        "You may start now: those not ready sit this race out.",
        "Start when everyone is ready, or in {s} s without those who are not.",
    ):
        assert not re.search(r"\blist[oa]s?\b|anfitri", spanish(msgid)), msgid


def test_the_words_a_native_speaker_flagged():
    with translation.override("es"):
        assert gettext("Red dragon") + ": " + gettext("blocked") == "Dragón rojo: bloqueado"
        assert gettext("1 tile") == "1 ficha"
        assert ngettext("%(n)d tile", "%(n)d tiles", 1) % {"n": 1} == "1 ficha"
        assert gettext("Ranked") == "Competitivas"
        assert gettext("Cleared") == "Tablero vacío"
        assert pgettext("replay: start playing back", "Play") == "Reproducir"
        assert gettext("Play") == "Jugar"  # the site's Play link stays a game
        ordinals = [pgettext(f"ordinal {c}", f"%(n)s{s}") for c, s in [("1", "st"), ("2", "nd")]]
        assert ordinals == ["%(n)s.º", "%(n)s.º"]


@pytest.mark.django_db
def test_the_spanish_pages_say_the_new_words():
    client = Client(headers={"accept-language": "es"})
    login = client.get("/accounts/login/").content.decode()
    assert "Iniciar sesión" in login and ">Entrar<" not in login
    rooms = client.get("/rooms/").content.decode()
    assert "Unirse a una sala" in rooms and "Competitivas" in rooms


@pytest.mark.django_db
def test_a_saved_nickname_is_news_not_an_error(client):
    client.get("/me/")
    page = client.post("/me/", {"nickname": "Mei"}, follow=True).content.decode()
    assert re.search(r'<p class="notice" role="status" data-kind="info">Nickname saved.</p>', page)


def test_a_race_page_writes_places_with_its_languages_ordinals():
    # race.js has no ordinal rule of its own: the page's words give one pattern for each
    # plural category of the language's ordinals (Intl.PluralRules, type "ordinal").
    from rooms.views import ordinal_strings

    with translation.override("es"):
        assert set(ordinal_strings().values()) == {"{n}.º"}
    with translation.override("en"):
        english = ordinal_strings()
    assert english == {"one": "{n}st", "two": "{n}nd", "few": "{n}rd", "other": "{n}th"}


# --- one word for shuffles; tú, never usted; no English left ------------------------------
USTED = re.compile(r"\b(su contraseña|sus? otra|introduzca|asegúrese|observe|por favor)\b", re.I)


def visible_text(response) -> str:
    """The page's words as a reader sees them: no markup, scripts or styles."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def test_shuffles_are_mezclas_in_every_entry_never_barajadas():
    shuffles = [(i, s) for i, s in entries() if re.search(r"\bshuffl", i, re.I)]
    assert len(shuffles) > 10
    for msgid, msgstr in shuffles:
        assert "mezcl" in msgstr.lower(), msgid
    assert not [msgid for msgid, msgstr in entries() if "baraj" in msgstr.lower()]


@pytest.mark.django_db
def test_the_arenas_all_in_switch_says_mezclas(client):
    from tests.arenas.arena_helpers import new_arena

    arena = new_arena()
    page = visible_text(client.get(f"/arenas/{arena.code}/", HTTP_ACCEPT_LANGUAGE="es"))
    assert "A todo o nada: sin pistas ni mezclas en mis carreras" in page
    assert "barajad" not in page


@pytest.mark.django_db
def test_every_message_the_signup_form_can_show_speaks_as_tu(client):
    bad = [
        {"username": "ana", "password1": "193", "password2": "193"},  # short, only digits
        {"username": "ana", "password1": "x", "password2": "y"},  # not the same twice
        {"username": "anabel", "password1": "anabel1", "password2": "anabel1"},  # like the name
        {"username": "ana", "password1": "password", "password2": "password"},  # common
        {"username": "ana bel!", "email": "nope", "password1": "x", "password2": "x"},
        {"username": "a" * 151, "password1": "x", "password2": "x"},
    ]
    pages = []
    for form in bad:
        response = client.post("/accounts/signup/", form, HTTP_ACCEPT_LANGUAGE="es")
        assert response.status_code == 400
        pages.append(visible_text(response))
    text = " ".join(pages)
    assert not USTED.search(text), USTED.search(text)
    for said in (
        "Tu contraseña necesita al menos 8 caracteres.",
        "Tu contraseña no puede tener solo números.",
        "Escribe la misma contraseña otra vez, para comprobarla.",
        "Esta contraseña es demasiado corta: necesita al menos 8 caracteres.",
        "Esta contraseña se parece demasiado a tu nombre de usuario.",
        "Esta contraseña es de las más usadas: elige otra.",
        "Esta contraseña solo tiene números.",
        "Escribe una dirección de correo electrónico válida.",
        "Escribe un nombre de usuario válido",
        "Un nombre de usuario tiene como máximo 150 caracteres (este tiene 151).",
    ):
        assert said in text, said


@pytest.mark.django_db
def test_a_reset_links_new_password_form_speaks_as_tu(client):
    from django.contrib.auth.models import User
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    user = User.objects.create_user("ana", "ana@example.com", "a long enough secret")
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    link = f"/accounts/reset/{uid}/{default_token_generator.make_token(user)}/"
    form_page = client.get(link, follow=True, HTTP_ACCEPT_LANGUAGE="es")
    refused = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "123", "new_password2": "123"},
        HTTP_ACCEPT_LANGUAGE="es",
    )
    text = visible_text(form_page) + visible_text(refused)
    assert "Escribe la misma contraseña otra vez" in text
    assert "Esta contraseña es demasiado corta" in text
    assert not USTED.search(text), USTED.search(text)


@pytest.mark.django_db
def test_a_refused_log_in_and_a_bad_reset_address_speak_as_tu(client):
    login = client.post(
        "/accounts/login/", {"username": "ana", "password": "nope"}, HTTP_ACCEPT_LANGUAGE="es"
    )
    reset = client.post("/accounts/password-reset/", {"email": "nope"}, HTTP_ACCEPT_LANGUAGE="es")
    text = visible_text(login) + visible_text(reset)
    assert "Ese nombre de usuario y esa contraseña no corresponden a ninguna cuenta" in text
    assert "Escribe una dirección de correo electrónico válida." in text
    assert not USTED.search(text), USTED.search(text)


@pytest.mark.django_db
def test_an_unknown_address_answers_a_spanish_page_not_djangos_english_one(client):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 404
    assert '<html lang="es">' in response.content.decode()
    text = visible_text(response)
    assert "Página no encontrada" in text and "Not Found" not in text


@pytest.mark.django_db
def test_the_design_system_page_is_in_spanish_on_a_spanish_page(client, settings):
    settings.DEBUG = True
    text = visible_text(client.get("/style/", HTTP_ACCEPT_LANGUAGE="es"))
    for english in ("The design system", "Type scale", "Buttons", "Notices", "Progress bars"):
        assert english not in text, english
    for said in ("El sistema de diseño", "Escala tipográfica", "Principal, desactivado", "1.º Ana"):
        assert said in text, said


def test_a_server_failure_answers_in_the_readers_language():
    from django.test import RequestFactory
    from django.views.defaults import server_error

    with translation.override("es"):
        response = server_error(RequestFactory().get("/"))
    page = response.content.decode()
    assert response.status_code == 500 and '<html lang="es">' in page
    assert "Error del servidor" in page and "Server Error" not in page
