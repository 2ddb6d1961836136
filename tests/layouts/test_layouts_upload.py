"""Play a layout file: upload or paste, check, store, play and share
(docs/LAYOUTS.md §Play a layout file)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from layouts import actions, throttle
from layouts.models import StoredLayout
from mahjong.deals import deal_for, parse_any_code
from practice.models import SoloGame
from tests.layouts.layouts_helpers import BROKEN_TEXT, beginner_text, flat_text, forget_cached_deals
from tests.practice.practice_helpers import Device

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("fresh_check_counts", "fresh_deal_caches"),
]


def upload(client, text: str, action="store", title="My layout", name="my.layout"):
    file = SimpleUploadedFile(name, text.encode(), content_type="application/octet-stream")
    return client.post("/layouts/new/", {"file": file, "action": action, "title": title})


def test_a_good_file_is_checked_with_its_picture_before_anything_is_stored(client):
    response = upload(client, beginner_text(), action="check")
    assert response.status_code == 200
    html = response.content.decode()
    assert "It reads: 34 tiles, and games dealt on it can be cleared." in html
    assert "<svg" in html and html.count("<path") >= 2
    assert not StoredLayout.objects.exists()


def test_store_and_play_opens_a_board_on_the_stored_layout(client):
    response = upload(client, beginner_text(), action="store", title="Little pyramid")
    stored = StoredLayout.objects.get()
    assert stored.title("en") == "Little pyramid"
    assert response.status_code == 302 and response.url == f"/layouts/play/U{stored.pk}/"
    board = client.get(response.url)
    assert board.url.startswith("/play/MJ1-U")
    assert Device(client).open(board.url.split("/")[2]).status_code == 200


def test_a_140_tile_file_plays_mj2_codes_with_no_face_more_than_four_times(client):
    # Under 144 places MJ1 drew regular faces only, some six times; new codes on such a
    # layout are MJ2 and deal the real set (docs/ENGINE.md §Game codes).
    upload(client, flat_text(140), action="store", title="Nearly a set")
    stored = StoredLayout.objects.get()
    code = client.get(f"/layouts/play/U{stored.pk}/").url.strip("/").split("/")[-1]
    assert code.startswith(f"MJ2-U{stored.pk}-")
    faces = deal_for(code).faces
    assert max(faces.count(face) for face in set(faces)) == 4
    assert Device(client).open(code).status_code == 200
    # A game dealt under MJ1 before is still a game on the same layout (records).
    game = SoloGame.objects.get(code=code)
    old = SoloGame.objects.create(
        player=game.player, code=f"MJ1-U{stored.pk}-AAAAABL", tile_count=140
    )
    assert set(SoloGame.objects.filter(game.same_layout())) == {game, old}


def test_storing_asks_for_a_name_and_stores_nothing_without_one(client):
    for action in ("store", "share"):
        response = upload(client, beginner_text(), action=action, title="  ")
        assert response.status_code == 400
        assert response.context["error"] == "Give the layout a name to store it."
        assert "<svg" in response.content.decode()  # its picture stays while it is asked
    assert not StoredLayout.objects.exists()
    page = client.get("/layouts/new/").content.decode()
    assert 'name="title" maxlength="60" value="" autocomplete="off" required' in page


def test_a_good_file_plays_and_shares(client):
    response = upload(client, beginner_text(), action="share", title="Little pyramid")
    stored = StoredLayout.objects.get()
    assert response.status_code == 302 and response.url == f"/layouts/{stored.pk}/"

    share = client.get(response.url)
    assert "Little pyramid" in share.content.decode()
    assert f"http://testserver/layouts/{stored.pk}/" in share.content.decode()
    assert f'href="/layouts/edit/{stored.pk}/"' in share.content.decode()  # edit a copy
    assert 'href="/layouts/edit/"' in client.get("/layouts/").content.decode()  # draw one

    played = client.get(f"/layouts/play/U{stored.pk}/")
    code = played.url.strip("/").split("/")[-1]
    assert played.url == f"/play/{code}/" and parse_any_code(code)[:2] == ("U", stored.pk)
    device = Device(client)
    page = device.open(code)
    assert page.status_code == 200
    assert len(device.state["tiles"]) == 34
    assert device.state["layout"] == {
        "number": None,
        "name": f"U{stored.pk}",
        "level": None,
        "label": "Little pyramid",
        "flowers": False,
    }
    game = SoloGame.objects.get(code=code)
    assert game.layout_number is None and game.tile_count == 34


def test_a_pasted_text_stores_like_a_file(client):
    response = client.post(
        "/layouts/new/", {"text": flat_text(16), "action": "store", "title": "Row"}
    )
    assert response.status_code == 302
    assert StoredLayout.objects.get().tiles == 16


def test_a_malformed_file_shows_its_line_and_that_line(client):
    response = upload(client, BROKEN_TEXT)
    assert response.status_code == 400
    assert response.context["error_line"] == 6
    assert response.context["error_text"] == "4x.."
    assert "Line 6:" in response.content.decode()
    assert not StoredLayout.objects.exists()


def test_an_oversized_file_is_refused_and_nothing_is_stored(client):
    response = upload(client, flat_text(8, comment="y" * (actions.MAX_BYTES + 10)))
    assert response.status_code == 400
    assert "too big" in response.context["error"]
    assert not StoredLayout.objects.exists()


def test_a_flood_of_uploads_is_refused_past_the_hourly_limit(client):
    for n in range(actions.MAX_PER_WINDOW):
        assert upload(client, flat_text(2 * n + 4)).status_code == 302
    refused = upload(client, flat_text(60))
    assert refused.status_code == 400
    assert "last hour" in refused.context["error"]
    assert StoredLayout.objects.count() == actions.MAX_PER_WINDOW


def test_uploaded_text_is_never_echoed_unescaped(client):
    text = beginner_text().replace("# layer 0", "# <script>alert(1)</script>")
    html = upload(client, text + "<img src=x onerror=alert(1)>\n", action="check").content
    assert b"<script>alert(1)" not in html and b"<img src=x" not in html
    assert b"&lt;script&gt;alert(1)" in html


def test_a_binary_file_is_refused_with_a_clear_word(client):
    file = SimpleUploadedFile("x.layout", b"\xff\xfe\x00\x01garbage")
    response = client.post("/layouts/new/", {"file": file, "action": "store"})
    assert response.status_code == 400 and "not a text file" in response.context["error"]


def test_a_stored_code_recreates_the_same_deal(client):
    upload(client, beginner_text())
    stored = StoredLayout.objects.get()
    code = f"MJ1-U{stored.pk}-ABCDEFG"
    first = deal_for(code)
    forget_cached_deals()
    again = deal_for(code)
    assert first.faces == again.faces and first.plan == again.plan
    assert deal_for(f"MJ1-U{stored.pk}-ABCDEFH").faces != first.faces
    assert first.layout.positions == stored_positions(stored)


def stored_positions(stored):
    from mahjong.engine.layout import parse_layout

    return parse_layout(stored.text).positions


def test_a_hidden_layout_leaves_the_picker_and_share_page_but_its_codes_still_play(client):
    upload(client, beginner_text(), title="Soon hidden")
    stored = StoredLayout.objects.get()
    code = client.get(f"/layouts/play/U{stored.pk}/").url.strip("/").split("/")[-1]
    StoredLayout.objects.update(hidden=True)
    assert "Soon hidden" not in client.get("/layouts/").content.decode()
    assert client.get(f"/layouts/{stored.pk}/").status_code == 404
    assert Device(client).open(code).status_code == 200


def test_an_unknown_stored_code_is_no_game(client):
    response = Device(client).open("MJ1-U999999-AAAAAAA")
    assert response.status_code == 400
    assert "not one of ours" in response.content.decode()


def test_the_picture_of_a_stored_layout_is_svg(client):
    upload(client, beginner_text())
    stored = StoredLayout.objects.get()
    picture = client.get(f"/layouts/{stored.pk}.svg")
    assert picture["Content-Type"] == "image/svg+xml"
    assert picture.content.startswith(b"<svg")
    assert client.get("/layouts/999999.svg").status_code == 404


def test_checks_from_one_address_are_rate_limited(client, monkeypatch):
    monkeypatch.setattr(throttle, "CHECKS_PER_WINDOW", 3)
    for _ in range(3):
        assert upload(client, beginner_text(), action="check").status_code == 200
    refused = upload(client, beginner_text())
    assert refused.status_code == 429 and "try again in a few minutes" in refused.context["error"]
    assert not StoredLayout.objects.exists()


def test_the_readers_faults_and_warnings_read_in_spanish(client):
    client.cookies["django_language"] = "es"
    response = upload(client, BROKEN_TEXT)
    assert response.status_code == 400 and "Línea 6" in response.content.decode()
    assert "overlapping" not in response.context["error"]
    assert "unknown character" not in response.context["error"]
    stray = beginner_text().replace("12", "13", 1)  # a '3' where a tile's '2' belongs
    page = upload(client, stray, action="check").content.decode()
    assert "como KMahjongg" in page and "read as a whole tile" not in page
