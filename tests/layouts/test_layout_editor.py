"""The layout editor's server side: Test, Export and Save of drawn tiles, and every bad
request refused with a clear reason and nothing stored (docs/LAYOUTS.md §The editor)."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from accounts.identity import COOKIE_NAME, signed_token
from accounts.models import Player
from layouts import actions
from layouts.models import StoredLayout
from mahjong.engine.catalog import BY_NAME, layout_by_number
from mahjong.engine.layout import layout_from_positions, layout_to_text, parse_layout

pytestmark = pytest.mark.django_db

# Six tiles in two rows and two straddling them one layer up: deals solvable.
SMALL = [[0, 0, 0], [2, 0, 0], [4, 0, 0], [0, 2, 0], [2, 2, 0], [4, 2, 0], [1, 0, 1], [3, 0, 1]]


def post(client, name: str, body, raw: bytes | None = None):
    data = raw if raw is not None else json.dumps(body)
    return client.post(reverse(name), data, content_type="application/json")


def test_a_playable_layout_passes_the_test_and_nothing_is_stored(client):
    answer = post(client, "layout-editor-test", {"positions": SMALL})
    assert answer.status_code == 200
    assert answer.json()["ok"] is True and answer.json()["tiles"] == 8
    message = answer.json()["message"]
    assert message.startswith("Playable: 8 tiles, and a deal that can be cleared was found in ")
    assert " 0 ms" not in message and "ms." not in message  # "under a millisecond", or spelt out
    assert not StoredLayout.objects.exists()
    assert not Player.objects.exists()  # testing makes no player either


def test_a_tower_fails_the_test_with_the_reason(client):
    tower = [[0, 0, z] for z in range(4)]  # only its top is ever free
    body = post(client, "layout-editor-test", {"positions": tower}).json()
    assert body["ok"] is False and body["unplayable"] is True
    assert "a stack of 4 tiles at column 1, row 1 can never be cleared" in body["error"]
    assert not StoredLayout.objects.exists()


def test_too_few_tiles_fail_the_test_as_the_store_would_refuse_them(client):
    body = post(client, "layout-editor-test", {"positions": [[0, 0, 0], [2, 0, 0]]}).json()
    assert body["ok"] is False and "from 4 to 288 tiles" in body["error"]


def test_save_stores_the_layout_for_this_device_with_its_name_and_links(client):
    answer = post(client, "layout-editor-save", {"positions": SMALL, "name": "  Two  rows "})
    assert answer.status_code == 200, answer.content
    body = answer.json()
    stored = StoredLayout.objects.get()
    assert body["id"] == stored.pk and stored.tiles == 8 and stored.title_en == "Two rows"
    assert body["share_url"].endswith(reverse("layouts-detail", args=[stored.pk]))
    assert body["play_url"]
    assert stored.owner.device_token  # the device's player, made on the way
    assert client.cookies[COOKIE_NAME].value == signed_token(stored.owner.device_token)
    assert {tuple(p) for p in SMALL} == set(parse_layout(stored.text).positions)


def test_save_asks_for_a_name_and_stores_nothing_without_one(client):
    answer = post(client, "layout-editor-save", {"positions": SMALL, "name": "   "})
    assert answer.status_code == 400
    assert answer.json()["error"] == "Give the layout a name to save it."
    assert not StoredLayout.objects.exists()


def test_export_names_the_file_after_the_layout_accents_and_all(client):
    answer = post(client, "layout-editor-export", {"positions": SMALL, "name": "Pirámide del Sol"})
    assert answer["Content-Disposition"] == 'attachment; filename="piramide-del-sol.layout"'


def test_export_answers_a_kmahjongg_file_the_engine_reads_back(client):
    answer = post(client, "layout-editor-export", {"positions": SMALL, "name": "Two rows!"})
    assert answer.status_code == 200
    assert answer["Content-Disposition"] == 'attachment; filename="two-rows.layout"'
    text = answer.content.decode()
    assert text.startswith("kmahjongg-layout-v1.1\n# Two rows!\n")
    assert {tuple(p) for p in SMALL} == set(parse_layout(text).positions)
    assert not StoredLayout.objects.exists()


def test_the_editor_starts_from_a_stored_layout(client):
    owner = Player.objects.create()
    text = layout_to_text(layout_from_positions([tuple(p) for p in SMALL]))
    stored = actions.store_layout(text, owner, "Two rows")
    page = client.get(reverse("layout-editor-from", args=[stored.pk]))
    assert page.status_code == 200
    start = page.context["start"]
    assert sorted(start["positions"]) == sorted(SMALL) and start["name"] == "Two rows"
    assert client.get(reverse("layout-editor-from", args=[stored.pk + 1])).status_code == 404
    stored.hidden = True  # hidden by an admin: not offered to copy either
    stored.save(update_fields=["hidden"])
    assert client.get(reverse("layout-editor-from", args=[stored.pk])).status_code == 404


def test_the_editor_starts_from_a_copy_of_a_built_in_layout(client):
    page = client.get(reverse("layout-editor-from-builtin", args=["turtle"]))
    assert page.status_code == 200
    start = page.context["start"]
    assert len(start["positions"]) == 144 and start["name"]
    turtle = layout_by_number(BY_NAME["turtle"].number)
    assert sorted(start["positions"]) == sorted(list(p) for p in turtle.positions)
    assert client.get(reverse("layout-editor-from-builtin", args=["nowhere"])).status_code == 404


def test_the_empty_editor_page_shows_the_grid_and_its_tools(client):
    page = client.get(reverse("layout-editor"))
    assert page.status_code == 200
    html = page.content.decode()
    for hook in ('id="ed-grid"', 'id="ed-test"', 'id="ed-export"', 'id="ed-save"', "editor-start"):
        assert hook in html
    assert not Player.objects.exists()  # looking makes no player


BAD_BODIES = {
    "not JSON": (b"{positions: oops", "not valid JSON"),
    "not an object": (b"[[0, 0, 0]]", "must be a JSON object"),
    "no positions": ({"name": "x"}, "no list of tile positions"),
    "no tiles": ({"positions": []}, "has no tiles"),
    "too many tiles": ({"positions": [[0, 0, 0]] * 289}, "at most 288 tiles"),
    "a pair, not a triple": ({"positions": [[0, 0]]}, "three whole numbers"),
    "a fraction": ({"positions": [[0.5, 0, 0], [2, 0, 0]]}, "three whole numbers"),
    "a boolean": ({"positions": [[True, 0, 0], [2, 0, 0]]}, "three whole numbers"),
    "a text": ({"positions": [["0", 0, 0], [2, 0, 0]]}, "three whole numbers"),
    "off the right": ({"positions": [[39, 0, 0], [0, 0, 0]]}, "x=39 y=0 z=0 is off the grid"),
    "negative": ({"positions": [[0, -1, 0], [0, 2, 0]]}, "x=0 y=-1 z=0 is off the grid"),
    "too high": ({"positions": [[0, 0, 8], [2, 0, 0]]}, "x=0 y=0 z=8 is off the grid"),
    "overlap": (
        {"positions": [[0, 0, 0], [1, 1, 0], [4, 0, 0], [6, 0, 0]]},
        "x=1 y=1 z=0 overlaps another",
    ),
    "twice": ({"positions": [[0, 0, 0], [0, 0, 0]]}, "overlaps another"),
    "odd": ({"positions": SMALL[:7]}, "7 tiles cannot all be paired"),
    "name not text": ({"positions": SMALL, "name": 5}, "name must be text"),
    "name too long": ({"positions": SMALL, "name": "x" * 61}, "longer than 60 characters"),
    "oversized body": (json.dumps({"positions": SMALL, "name": " " * 17000}).encode(), "16 KB"),
    "past Django's cap": (b" " * (3 * 1024 * 1024), "16 KB"),
}


URLS = ["layout-editor-test", "layout-editor-export", "layout-editor-save"]


# Test reads no name: the name's faults are Export's and Save's.
BAD_REQUESTS = [
    (url, case)
    for url in URLS
    for case in BAD_BODIES
    if not (url == "layout-editor-test" and case.startswith("name"))
]


@pytest.mark.parametrize(("url", "case"), BAD_REQUESTS)
def test_a_bad_request_is_refused_with_its_reason_and_changes_nothing(client, url, case):
    body, reason = BAD_BODIES[case]
    raw = body if isinstance(body, bytes) else None
    answer = post(client, url, body, raw)
    assert answer.status_code == 400
    assert reason in answer.json()["error"]
    assert not StoredLayout.objects.exists()


def test_the_editors_posts_need_the_csrf_token():
    strict = Client(enforce_csrf_checks=True)
    for url in URLS:
        assert post(strict, url, {"positions": SMALL}).status_code == 403
    assert not StoredLayout.objects.exists()


def test_the_editors_endpoints_take_only_post(client):
    for url in URLS:
        assert client.get(reverse(url)).status_code == 405
