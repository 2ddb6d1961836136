"""Replays by link, readable without an account (docs/ARCHITECTURE.md §Replays): a
finished race (`/replays/race/N/`) or a practice game that is over (`/replays/game/N/`),
as a page or as JSON (docs/PROTOCOL.md §Replays)."""

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET

from mahjong.board_strings import face_names
from mahjong.rules import layout_label
from practice.models import SoloGame
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
    }
    return render(request, "replays/replay.html", context)


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
