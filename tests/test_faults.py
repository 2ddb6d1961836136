"""Faults that CI can stage honestly: a part the site needs is unreachable (nothing
listens on its port). The long drills (kill -9 the web server, restart Redis) are scripts
in bench/drills, with results in docs/PERFORMANCE.md."""

import pytest

from rooms import actions
from rooms.boards import position_of
from rooms.client_board import a_legal_pair
from rooms.models import Entry, Move
from tests.conftest import free_port
from tests.rooms_helpers import room_with

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def running_race(settings):
    settings.RACE_COUNTDOWN_SECONDS = 0
    room, players = room_with("Ana", "Bo")
    actions.start_race(players[0], room.code, seed=7)
    return room, players


def test_with_redis_unreachable_a_pair_is_stored_and_acknowledged_not_refused(
    running_race, settings
):
    """Found by the Redis restart drill: the event failed after commit and a stored pair
    was answered `server_error`. The event is lost instead; versions make clients resync."""
    room, (ana, bo) = running_race
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{free_port()}/0"]},  # nothing listens
        }
    }
    entry = Entry.objects.get(seat__player=bo)
    pair = a_legal_pair(position_of(entry))
    stored = actions.play_pair(bo, room.code, list(pair), 0)
    assert stored.pairs_removed == 1
    assert Move.objects.filter(entry=entry).count() == 1
