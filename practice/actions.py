"""Solo practice: the one write path for every action on a SoloGame (docs/RULES.md §Solo play).

Views call these functions (and an account merge calls `take_over_games`); each runs in
a transaction, with the game row locked for an action on a game, checks the move against
the engine and stores it before the caller answers, so an acknowledged pair is never
lost and two tabs cannot interleave half-done writes.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from mahjong import reasons, sightings
from mahjong.deals import deal_for
from mahjong.engine.codes import CodeError, make_code, random_seed
from mahjong.engine.hint import Hint
from mahjong.engine.hint import hint as engine_hint
from mahjong.engine.position import Position
from mahjong.race_rules import pace
from mahjong.rules import HINT_TIME_LIMIT_SECONDS
from practice.models import SoloGame


class PracticeError(Exception):
    """A refused action: the message says why (to an API client), the code names the
    reason so the page can say it in its own words (practice.views.page_strings)."""

    def __init__(self, message: str, code: str = "refused"):
        super().__init__(message)
        self.code = code


def check_code(code: str) -> str:
    """The code in canonical form; PracticeError when it is malformed or unknown."""
    code = code.strip().upper()
    try:
        deal_for(code)
    except CodeError as error:
        raise PracticeError(reasons.translate(str(error)), "bad_code") from None
    return code


def position_of(game: SoloGame) -> Position:
    deal = deal_for(game.code)
    alive = deal.layout.full
    for i, j in game.moves:
        alive &= ~(1 << i | 1 << j)
    return Position(deal.layout, deal.faces, alive)


def current_game(player: Player) -> SoloGame | None:
    return player.solo_games.filter(status=SoloGame.Status.PLAYING).order_by("-pk").first()


def has_played(player: Player, code: str) -> bool:
    """Whether the player opened this deal in practice before (mahjong.sightings)."""
    return player.solo_games.filter(code=code).exists()


def random_code(layout_number: int) -> str:
    return make_code(layout_number, random_seed())


def start_game(player: Player, code: str, ghost: bool = False) -> SoloGame:
    """A new game of the deal `code`; the player's unfinished game is abandoned. A ghost
    race's game (`ghost`) is on a deal seen in its replay: never a record
    (docs/RULES.md §Ghost races)."""
    code = check_code(code)
    deal = deal_for(code)
    with transaction.atomic():
        seen_before = sightings.seen(player, code)  # practised or raced before
        player.solo_games.filter(status=SoloGame.Status.PLAYING).update(
            status=SoloGame.Status.ABANDONED, running_since=None
        )
        return SoloGame.objects.create(
            player=player,
            code=code,
            seen_before=seen_before or ghost,
            ghost=ghost,
            layout_number=deal.layout.number,
            tile_count=len(deal.faces),
            running_since=timezone.now(),
        )


def _locked_running_game(player: Player, game_id) -> SoloGame:
    """As _locked_game, and not paused (the caller holds a transaction)."""
    game = _locked_game(player, game_id)
    if game.paused:
        raise PracticeError(_("the game is paused"), "paused")
    return game


def _locked_game(player: Player, game_id) -> SoloGame:
    game = SoloGame.objects.select_for_update().filter(player=player, pk=_as_int(game_id))
    game = game.first()
    if game is None:
        raise PracticeError(_("no such game on this device"), "no_game")
    if game.status != SoloGame.Status.PLAYING:
        raise PracticeError(_("this game is over: start a new one"), "over")
    return game


def _as_int(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PracticeError(_("expected a whole number, got %(value)r") % {"value": value})
    return value


def _check_move_number(game: SoloGame, move_number) -> None:
    if _as_int(move_number) != len(game.moves):
        raise PracticeError(
            _("out of date: the game has %(removed)s pairs removed, not %(n)s")
            % {"removed": len(game.moves), "n": move_number},
            "stale",
        )


@dataclass
class MoveResult:
    game: SoloGame
    position: Position
    repeated: bool = False


# How long a pair may say it waited on the page (an hour: a game left offline longer
# is still taken, its pair's time no earlier than the game's previous pair).
MAX_QUEUED_MS = 3_600_000


@transaction.atomic
def play_pair(player: Player, game_id, i, j, move_number, queued_ms=0) -> MoveResult:
    """Remove the pair (i, j) as move number `move_number` (0-based). `queued_ms`: how
    long the pair waited on the page before it was sent (the connection was down,
    docs/PRACTICE.md §Offline); the pair is timed when it was played, and a wait
    longer than PRACTICE_OFFLINE_AFTER_MS marks the game played offline."""
    # Malformed input is refused first, whatever game it names.
    i, j = sorted((_as_int(i), _as_int(j)))
    move_number = _as_int(move_number)
    queued_ms = _as_int(queued_ms)
    if not 0 <= queued_ms <= MAX_QUEUED_MS:
        raise PracticeError(
            _("queued_ms must be between 0 and %(max)s ms") % {"max": MAX_QUEUED_MS}
        )
    game = _locked_game(player, game_id)
    # A retried request (the answer was lost on the way) is acknowledged again (n = -1
    # on a fresh board is no retry: there is no last pair to compare).
    if game.moves and move_number == len(game.moves) - 1 and game.moves[-1] == [i, j]:
        return MoveResult(game, position_of(game), repeated=True)
    _check_move_number(game, move_number)
    if game.paused:
        raise PracticeError(_("the game is paused"), "paused")
    now = timezone.now()
    played_at = _played_at(game, now, queued_ms)
    _not_too_fast(game, played_at)
    position = position_of(game)
    ok, reason = position.can_remove(i, j)
    if not ok:
        raise PracticeError(reasons.translate(reason))
    position = position.remove(i, j)
    if queued_ms > settings.PRACTICE_OFFLINE_AFTER_MS:
        game.played_offline = True
    game.moves.append([i, j])
    # Pairs keep their order on the clock whatever the page claims.
    game.move_ms.append(max([game.clock_ms(played_at), *game.move_ms[-1:]]))
    game.last_pair_at = played_at
    if position.is_won():
        _finish(game, now)
    game.save()
    return MoveResult(game, position)


def _played_at(game: SoloGame, now, queued_ms: int):
    """When the pair was played: `queued_ms` before it arrived, never before the game's
    previous pair nor its start."""
    played_at = now - timedelta(milliseconds=queued_ms)
    return max(played_at, game.last_pair_at or game.started_at, game.started_at)


def _not_too_fast(game: SoloGame, now) -> None:
    """docs/RULES.md §Fair play: no human makes two pairs within PAIR_FLOOR_MS, in
    practice as in races. `now` is when the pair was played (a pair that waited on the
    page while offline is timed then: the queue sends them in a burst)."""
    floor = timedelta(milliseconds=settings.PAIR_FLOOR_MS)
    if game.last_pair_at is not None and now - game.last_pair_at < floor:
        message = _("too fast: a pair needs two deliberate taps (at least %(ms)s ms apart)")
        raise PracticeError(message % {"ms": settings.PAIR_FLOOR_MS}, "too_fast")


def _flag_inhuman_pace(game: SoloGame) -> None:
    """A won game's pairs, timed on its clock (pauses left out), read as the races read
    theirs (mahjong/race_rules/pace.py): an inhuman pace keeps the win off every table."""
    if not settings.PRACTICE_PACE_FLAGS:
        return
    found = pace.inhuman(pace.intervals_ms_of_clock(game.move_ms))
    if found is not None:
        game.pace_flagged = True
        game.pace_median_ms, game.pace_spread = found.median_ms, round(found.spread, 3)


def _finish(game: SoloGame, now) -> None:
    """The last pair is in: the time is the clock at that pair (when it was played, for
    a pair that waited offline)."""
    _flag_inhuman_pace(game)
    game.time_ms = game.move_ms[-1]
    game.elapsed_ms = game.time_ms
    game.running_since = None
    game.finished_at = now
    game.status = SoloGame.Status.WON


@transaction.atomic
def undo(player: Player, game_id, move_number) -> MoveResult:
    """Put back the last pair; `move_number` is the count of pairs the client shows."""
    game = _locked_game(player, game_id)
    _check_move_number(game, move_number)
    if not game.moves:
        raise PracticeError(_("nothing to undo"))
    if game.paused:
        raise PracticeError(_("the game is paused"), "paused")
    game.moves.pop()
    del game.move_ms[len(game.moves) :]  # its time too (a game from before has none)
    game.undos_used += 1
    game.save(update_fields=["moves", "move_ms", "undos_used"])
    return MoveResult(game, position_of(game))


def use_hint(player: Player, game_id) -> tuple[SoloGame, Hint]:
    """The next pair of a winning plan, else any playable pair; counted if any
    (docs/RULES.md §Playing a board). The solver thinks (up to HINT_TIME_LIMIT_SECONDS)
    with no transaction open: on SQLite an open one holds the whole database's write
    lock, every race's pairs included."""
    game = _hint_game(player, game_id)
    hint = engine_hint(position_of(game), time_limit=HINT_TIME_LIMIT_SECONDS)
    if hint.pair is None:
        return game, hint
    return _count_hint(player, game_id, game.moves), hint


