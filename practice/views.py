"""Solo practice pages and the JSON endpoints the board calls (all on this device's player)."""

import json

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from accounts.identity import ensure_player
from layouts import library
from mahjong import daily
from mahjong.board_strings import strings
from mahjong.engine.catalog import BY_NAME, BY_NUMBER, CATALOG, LEVELS
from mahjong.engine.layout import flowers_by_count
from mahjong.engine.tiles import FACES
from mahjong.layout_preview import preview_svg
from mahjong.rules import Level, layout_label
from practice import actions
from practice.daily import frame as daily_frame
from practice.daily import win_facts as daily_win_facts
from practice.models import SoloGame
from practice.wins import own_rank
from practice.wording import not_a_record, rank_text

DEFAULT_LEVEL = "easy"
MAX_BODY_BYTES = 2048
SHOWN_CODE_CHARS = 24  # of a code that is not one: enough to recognise it, not a page of it


def game_state(game: SoloGame, position=None) -> dict:
    """Everything the board needs to draw a game; never the winning plan."""
    position = position or actions.position_of(game)
    deal = actions.deal_for(game.code)
    state = {
        "id": game.pk,
        "code": game.code,
        "layout": layout_facts(game),
        "tiles": [
            {"x": x, "y": y, "z": z, "face": FACES[face]}
            for (x, y, z), face in zip(deal.layout.positions, deal.faces, strict=True)
        ],
        "removed": game.moves,
        "ghost": game.ghost,  # a ghost race's game (docs/RULES.md §Ghost races)
        "status": game.status,
        "paused": game.paused,
        "page": game.page,
        "clock_ms": game.clock_ms(),
        "hints_used": game.hints_used,
        "progress": position.progress(),
        "blocked": position.is_blocked(),
        "played_offline": game.played_offline,
    }
    if game.status == SoloGame.Status.WON:
        state["result"] = win_summary(game)
    return state


def layout_facts(game: SoloGame) -> dict:
    """The layout's number, picker key ("Play again" sends it back), label and flowers."""
    if game.layout_number is None:  # a stored layout: its key is the code's "U<id>"
        key = game.code.split("-")[1]
        label = library.title_of(key, get_language()) or key
        flowers = flowers_by_count(game.tile_count)  # as the engine deals stored layouts
        return {"number": None, "name": key, "level": None, "label": label, "flowers": flowers}
    entry = BY_NUMBER[game.layout_number]
    return {
        "number": game.layout_number,
        "name": entry.name,
        "level": entry.level or None,  # a library layout has no level
        "label": layout_label(game.layout_number),
        "flowers": entry.flowers,
    }


def win_summary(game: SoloGame) -> dict:
    """The win dialog's facts: the time, its place among the player's own wins on the
    layout ("your 3rd best"), and the record to beat."""
    previous = SoloGame.best_win_ms(game.player, game.same_layout(), exclude_pk=game.pk)
    summary = {
        "time_ms": game.time_ms,
        "hints_used": game.hints_used,
        "clean": game.clean,
        "record": game.clean and (previous is None or game.time_ms < previous),
        "previous_best_ms": previous,
    }
    summary["daily"] = daily_win_facts(game, daily.today())
    if not game.clean:  # a hinted or replayed win ranks nowhere (docs/RULES.md)
        return {**summary, "rank": None, "rank_text": not_a_record(game)}
    rank = own_rank(game)
    return {**summary, "rank": rank, "rank_text": rank_text(rank)}


def _tiles(count: int) -> str:
    return _("%(count)s tiles") % {"count": count}


def choices(player=None) -> dict:
    """The New game dialog's choices: levels with their tile counts, with and without
    flowers (docs/RULES.md §Layouts and levels), and the layout picker's (the library,
    the player's own and shared stored layouts: layouts/library.py)."""
    flowered = {e.level: e for e in CATALOG if e.flowers}
    levels = []
    for level, label in Level.choices:
        plain, with_flowers = BY_NAME[level], flowered[level]
        levels.append(
            {
                "name": level,
                "label": label,
                "tiles": _tiles(plain.tiles),
                "tiles_flowers": _tiles(with_flowers.tiles),
                "preview": reverse("play-layout-preview", args=[plain.name]),
                "preview_flowers": reverse("play-layout-preview", args=[with_flowers.name]),
            }
        )
    return {"levels": levels, "layouts": library.choices(player, get_language())}


