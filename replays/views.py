"""Replays by link, readable without an account (docs/ARCHITECTURE.md §Replays)."""

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

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
