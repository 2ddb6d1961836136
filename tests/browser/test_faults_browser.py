"""Faults staged under a page in Chromium (tests/ops/test_faults.py has the rest)."""

import time

import pytest
from django.db import connection
from playwright.sync_api import expect

from rooms.core.boards import deal_for
from rooms.models import Entry, Move
from tests.browser.browser_helpers import create_room
from tests.ops.test_faults import _database_down, _pid
from tests.rooms.rooms_helpers import first_plan_pair

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_page_whose_pair_met_a_database_outage_gets_its_tiles_back(
    asgi_server, new_device, settings
):
    """The page removes a pair's tiles when it sends it; answered `unavailable`, nothing
    was stored, so the page resyncs (each second until the server answers) and shows
    the pair's tiles again, ready to be played once more."""
    if connection.vendor != "postgresql":
        pytest.skip("stages the outage in PostgreSQL itself")
    settings.RACE_COUNTDOWN_SECONDS = 1
    page = new_device(viewport={"width": 1000, "height": 760})
    create_room(page, asgi_server, "Ana")
    page.select_option("select[name=level]", "beginner")
    page.get_by_role("button", name="Start").click()
    expect(page.locator(".tile[data-face]")).to_have_count(34)
    entry = Entry.objects.get(seat__nickname="Ana")
    layout = deal_for(entry.code).layout
    first = first_plan_pair(entry)
    tiles = [
        page.locator(".tile[data-x='{}'][data-y='{}'][data-z='{}']".format(*layout.positions[i]))
        for i in first
    ]

    _database_down(True, [_pid()])
    try:
        for tile in tiles:
            tile.click()
        expect(page.locator("#message")).to_contain_text("nothing was stored")
        for tile in tiles:
            expect(tile).to_be_hidden()  # gone at once, as every pair is
    finally:
        _database_down(False, [_pid()])
    for tile in tiles:
        expect(tile).to_be_visible()  # back from the resync
    assert Move.objects.filter(entry=entry).count() == 0
    for tile in tiles:
        tile.click()  # the same pair again, now stored
    deadline = time.monotonic() + 10
    while not Move.objects.filter(entry=entry).exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert list(Move.objects.filter(entry=entry).values_list("tiles", flat=True)) == [first]
