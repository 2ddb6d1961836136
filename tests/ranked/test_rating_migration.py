"""Existing Elo ratings become Glicko-2 ratings (accounts migration 0004,
docs/ACCOUNTS.md §Ratings): the Elo is the starting mean, the deviation follows the
races already played, and the last one starts the idle clock."""

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("accounts", "0003_banned_from_ranked")]
AFTER = [("accounts", "0004_glicko2_ratings")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def whole_schema_after():
    """Going back to accounts 0003 also unapplies every later migration that depends on
    accounts (rooms', arenas', ...): the test's end migrates to every app's last one again,
    or the tests after it on this worker meet a schema without those columns."""
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("whole_schema_after")
def test_elo_ratings_become_the_glicko_mean_with_a_deviation_by_races_played():
    old = migrate(BEFORE)
    Player, Rating = old.get_model("accounts", "Player"), old.get_model("accounts", "Rating")
    RatingChange = old.get_model("accounts", "RatingChange")
    last = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
    rows = {}
    for nickname, value, games in (("new", 1500, 0), ("four", 1540.5, 4), ("vet", 1712, 37)):
        player = Player.objects.create(nickname=nickname)
        rows[nickname] = Rating.objects.create(player=player, value=value, games=games)
        if games:
            RatingChange.objects.create(
                player=player, before=1500, after=value, place=1, field_size=2, created_at=last
            )
    new = migrate(AFTER)
    Rating = new.get_model("accounts", "Rating")
    got = {r.player.nickname: r for r in Rating.objects.select_related("player")}
    assert got["vet"].value == 1712 and got["vet"].deviation == 100  # established: no "?"
    assert got["four"].value == 1540.5 and got["four"].deviation == 250
    assert got["new"].deviation == 350 and got["new"].rated_at is None
    assert got["four"].rated_at == last and got["vet"].volatility == 0.06
