"""Admins promote, hide and rename layouts through the admin pages
(docs/LAYOUTS.md §Admin)."""

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Player
from layouts.actions import store_layout
from layouts.models import CatalogOverride, StoredLayout
from tests.layouts.layouts_helpers import flat_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    admin = get_user_model().objects.create_superuser("boss", password="x")
    client.force_login(admin)
    return client


@pytest.fixture
def stored():
    return store_layout(flat_text(16), Player.objects.create(), "Bridge of eight")


def picker_groups(client) -> dict[str, list[str]]:
    page = client.get("/layouts/")
    groups: dict[str, list[str]] = {}
    for choice in page.context["choices"]:
        groups.setdefault(choice.group, []).append(choice.title)
    return groups


def test_the_admin_lists_stored_layouts_with_their_picture(admin_client, stored):
    page = admin_client.get("/admin/layouts/storedlayout/").content.decode()
    assert f"U{stored.pk}" in page and "Bridge of eight" in page
    assert f'src="/layouts/{stored.pk}.svg"' in page


def test_promoting_puts_a_layout_in_the_library(admin_client, stored):
    assert "Bridge of eight" in picker_groups(admin_client)["shared"]
    admin_client.post(
        "/admin/layouts/storedlayout/", {"action": "promote", "_selected_action": [stored.pk]}
    )
    stored.refresh_from_db()
    assert stored.built_in
    groups = picker_groups(admin_client)
    assert "Bridge of eight" in groups["library"] and "shared" not in groups


def test_hiding_takes_a_layout_off_the_picker_and_its_share_page(admin_client, stored):
    admin_client.post(
        "/admin/layouts/storedlayout/", {"action": "hide", "_selected_action": [stored.pk]}
    )
    assert StoredLayout.objects.get().hidden
    assert "Bridge of eight" not in str(picker_groups(admin_client))
    assert admin_client.get(f"/layouts/{stored.pk}/").status_code == 404


def test_an_admin_edits_the_names_but_never_the_shape(admin_client, stored):
    before = stored.text
    response = admin_client.post(
        f"/admin/layouts/storedlayout/{stored.pk}/change/",
        {"title_en": "  Long   bridge ", "title_es": "Puente largo", "text": "evil"},
    )
    assert response.status_code == 302
    stored.refresh_from_db()
    assert (stored.title_en, stored.title_es) == ("Long bridge", "Puente largo")
    assert stored.text == before
    admin_client.post("/i18n/setlang/", {"language": "es"})
    assert "Puente largo" in admin_client.get(f"/layouts/{stored.pk}/").content.decode()


def test_stored_layouts_cannot_be_added_or_deleted_in_the_admin(admin_client, stored):
    assert admin_client.get("/admin/layouts/storedlayout/add/").status_code == 403
    assert admin_client.get(f"/admin/layouts/storedlayout/{stored.pk}/delete/").status_code == 403


def test_a_built_in_layout_can_be_renamed_or_hidden(admin_client):
    response = admin_client.post(
        "/admin/layouts/catalogoverride/add/",
        {"number": 0, "title_en": "Great turtle", "title_es": "Gran tortuga"},
    )
    assert response.status_code == 302
    assert picker_groups(admin_client)["library"][0] == "Great turtle"
    CatalogOverride.objects.filter(number=0).update(hidden=True)
    assert "Great turtle" not in picker_groups(admin_client)["library"]
