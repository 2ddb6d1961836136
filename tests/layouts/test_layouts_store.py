"""Storing a layout: the one write path and its limits (docs/LAYOUTS.md)."""

import pytest
from django.utils import timezone

from accounts.models import Player
from layouts import actions
from layouts.actions import LayoutRejected, store_layout
from layouts.models import StoredLayout
from tests.layouts.layouts_helpers import BROKEN_TEXT, beginner_text, flat_text, tower_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def player():
    return Player.objects.create()


def test_a_good_layout_is_stored_in_the_engines_spelling(player):
    stored = store_layout(beginner_text(), player, "  My   pyramid ")
    assert stored.pk and stored.tiles == 34 and stored.owner == player
    assert stored.title_en == "My pyramid"
    assert stored.text.startswith("kmahjongg-layout-v1.1\n")


def test_the_same_shape_twice_is_one_row(player):
    first = store_layout(beginner_text(), player)
    again = store_layout(beginner_text().replace("\n", "\r\n"), player, "named later")
    assert again.pk == first.pk and again.title_en == "named later"
    assert StoredLayout.objects.count() == 1


def test_a_malformed_file_is_refused_with_its_line_and_nothing_is_stored(player):
    with pytest.raises(LayoutRejected) as refused:
        store_layout(BROKEN_TEXT, player)
    assert refused.value.line == 6  # shown beside the message, which names the fault
    assert refused.value.message == "unknown character 'x' at column 2"
    assert not StoredLayout.objects.exists()


def test_a_layout_that_can_never_be_won_is_refused(player):
    with pytest.raises(LayoutRejected) as refused:
        store_layout(tower_text(), player)
    assert "never free" in refused.value.message  # the engine's words, why it cannot be won
    assert not StoredLayout.objects.exists()


def test_an_oversized_file_is_refused_before_it_is_read(player):
    text = flat_text(8, comment="x" * (actions.MAX_BYTES + 1))
    with pytest.raises(LayoutRejected, match="too big"):
        store_layout(text, player)
    assert not StoredLayout.objects.exists()


def test_too_many_tiles_are_refused(player):
    with pytest.raises(LayoutRejected, match="from 4 to 288 tiles"):
        store_layout(flat_text(290), player)


def test_a_flood_from_one_device_is_refused_after_the_hourly_limit(player):
    for n in range(actions.MAX_PER_WINDOW):
        store_layout(flat_text(2 * n + 4), player)
    with pytest.raises(LayoutRejected, match="last hour"):
        store_layout(flat_text(40), player)
    assert StoredLayout.objects.count() == actions.MAX_PER_WINDOW


def test_an_older_upload_no_longer_counts_against_the_hourly_limit(player):
    for n in range(actions.MAX_PER_WINDOW):
        store_layout(flat_text(2 * n + 4), player)
    StoredLayout.objects.update(created_at=timezone.now() - actions.RATE_WINDOW)
    assert store_layout(flat_text(40), player).pk


def test_a_player_keeps_at_most_the_cap(player, monkeypatch):
    monkeypatch.setattr(actions, "MAX_PER_WINDOW", 1000)
    for n in range(actions.MAX_PER_PLAYER):
        store_layout(flat_text(2 * n + 4), player)
    with pytest.raises(LayoutRejected, match="the most one player may keep"):
        store_layout(flat_text(2 * actions.MAX_PER_PLAYER + 4), player)


def test_an_account_merge_moves_the_devices_layouts(player):
    from accounts.signals import player_merged

    account = Player.objects.create()
    stored = store_layout(beginner_text(), player)
    player_merged.send(sender=None, device=player, account=account)
    stored.refresh_from_db()
    assert stored.owner == account
