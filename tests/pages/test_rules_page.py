"""The rules page: written for the site in both languages, its local-rules table read
from the live site defaults, so a default changed by an admin shows at once."""

import re

import pytest

from rooms.models import SiteDefaults

pytestmark = pytest.mark.django_db


def rule_row(client, key, language="en") -> str:
    page = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    row = re.search(rf'<tr id="rule-{key}"[^>]*>(.*?)</tr>', page, re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", " ", row).split())


def default_cell(client, key, language="en") -> str:
    page = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    row = re.search(rf'<tr id="rule-{key}"[^>]*>(.*?)</tr>', page, re.S).group(1)
    return re.search(r'<td class="default"[^>]*>(.*?)</td>', row, re.S).group(1).strip()


def test_the_table_shows_the_spec_defaults_of_a_fresh_site(client):
    assert default_cell(client, "level") == "Easy"
    assert default_cell(client, "flowers") == "off"
    assert default_cell(client, "shuffles") == "up to 3"
    assert default_cell(client, "time_limit_minutes") == "10 min"
    assert default_cell(client, "idle_limit_seconds") == "none"
    assert default_cell(client, "show_matches") == "off"
    assert default_cell(client, "cut_off") == "60 min after the start"


def test_the_table_follows_a_change_of_the_site_defaults(client):
    defaults = SiteDefaults.load()
    defaults.level, defaults.flowers, defaults.shuffles = "hard", True, 7
    defaults.time_limit_minutes, defaults.shuffle_penalty_seconds = 20, 10
    defaults.save()
    assert default_cell(client, "level") == "Hard"
    assert default_cell(client, "flowers") == "on"
    assert default_cell(client, "shuffles") == "up to 7"
    assert default_cell(client, "time_limit_minutes") == "20 min"
    assert default_cell(client, "shuffle_penalty_seconds") == "10 s"
    assert default_cell(client, "level", "es") == "Difícil"
    assert default_cell(client, "shuffles", "es") == "hasta 7 veces"
    assert default_cell(client, "flowers", "es") == "activadas"


def test_the_choices_come_from_the_room_rules(client):
    assert "3 min, 5 min, 10 min, 15 min, 20 min, 30 min" in rule_row(client, "time_limit_minutes")
    assert "Beginner (34 tiles)" in rule_row(client, "level")
    assert "Principiante (34 fichas)" in rule_row(client, "level", "es")
    # Spanish words agree with each rule's noun: el límite, ninguno; la penalización, ninguna.
    assert "ninguno, 30 s, 60 s" in rule_row(client, "idle_limit_seconds", "es")
    assert "ninguna, 5 s, 10 s, 30 s" in rule_row(client, "shuffle_penalty_seconds", "es")
    assert default_cell(client, "handicap", "es") == "desactivada"


@pytest.mark.parametrize(
    "language, sections",
    [
        ("en", ["Objective", "Setup", "How to play", "Victory and points", "Terms"]),
        ("es", ["Objetivo", "Preparación", "Cómo se juega", "Victoria y puntos", "Términos"]),
    ],
)
def test_the_page_has_every_section_and_links_the_tutorial(client, language, sections):
    page = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for title in sections:
        assert f"<h2>{title}</h2>" in page
    assert 'href="/learn/"' in page


def test_the_home_page_links_the_tutorial(client):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert (
        '<a class="button" id="learn-link" href="/learn/">Aprender en el tablero (3 min)</a>'
        in page
    )


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_rules_page_prints_no_template_comment(client, language):
    # Django's {# #} comments end at the line: one spanning two lines is printed as text.
    page = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert "{#" not in page and "#}" not in page


def test_no_template_has_a_one_line_comment_spanning_lines():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    open_comments = [
        f"{path.relative_to(root)}:{number}"
        for pattern in ("templates/**/*.html", "*/templates/**/*.html")
        for path in root.glob(pattern)
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "{#" in line and "#}" not in line.split("{#", 1)[1]
    ]
    assert open_comments == []
