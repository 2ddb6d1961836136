"""The content security policy in Chromium (tests/security/test_security.py has the
rest): the pages and the admin run under it without a single violation."""

import pytest
from django.contrib.auth import get_user_model

from rooms.models import SiteDefaults
from tests.accounts.accounts_helpers import FAST_HASHERS
from tests.browser.browser_helpers import create_room

pytestmark = pytest.mark.django_db


def test_the_pages_run_under_the_policy_without_a_single_violation(asgi_server, page):
    refusals = []
    page.on("console", lambda message: refusals.append(message.text))
    page.goto(f"{asgi_server.url}/play/")
    page.locator(".tile").first.wait_for()
    create_room(page, asgi_server, "Ana")
    page.goto(f"{asgi_server.url}/status/")
    page.locator("#socket-state", has_text="open").wait_for()
    assert not [text for text in refusals if "Content Security Policy" in text]


def test_the_admin_runs_under_the_policy_and_saves_a_default(asgi_server, page, settings):
    """Django's admin pages (their scripts, styles and forms) under the site's strict
    policy, driven in a real browser: no violation, and a changed default is saved."""
    settings.PASSWORD_HASHERS = FAST_HASHERS
    get_user_model().objects.create_superuser("root", "root@example.org", "a long pass phrase")
    refusals = []
    page.on("console", lambda message: refusals.append(message.text))
    page.goto(f"{asgi_server.url}/admin/")
    page.fill("#id_username", "root")
    page.fill("#id_password", "a long pass phrase")
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Site defaults").first.click()
    page.fill("#id_hints", "7")
    page.get_by_role("button", name="Save", exact=True).click()
    page.locator(".messagelist .success").wait_for()
    page.goto(f"{asgi_server.url}/admin/rooms/race/")
    page.locator("#changelist").wait_for()
    assert SiteDefaults.load().hints == 7
    assert not [text for text in refusals if "Content Security Policy" in text]
