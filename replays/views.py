"""Replays by link, readable without an account (docs/ARCHITECTURE.md §Replays): a
finished race (`/replays/race/N/`) or a practice game that is over (`/replays/game/N/`),
as a page or as JSON (docs/PROTOCOL.md §Replays)."""

from django.http import JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET

from accounts.identity import ensure_player, player_for_request
from mahjong.board_strings import face_names
from mahjong.rules import layout_label
from practice import actions as practice
from practice import views as practice_views
from practice.models import SoloGame
from replays import ghosts
from replays.timeline import NotReplayable, game_replay, race_replay
from rooms.models import Race


class Refused(Exception):
    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.message, self.status = message, status


def _race(race_id: int) -> tuple[Race, dict]:
    race = Race.objects.select_related("room").filter(pk=race_id).first()
    if race is None:
        raise Refused(_("no such race"), 404)
    if race.status != Race.Status.FINISHED:
        # Everyone races the same deal: nothing of it shows before the end.
        raise Refused(_("this race is not finished yet: its boards stay hidden until it ends"), 404)
    return race, _rebuilt(race_replay, race)


def _game(game_id: int) -> tuple[SoloGame, dict]:
    game = SoloGame.objects.select_related("player").filter(pk=game_id).first()
    if game is None:
        raise Refused(_("no such game"), 404)
    if game.status == SoloGame.Status.PLAYING:
        raise Refused(_("this game is still being played"), 404)
    return game, _rebuilt(game_replay, game)


def _rebuilt(rebuild, subject) -> dict:
    try:
        return rebuild(subject)
    except NotReplayable as error:
        raise Refused(_("this cannot be replayed: %(why)s") % {"why": error}, 409) from None


def _as_json(find, pk: int) -> JsonResponse:
    try:
        _subject, replay = find(pk)
    except Refused as refused:
        return JsonResponse({"error": refused.message}, status=refused.status)
    response = JsonResponse(replay)
    response["Cache-Control"] = "public, max-age=3600"  # what is over never changes
    # ... but a CPU seat is named in the reader's language (its cookie, else its browser's).
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def _as_page(request, find, pk: int, title) -> object:
    try:
        subject, replay = find(pk)
    except Refused as refused:
        context = {"error": refused.message, "title": _("Replay")}
        return render(request, "replays/replay.html", context, status=refused.status)
    length_ms = (replay.get("race") or replay["game"])["length_ms"]
    context = {
        "title": title(subject),
        "replay": replay,
        "length_ms": length_ms,
        "strings": replay_strings(),
        "ghosts": ghost_links(replay, _own_seats(subject, player_for_request(request))),
        "first_board": first_board_box(replay),
        "solo": len(replay["players"]) < 2,  # drawn so from the first paint, as the script will
    }
    return render(request, "replays/replay.html", context)


# A layer's offset in tile widths, and the largest tile width (mahjong/static/mahjong/board.js
# DEPTH and replays/static/replays/replay.js fit()).
DEPTH, MAX_TILE_W = 0.13, 64


def first_board_box(replay: dict) -> dict:
    """The shape of the board the page shows large first, so its place is kept before the
    script draws it: the text under it does not jump when the board comes (Lighthouse's
    layout shift). Its size in px at the largest tiles; the page scales it down to fit."""
    places = replay["deals"][replay["players"][0]["code"]]["tiles"]
    cols = max(p[0] for p in places) + 2 - min(p[0] for p in places)
    rows = max(p[1] for p in places) + 2 - min(p[1] for p in places)
    layers = max(p[2] for p in places) + 1
    wide = cols / 2 + DEPTH * layers + 0.1
    high = rows * 2 / 3 + DEPTH * layers
    return {"width": round(MAX_TILE_W * wide + 6), "height": round(MAX_TILE_W * high + 6)}


def _own_seats(subject, player) -> set:
    """The viewer's own boards of the replay: seats of a race, or the game's one board."""
    if player is None:
        return set()
    if isinstance(subject, Race):
        return set(subject.entries.filter(seat__player=player).values_list("seat_id", flat=True))
    return {None} if subject.player_id == player.pk else set()


def ghost_links(replay: dict, own_seats: set = frozenset()) -> list[dict]:
    """ "Race this ghost" for each finished board of the replay (docs/RULES.md §Ghost races);
    the viewer's own board is "Race your ghost"."""
    links = []
    for board in replay["players"]:
        if board["status"] != "finished" or board["finished_ms"] is None:
            continue
        if "race" in replay:
            url = reverse("ghost-race", args=[replay["race"]["id"], board["seat"]])
        else:
            url = reverse("ghost-game", args=[replay["game"]["id"]])
        if board.get("seat") in own_seats:
            label = _("Race your ghost")
        else:
            label = _("Race %(name)s's ghost") % {"name": board["nickname"]}
        links.append({"url": url, "label": label, "time_ms": board["finished_ms"]})
    return links


def _race_title(race: Race) -> str:
    return _("Replay · room %(room)s, race %(number)s") % {
        "room": race.room.code,
        "number": race.number,
    }


def _game_title(game: SoloGame) -> str:
    return _("Replay · %(layout)s, %(code)s") % {
        "layout": layout_label(game.layout_number),
        "code": game.code,
    }


@require_GET
def race_json(request, race_id: int):
    return _as_json(_race, race_id)


@require_GET
def race_page(request, race_id: int):
    return _as_page(request, _race, race_id, _race_title)


@require_GET
def game_json(request, game_id: int):
    return _as_json(_game, game_id)


@require_GET
def game_page(request, game_id: int):
    return _as_page(request, _game, game_id, _game_title)


# --- ghost races (docs/RULES.md §Ghost races) ------------------------------------------
def _ghost_race(request, find, *args):
    """A practice game on the ghost's deal, marked ghost, with the ghost beside it; a
    ghost that cannot be raced says why and starts nothing."""
    player = ensure_player(request)
    try:
        ghost = find(*args)
    except ghosts.NoGhost as refused:
        context = {"error": refused.message, "title": _("Race this ghost")}
        return render(request, "replays/replay.html", context, status=refused.status)
    except NotReplayable as error:
        message = _("this cannot be replayed: %(why)s") % {"why": error}
        context = {"error": message, "title": _("Race this ghost")}
        return render(request, "replays/replay.html", context, status=409)
    game = practice.current_game(player)
    # A reload goes on with the race begun; anything else starts it afresh.
    if game is None or not game.ghost or game.code != ghost["code"]:
        game = practice.start_game(player, ghost["code"], ghost=True)
    return practice_views.ghost_page(request, player, game, ghosts.seen_by(ghost, player))


@require_GET
def race_ghost(request, race_id: int, seat_id: int):
    return _ghost_race(request, ghosts.race_ghost, race_id, seat_id)


@require_GET
def game_ghost(request, game_id: int):
    return _ghost_race(request, ghosts.game_ghost, game_id)


@require_GET
def daily_ghost(request):
    return _ghost_race(request, ghosts.daily_ghost, ensure_player(request))


def replay_strings() -> dict:
    return {
        "faces": face_names(),
        "play": pgettext("replay: start playing back", "Play"),
        "pause": _("Pause"),
        "finished": _("finished"),
        "gave_up": _("gave up"),
        "out": _("out of moves"),
        "playing": _("playing"),
        "cpu_help": _("with CPU help"),
        "cpu_mark": _("CPU"),
        "cpu_help_from": _("%(name)s: with CPU help from %(time)s")
        % {"name": "{name}", "time": "{time}"},
        "board_of": _("Board of %(name)s") % {"name": "{name}"},
    }
