"""The site around the board: the theme (System, Light, Dark, remembered), high-contrast
tiles, the phone header (one line and a Menu button), and where the Status link lives
(the operators' admin, not the public footer). Screenshots go to SCREENS_DIR for a look.
In Chromium: tests/browser/test_site_chrome_browser.py."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

PAGES = [
    "/",
    "/play/",
    "/rooms/",
    "/ranked/",
    "/leaderboards/",
    "/rules/",
    "/learn/",
    "/me/",
    "/records/",
    "/accounts/login/",
    "/status/",
]


# --- Status: for operators ----------------------------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_no_footer_links_the_status_page(client, path):
    page = client.get(path, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    footer = page[page.index("<footer") : page.index("</footer>")]
    assert 'href="/status/"' not in footer and ">Status<" not in footer
    assert 'name="language"' in footer  # the language switch stays


@pytest.mark.django_db
def test_the_admin_links_the_site_status_page():
    user = get_user_model().objects.create_superuser("root", "root@example.org", "pass phrase")
    client = Client()
    client.force_login(user)
    page = client.get("/admin/").content.decode()
    assert re.search(r'<a href="/status/"[^>]*>Site status</a>', page)
    assert client.get("/status/").status_code == 200  # the page itself stays
