"""Solo practice pages and the JSON endpoints the board calls (all on this device's player)."""

import json

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.identity import ensure_player
from mahjong.board_strings import strings
from mahjong.engine.catalog import BY_NAME, CATALOG, LEVELS
from mahjong.engine.tiles import FACES
from mahjong.rules import Level, layout_label
from practice import actions
from practice.models import SoloGame

DEFAULT_LEVEL = "easy"
MAX_BODY_BYTES = 2048


def game_state(game: SoloGame, position=None) -> dict:
    """Everything the board needs to draw a game; never the winning plan."""
    position = position or actions.position_of(game)
    deal = actions.deal_for(game.code)
    state = {
        "id": game.pk,
        "code": game.code,
        "layout": {
            "number": game.layout_number,
            "label": layout_label(game.layout_number),
        },
        "tiles": [
            {"x": x, "y": y, "z": z, "face": FACES[face]}
            for (x, y, z), face in zip(deal.layout.positions, deal.faces, strict=True)
        ],
        "removed": game.moves,
        "status": game.status,
        "paused": game.paused,
        "clock_ms": game.clock_ms(),
        "hints_used": game.hints_used,
        "progress": position.progress(),
        "blocked": position.is_blocked(),
    }
    if game.status == SoloGame.Status.WON:
        state["result"] = win_summary(game)
    return state


def win_summary(game: SoloGame) -> dict:
    previous = SoloGame.best_win_ms(game.player, game.layout_number, exclude_pk=game.pk)
    return {
        "time_ms": game.time_ms,
        "hints_used": game.hints_used,
        "record": previous is None or game.time_ms < previous,
        "previous_best_ms": previous,
    }


def choices() -> dict:
    return {
        "levels": Level.choices,
        "layouts": [
            {"name": e.name, "number": e.number, "label": layout_label(e.number)} for e in CATALOG
        ],
    }


def play(request, code=None):
    player = ensure_player(request)
    game = actions.current_game(player)
    error = None
    if code is not None and (game is None or game.code != code.upper()):
        try:
            game = actions.start_game(player, code)
        except actions.PracticeError as refused:
            error = _("That game code cannot be played: %(reason)s") % {"reason": refused}
    if game is None:
        level_layout = BY_NAME[DEFAULT_LEVEL].number
        game = actions.start_game(player, actions.random_code(level_layout))
    context = {
        "state": game_state(game),
        "choices": choices(),
        "error": error,
        "strings": strings(),
    }
    return render(request, "practice/play.html", context, status=400 if error else 200)


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
            answer = {"error": str(refused)}
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
        code = actions.random_code(_layout_number(body))
    return game_state(actions.start_game(player, code))


def _layout_number(body) -> int:
    name = body.get("layout") or body.get("level") or DEFAULT_LEVEL
    if not isinstance(name, str) or name not in BY_NAME:
        raise actions.PracticeError(_("unknown level or layout %(name)r") % {"name": name})
    if body.get("flowers") and name in LEVELS:
        name = "turtle" if name == "hard" else f"{name}-flowers"
    return BY_NAME[name].number


@api
def move(player, body) -> dict:
    tiles = body.get("tiles")
    if not isinstance(tiles, list) or len(tiles) != 2:
        raise actions.PracticeError(_("send the two tiles of the pair as 'tiles': [i, j]"))
    result = actions.play_pair(player, body.get("game"), tiles[0], tiles[1], body.get("n"))
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
    return game_state(actions.pause(player, body.get("game")))


@api
def resume(player, body) -> dict:
    return game_state(actions.resume(player, body.get("game")))
