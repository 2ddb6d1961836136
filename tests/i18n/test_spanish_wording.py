"""The Spanish catalogue as a native speaker reads it (docs/I18N.md): one word for each
thing (Log in is not Join; "partida" is the deal, "disposición" the layout), seat tags
that fit anyone, and the words a tester flagged. Also the kind of a page's message:
news is not shown in the red of a refusal.
In Chromium: tests/browser/test_spanish_wording_browser.py."""

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