@transaction.atomic
def _hint_game(player: Player, game_id) -> SoloGame:
    return _locked_running_game(player, game_id)


@transaction.atomic
def _count_hint(player: Player, game_id, thought_on: list) -> SoloGame:
    game = _locked_running_game(player, game_id)
    if game.moves != thought_on:  # a pair or an undo came in meanwhile
        raise PracticeError(_("the board changed while the hint was found: ask again"), "stale")
    game.hints_used += 1
    game.save(update_fields=["hints_used"])
    return game


@transaction.atomic
def clear_pace_flags(games) -> int:
    """An admin looked and found a fast human: the wins (a queryset) count again on
    every table. The one write path of the flag's clearing (practice/admin.py)."""
    return games.filter(pace_flagged=True).update(pace_flagged=False)


@transaction.atomic
def open_page(game: SoloGame) -> SoloGame:
    """A page is served with this game: it is now the game's page (SoloGame.page)."""
    SoloGame.objects.filter(pk=game.pk).update(page=models.F("page") + 1)
    game.refresh_from_db(fields=["page"])
    return game


@transaction.atomic
def pause(player: Player, game_id, page=None) -> SoloGame:
    """Stop the clock. `page` (SoloGame.page) is the page that asks: a page since
    replaced by a newer one (a late pause of a reload) changes nothing."""
    game = _locked_game(player, game_id)
    if page is not None and _as_int(page) != game.page:
        return game
    if game.running_since is not None:
        game.elapsed_ms = game.clock_ms()
        game.running_since = None
        game.save(update_fields=["elapsed_ms", "running_since"])
    return game


@transaction.atomic
def resume(player: Player, game_id) -> SoloGame:
    game = _locked_game(player, game_id)
    if game.running_since is None:
        game.running_since = timezone.now()
        game.save(update_fields=["running_since"])
    return game


def take_over_games(device: Player, account: Player, **_signal) -> None:
    """On an account merge (accounts.signals.player_merged): the device's games become
    the account's. Each player has at most one unfinished game; the newer one (most
    likely the one on the screen that is signing in) goes on, the other is abandoned as
    a new game would abandon it."""
    playing = SoloGame.objects.filter(
        player__in=[device, account], status=SoloGame.Status.PLAYING
    ).order_by("-started_at", "-pk")
    keep = playing.first()
    playing.exclude(pk=getattr(keep, "pk", None)).update(
        status=SoloGame.Status.ABANDONED, running_since=None
    )
    SoloGame.objects.filter(player=device).update(player=account)