def page_strings() -> dict:
    """The page's own words (the board's are mahjong/board_strings.py)."""
    return {
        "copied": _("Link copied"),
        "copy_failed": _("Select the link and copy it."),
        # A ghost race (docs/RULES.md §Ghost races): its standings rows and its end.
        "ghost_you": _("You"),
        "ghost_row": _("{name}'s ghost, best {time}"),
        "ghost_beaten": _("You beat the ghost by {s} s"),
        "ghost_faster": _("The ghost was {s} s faster"),
        "ghost_tie": _("Dead heat: you and the ghost took the same time"),
        # ... and against the player's own board ("own"): their ghost, in the second person.
        "ghost_row_own": _("Your ghost, best {time}"),
        "ghost_beaten_own": _("You beat your ghost by {s} s"),
        "ghost_faster_own": _("Your ghost was {s} s faster"),
        "ghost_tie_own": _("Dead heat: you matched your ghost's time"),
        "ghost_finished": _("finished"),
        "errors": refusal_strings(),
        "offline": offline_strings(),
        # "{n}" is the count; the page picks the form (English and Spanish have two).
        "pair_left": _("1 pair left"),
        "pairs_left": _("{n} pairs left"),
    }


def refusal_strings() -> dict:
    """What the page says when the server refuses an action, by the refusal's code
    (PracticeError.code): the player's words, never the server's sentence."""
    return {
        "paused": _("The game is paused: tap Resume to play on."),
        "stale": _("The board was out of step with the game; it shows the game as it is now."),
        "too_fast": _("Too fast: take a moment between pairs."),
        "over": _("This game is over: start a new one."),
        "bad_code": _("That is not one of our game codes: a code looks like MJ1-L00-AAAAABL."),
        "no_game": _("This game is not on this device any more: start a new one."),
        "refused": _("That was not accepted; the board shows the game as it is now."),
    }


def offline_strings() -> dict:
    """What the page says while its connection is down and after (docs/PRACTICE.md
    §Offline)."""
    return {
        "queued": _(
            "You are offline. Keep playing: your moves are kept on this device and sent "
            "when the connection returns."
        ),
        "sent": _("Back online: your moves are stored."),
        "needs_network": _("You are offline: this needs a connection."),
        "marked": _(
            "Played offline: this game is not on the leaderboards, records or today's "
            "table, since its pace could not be checked."
        ),
    }


def play(request, code=None):
    """The practice page: the player's game, or a new one of `code`. A code that is not
    one shows a plain word about the link and a way to start, not a board."""
    player = ensure_player(request)
    game = actions.current_game(player)
    if code is not None and (game is None or game.code != code.strip().upper()):
        try:
            game = actions.start_game(player, code)
        except actions.PracticeError:
            return _no_game(request, player, code)
    if game is None:
        level_layout = BY_NAME[DEFAULT_LEVEL].number
        game = actions.start_game(player, actions.random_code(level_layout))
    return _page(request, player, game)


def play_daily(request):
    """/play/daily/: today's challenge (a UTC day's Easy deal, mahjong/daily.py)."""
    return play(request, daily.daily_code(daily.today()))


def ghost_page(request, player, game: SoloGame, ghost: dict):
    """The practice page of a ghost race: `game` on the ghost's deal, and the ghost's
    recorded pairs (replays/ghosts.py) for the page to play back beside it."""
    return _page(request, player, game, ghost=ghost)


