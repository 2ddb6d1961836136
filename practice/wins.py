"""Reading wins (no writes): a player's rank among their own wins, each player's best.

Records' leaderboards and practice's daily challenge both rank wins this way, so it
lives here, below records (pyproject.toml [tool.importlinter])."""

from django.db.models import F, Window
from django.db.models.functions import RowNumber

from practice.models import SoloGame

BOARD_SIZE = 10


def best_win_per_player(games, limit: int = BOARD_SIZE) -> list[SoloGame]:
    """Each player's fastest win among `games` (earliest on equal times), fastest first."""
    ranked = games.filter(status=SoloGame.Status.WON).annotate(
        rank_for_player=Window(
            RowNumber(), partition_by=F("player"), order_by=[F("time_ms"), F("finished_at")]
        )
    )
    best = ranked.filter(rank_for_player=1).select_related("player")
    return list(best.order_by("time_ms", "finished_at")[:limit])


def own_rank(game: SoloGame) -> int:
    """Where a clean win stands among its player's clean wins on its layout: 1 is their
    best. An equal time shares the place (it is not beaten)."""
    faster = SoloGame.objects.filter(
        SoloGame.CLEAN,
        game.same_layout(),
        player=game.player_id,
        status=SoloGame.Status.WON,
        time_ms__lt=game.time_ms,
    )
    return faster.count() + 1
