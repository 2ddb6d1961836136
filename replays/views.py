"""Replays by link, readable without an account (docs/ARCHITECTURE.md §Replays)."""

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from mahjong.board_strings import face_names
from replays.timeline import NotReplayable, race_replay
from rooms.models import Race


@require_GET
def race_json(request, race_id: int):
    """The deal and every board's timed moves of a finished race (docs/PROTOCOL.md
    §Replays); a running race answers 404 and shows nothing of its boards."""
    race = Race.objects.select_related("room").filter(pk=race_id).first()
    if race is None:
        return JsonResponse({"error": _("no such race")}, status=404)
    if race.status != Race.Status.FINISHED:
        message = _("this race is not finished yet: its boards stay hidden until it ends")
        return JsonResponse({"error": message}, status=404)
    try:
        replay = race_replay(race)
    except NotReplayable as error:
        message = _("this race cannot be replayed: %(why)s") % {"why": error}
        return JsonResponse({"error": message}, status=409)
    response = JsonResponse(replay)
    response["Cache-Control"] = "public, max-age=3600"  # a finished race never changes
    return response


@require_GET
def race_page(request, race_id: int):
    """Every board of a finished race side by side, at its real pace (the data inline:
    one request)."""
    race = Race.objects.select_related("room").filter(pk=race_id).first()
    if race is None or race.status != Race.Status.FINISHED:
        message = (
            _("no such race")
            if race is None
            else _("this race is not finished yet: its boards stay hidden until it ends")
        )
        return render(request, "replays/race.html", {"error": message}, status=404)
    try:
        replay = race_replay(race)
    except NotReplayable as error:
        message = _("this race cannot be replayed: %(why)s") % {"why": error}
        return render(request, "replays/race.html", {"error": message}, status=409)
    context = {"race": race, "replay": replay, "strings": replay_strings()}
    return render(request, "replays/race.html", context)


def replay_strings() -> dict:
    return {
        "faces": face_names(),
        "play": _("Play"),
        "pause": _("Pause"),
        "finished": _("finished"),
        "gave_up": _("gave up"),
        "out": _("out of moves"),
        "playing": _("playing"),
        "cpu_help": _("with CPU help"),
        "board_of": _("Board of %(name)s") % {"name": "{name}"},
    }