def _page(
    request,
    player,
    game: SoloGame | None,
    status: int = 200,
    not_a_game: str = "",
    ghost: dict | None = None,
):
    day = daily.today()
    state = game_state(actions.open_page(game)) if game is not None else None
    # The daily frame is only for today's deal (a replay of another day's is a game).
    is_daily = state is not None and state["code"] == daily.daily_code(day) and not game.ghost
    context = {
        "state": state,
        "choices": choices(player),
        "not_a_game": not_a_game,
        "own_game_waits": state is None and actions.current_game(player) is not None,
        "daily": daily_frame(player, day) if is_daily else None,
        "strings": strings(),
        "page_strings": page_strings(),
        "ghost": ghost,
    }
    return render(request, "practice/play.html", context, status=status)


def _no_game(request, player, code: str):
    """400: the link's code is malformed or names no layout of ours. The player's own
    game, if any, stays as it was and the page offers to go back to it."""
    shown = code.strip().upper()
    if len(shown) > SHOWN_CODE_CHARS:
        shown = shown[: SHOWN_CODE_CHARS - 1] + "…"
    message = _("This link doesn't open a game: the code '%(code)s' is not one of ours.") % {
        "code": shown
    }
    return _page(request, player, None, status=400, not_a_game=message)


@require_GET
@cache_control(public=True, max_age=24 * 3600)
def layout_preview(request, name):
    """A built-in layout's shape as SVG (mahjong/layout_preview.py)."""
    entry = BY_NAME.get(name)
    if entry is None:
        raise Http404(name)
    return HttpResponse(preview_svg(entry.number), content_type="image/svg+xml")


def _body(request) -> dict:
    if len(request.body) > MAX_BODY_BYTES:
        raise actions.PracticeError(_("request too large"))
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, RecursionError):  # 2 KB of "[" nests deeper than json allows
        raise actions.PracticeError(_("the request is not valid JSON")) from None
    if not isinstance(body, dict):
        raise actions.PracticeError(_("the request must be a JSON object"))
    return body


def api(action):
    """A JSON endpoint: the action's answer, or 400 with the reason it was refused."""

    @require_POST
    def view(request):
        player = ensure_player(request)
        try:
            return JsonResponse(action(player, _body(request)))
        except actions.PracticeError as refused:
            game = actions.current_game(player)
            answer = {"error": str(refused), "code": refused.code}
            if game is not None:
                answer["state"] = game_state(game)
            return JsonResponse(answer, status=400)

    view.__name__ = action.__name__
    return view


@api
def new_game(player, body) -> dict:
    if "code" in body:
        code = body["code"]
        if not isinstance(code, str):
            raise actions.PracticeError(_("the game code must be text"))
    else:
        code = library.new_code(_layout_key(body))
    return game_state(actions.start_game(player, code))


def _layout_key(body) -> str:
    """The picker key of the body's level (with its flowers) or layout."""
    name = body.get("layout") or body.get("level") or DEFAULT_LEVEL
    if not isinstance(name, str) or not library.is_known(name):
        raise actions.PracticeError(_("unknown level or layout %(name)r") % {"name": name})
    if body.get("flowers") and name in LEVELS:
        name = "turtle" if name == "hard" else f"{name}-flowers"
    return name


@api
def move(player, body) -> dict:
    tiles = body.get("tiles")
    if not isinstance(tiles, list) or len(tiles) != 2:
        raise actions.PracticeError(_("send the two tiles of the pair as 'tiles': [i, j]"))
    result = actions.play_pair(
        player, body.get("game"), tiles[0], tiles[1], body.get("n"), body.get("queued_ms", 0)
    )
    return game_state(result.game, result.position)


@api
def undo(player, body) -> dict:
    result = actions.undo(player, body.get("game"), body.get("n"))
    return game_state(result.game, result.position)


@api
def hint(player, body) -> dict:
    game, found = actions.use_hint(player, body.get("game"))
    return {"pair": found.pair, "winning": found.winning, "state": game_state(game)}


@api
def pause(player, body) -> dict:
    return game_state(actions.pause(player, body.get("game"), body.get("page")))


@api
def resume(player, body) -> dict:
    return game_state(actions.resume(player, body.get("game")))
