"""Whether a player has seen a deal before, wherever they saw it (docs/RULES.md §Fair
play: a practice win counts as clean only on a first sight of its deal).

Practice and races are separate apps that may not import each other
(docs/ARCHITECTURE.md, the import contracts), yet a deal raced is a deal seen. So each
app that shows deals registers a check here when it starts (its AppConfig.ready), and
practice asks this module, not the other app.
"""

from collections.abc import Callable

SeenCheck = Callable[[object, str], bool]  # (player, game code) -> seen?
_checks: list[SeenCheck] = []


def register(check: SeenCheck) -> None:
    if check not in _checks:
        _checks.append(check)


def seen(player, code: str) -> bool:
    """Whether any app has shown `player` the deal `code`."""
    return any(check(player, code) for check in _checks)
