"""Solo practice pages and the JSON endpoints the board calls (all on this device's player)."""

import json

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from accounts import records
from accounts.identity import ensure_player
from mahjong import practice
from mahjong.engine.catalog import BY_NAME, CATALOG, LEVELS
from mahjong.engine.tiles import FACES
from mahjong.models import SoloGame

DEFAULT_LEVEL = "easy"
MAX_BODY_BYTES = 2048


def game_state(game: SoloGame, position=None) -> dict:
    """Everything the board needs to draw a game; never the winning plan."""
    position = position or practice.position_of(game)
    deal = practice.deal_for(game.code)
    state = {
        "id": game.pk,
        "code": game.code,
        "layout": {
            "number": game.layout_number,
            "label": practice.layout_label(game.layout_number),
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
    previous = records.best_time_ms(game.player, game.layout_number, exclude_pk=game.pk)
    return {
        "time_ms": game.time_ms,
        "hints_used": game.hints_used,
        "record": previous is None or game.time_ms < previous,
        "previous_best_ms": previous,
    }


# Lazy: these are read per request, in the language of that request.
SUIT_NAMES = {
    "B": gettext_lazy("bamboo"),
    "C": gettext_lazy("characters"),
    "D": gettext_lazy("dots"),
}
HONOUR_NAMES = {
    "N": gettext_lazy("North wind"),
    "S": gettext_lazy("South wind"),
    "E": gettext_lazy("East wind"),
    "W": gettext_lazy("West wind"),
    "R": gettext_lazy("Red dragon"),
    "G": gettext_lazy("Green dragon"),
    "Wh": gettext_lazy("White dragon"),
    "F1": gettext_lazy("Plum (flower)"),
    "F2": gettext_lazy("Orchid (flower)"),
    "F3": gettext_lazy("Chrysanthemum (flower)"),
    "F4": gettext_lazy("Bamboo (flower)"),
    "S1": gettext_lazy("Spring (season)"),
    "S2": gettext_lazy("Summer (season)"),
    "S3": gettext_lazy("Autumn (season)"),
    "S4": gettext_lazy("Winter (season)"),
}


def face_names() -> dict:
    names = {face: str(name) for face, name in HONOUR_NAMES.items()}
    for suit, suit_name in SUIT_NAMES.items():
        for rank in range(1, 10):
            names[f"{rank}{suit}"] = _("%(rank)s of %(suit)s") % {"rank": rank, "suit": suit_name}
    return names


def strings() -> dict:
    """The board's words, translated on the server (the page carries them as JSON)."""
    return {
        "faces": face_names(),
        "free": _("free"),
        "blocked": _("blocked"),
        "covered_one": _("covered by 1 tile"),
        "covered_many": _("covered by {n} tiles"),
        "both_sides": _("blocked on both sides"),
        "and": _(" and "),
        "no_moves": _("No more moves."),
        "hint_winning": _("Hint: this pair keeps a winning line."),
        "hint_playable": _("Hint: no winning line is left from here; this pair can be played."),
        "pause": _("Pause"),
        "resume": _("Resume"),
        "new_record": _("New personal record!"),
        "your_record": _("Your record on this level: {time}"),
        "offline": _("The server cannot be reached; try again."),
        "face_down": _("face down"),
    }


def choices() -> dict:
    return {
        "levels": [(level, practice.LEVEL_LABELS[level]) for level in LEVELS],
        "layouts": [
            {"name": e.name, "number": e.number, "label": practice.layout_label(e.number)}
            for e in CATALOG
        ],
    }


def play(request, code=None):
    player = ensure_player(request)
    game = practice.current_game(player)
    error = None
    if code is not None and (game is None or game.code != code.upper()):
        try:
            game = practice.start_game(player, code)
        except practice.PracticeError as refused:
            error = _("That game code cannot be played: %(reason)s") % {"reason": refused}
    if game is None:
        level_layout = BY_NAME[DEFAULT_LEVEL].number
        game = practice.start_game(player, practice.random_code(level_layout))
    context = {
        "state": game_state(game),
        "choices": choices(),
        "error": error,
        "strings": strings(),
    }
    return render(request, "practice/play.html", context, status=400 if error else 200)


def _body(request) -> dict:
    if len(request.body) > MAX_BODY_BYTES:
        raise practice.PracticeError(_("request too large"))
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, RecursionError):  # 2 KB of "[" nests deeper than json allows
        raise practice.PracticeError(_("the request is not valid JSON")) from None
    if not isinstance(body, dict):
        raise practice.PracticeError(_("the request must be a JSON object"))
    return body


def api(action):
    """A JSON endpoint: the action's answer, or 400 with the reason it was refused."""

    @require_POST
    def view(request):
        player = ensure_player(request)
        try:
            return JsonResponse(action(player, _body(request)))
        except practice.PracticeError as refused:
            game = practice.current_game(player)
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
            raise practice.PracticeError(_("the game code must be text"))
    else:
        code = practice.random_code(_layout_number(body))
    return game_state(practice.start_game(player, code))


def _layout_number(body) -> int:
    name = body.get("layout") or body.get("level") or DEFAULT_LEVEL
    if not isinstance(name, str) or name not in BY_NAME:
        raise practice.PracticeError(_("unknown level or layout %(name)r") % {"name": name})
    if body.get("flowers") and name in LEVELS:
        name = "turtle" if name == "hard" else f"{name}-flowers"
    return BY_NAME[name].number


@api
def move(player, body) -> dict:
    tiles = body.get("tiles")
    if not isinstance(tiles, list) or len(tiles) != 2:
        raise practice.PracticeError(_("send the two tiles of the pair as 'tiles': [i, j]"))
    result = practice.play_pair(player, body.get("game"), tiles[0], tiles[1], body.get("n"))
    return game_state(result.game, result.position)


@api
def undo(player, body) -> dict:
    result = practice.undo(player, body.get("game"), body.get("n"))
    return game_state(result.game, result.position)


@api
def hint(player, body) -> dict:
    game, found = practice.use_hint(player, body.get("game"))
    return {"pair": found.pair, "winning": found.winning, "state": game_state(game)}


@api
def pause(player, body) -> dict:
    return game_state(practice.pause(player, body.get("game")))


@api
def resume(player, body) -> dict:
    return game_state(practice.resume(player, body.get("game")))


@require_GET
def records_page(request):
    player = ensure_player(request)
    rows = records.statistics(player)
    context = {
        "statistics": rows,
        "totals": records.totals(rows),
        "leaderboard": records.leaderboard(player),
    }
    return render(request, "practice/records.html", context)
