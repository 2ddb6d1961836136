"""The plumbing seen from a real browser (tests/ops/test_plumbing.py has the sockets and
tasks): the status page's live echo."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db


def test_the_status_page_shows_a_live_echo_in_chromium(asgi_server, page):
    page.goto(f"{asgi_server.url}/status/")
    page.wait_for_selector("#socket-state:text('open')")
    page.fill("#echo-text", "hello from chromium")
    page.click("button:text('Send')")
    echo = page.wait_for_selector("li.echo[data-source='socket']")
    assert echo.text_content() == "hello from chromium (via socket)"
    expect(page.locator("#parts li")).to_have_count(4)
