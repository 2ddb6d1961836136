"""Ghost races (docs/RULES.md §Ghost races): a finished board of a replay raced again.

The ghost runs in the browser: the page gets the ghost's pair times once, inline, and
`practice/static/practice/ghost.js` plays them back against the player's own game clock
(paused when the player pauses). Nothing of it is written while it runs: the player's
game is an ordinary practice game on the same deal, marked `ghost` (practice.actions.
start_game), so it is never a record nor a daily attempt. Read only; a refusal says why.
"""

from django.utils.translation import gettext as _

from mahjong import daily
from practice.daily import daily_board
from practice.models import SoloGame
from replays.timeline import game_replay, race_replay
from rooms.models import Entry, Race


class NoGhost(Exception):
    def __init__(self, message: str, status: int = 404):
        super().__init__(message)
        self.message, self.status = message, status


def _as_id(value) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise NoGhost(_("a ghost is named by numbers: this link is not one"), 400) from None
    if not 0 < number < 2**63:
        raise NoGhost(_("a ghost is named by numbers: this link is not one"), 400)
    return number


def _ghost(board: dict, deal: dict, source: str, owner_id: int | None) -> dict:
    """What the page needs of a finished board: its deal's code, who played it, its time
    and the time of each pair (ms from its start), in order. `owner_id`, the player whose
    board it was, is read by `seen_by` and not sent."""
    pairs = [event[0] for event in board["events"] if event[1] == "pair"]
    return {
        "owner_id": owner_id,
        "code": board["code"],
        "nickname": board["nickname"],
        "finished_ms": board["finished_ms"],
        "total_pairs": len(deal["faces"]) // 2,
        "pair_ms": pairs,
        "source": source,
    }


def race_ghost(race_id, seat_id) -> dict:
    """The board of seat `seat_id` in the finished race `race_id`, finished."""
    race = Race.objects.filter(pk=_as_id(race_id)).first()
    if race is None:
        raise NoGhost(_("no such race"))
    if race.status != Race.Status.FINISHED:
        raise NoGhost(_("this race is not finished yet: its boards stay hidden until it ends"))
    entry = Entry.objects.filter(race=race, seat_id=_as_id(seat_id)).first()
    if entry is None:
        raise NoGhost(_("nobody raced in that seat of this race"))
    if entry.status != Entry.Status.FINISHED:
        raise NoGhost(_("only a finished board can be raced as a ghost: this one did not finish"))
    replay = race_replay(race)
    board = next(p for p in replay["players"] if p["seat"] == entry.seat_id)
    source = f"/replays/race/{race.pk}/"
    return _ghost(board, replay["deals"][board["code"]], source, entry.seat.player_id)


def game_ghost(game_id) -> dict:
    """A won practice game."""
    game = SoloGame.objects.select_related("player").filter(pk=_as_id(game_id)).first()
    if game is None:
        raise NoGhost(_("no such game"))
    if game.status != SoloGame.Status.WON:
        raise NoGhost(_("only a finished board can be raced as a ghost: this game was not won"))
    replay = game_replay(game)
    board = replay["players"][0]
    return _ghost(board, replay["deals"][game.code], f"/replays/game/{game.pk}/", game.player_id)


def seen_by(ghost: dict, player) -> dict:
    """The ghost as `player`'s page gets it: `own` when the board was theirs ("Your
    ghost"), and no player's id."""
    shown = {key: value for key, value in ghost.items() if key != "owner_id"}
    return {**shown, "own": ghost["owner_id"] == player.pk}


def daily_ghost(player, day=None) -> dict:
    """Today's best time of the daily challenge, once `player` made their own attempt
    (a game of today's deal with a pair removed, or won)."""
    day = day or daily.today()
    code = daily.daily_code(day)
    start, end = daily.day_bounds(day)
    own = SoloGame.objects.filter(
        player=player, code=code, ghost=False, started_at__gte=start, started_at__lt=end
    ).exclude(moves=[])
    if not own.exists():
        raise NoGhost(_("play today's challenge yourself first: then race today's best"), 403)
    best = daily_board(day, 1)
    if not best:
        raise NoGhost(_("nobody has cleared today's challenge yet: there is no ghost to race"))
    return game_ghost(best[0].pk)
