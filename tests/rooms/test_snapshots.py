"""A socket's snapshot (rooms/core/serializers.py): what every seat of a room shares is read
once per room version and language in a web process (a race's start opens every seat's
socket at once), and each seat still gets its own board."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from rooms.core import serializers
from rooms.models import Room
from tests.rooms.rooms_helpers import room_with, started

pytestmark = pytest.mark.django_db


def snapshot_counted(code: str, seat):
    with CaptureQueriesContext(connection) as queries:
        room = Room.objects.get(code=code)
        data = serializers.snapshot(room, seat)
    return data, len(queries)


def test_seats_opening_together_share_one_read_of_the_room_and_get_their_own_boards():
    room, players = room_with("Ana", "Bo", "Cy")
    started(room, players[0])
    ana, bo, cy = room.seats.order_by("pk")
    first, first_queries = snapshot_counted(room.code, ana)
    second, second_queries = snapshot_counted(room.code, bo)
    third, _ = snapshot_counted(room.code, cy)
    assert second_queries <= 3 < first_queries  # the room, the seat's entry and its race
    assert [s["you"] for s in (first, second, third)] == [ana.pk, bo.pk, cy.pk]
    assert [s["entry"]["seat"] for s in (first, second, third)] == [ana.pk, bo.pk, cy.pk]
    assert first["room"] == second["room"] and first["standings"] == third["standings"]


def test_a_new_version_or_another_language_is_read_afresh():
    room, players = room_with("Ana", "Bo")
    ana, bo = room.seats.order_by("pk")
    before, _ = snapshot_counted(room.code, ana)
    started(room, players[0])  # a versioned change: the race's start
    after, _ = snapshot_counted(room.code, bo)
    assert after["v"] > before["v"] and before["race"] is None and after["race"] is not None
    with translation.override("es"):
        _, spanish_queries = snapshot_counted(room.code, ana)
    _, english_queries = snapshot_counted(room.code, ana)
    assert spanish_queries > english_queries  # read for Spanish readers, kept for English
