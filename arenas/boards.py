"""The arena winners' board on the leaderboards by period (docs/RULES.md §Leaderboards by
period): records lists it with its other boards (records/boards.py BOARDS) and hands it
the period; this module knows nothing of records, only the shape of its rows."""

from django.urls import reverse
from django.utils.formats import number_format

from arenas import queries


def winners(start, end, limit: int) -> list[tuple]:
    """The players with the most arena wins (then podiums) among the arenas finished in
    [start, end): (player, its page), wins, podiums."""
    return [
        (
            (row["name"], reverse("player", args=[row["player_id"]])),
            (number_format(row["wins"]), None),
            (number_format(row["podiums"]), None),
        )
        for row in queries.winners_between(start, end)[:limit]
    ]
