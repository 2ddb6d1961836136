"""The ranked quick-match pages: pick a level, wait in its queue, go to the race."""

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.identity import ensure_player, player_for_request
from mahjong.rules import Level
from rooms.core import outbox
from rooms.core.errors import RoomError
from rooms.core.serializers import rating_labels
from rooms.ranked import actions as ranked


def ranked_page(request, error=None, status=200):
    player = ensure_player(request)
    state = ranked.status(player)
    context = {
        "levels": Level.choices,
        "level_label": Level(state["level"]).label if state["waiting"] else "",
        "nickname": player.nickname,
        "rating": rating_labels([player.pk])[player.pk],
        "state": state,
        "wait_seconds": settings.RANKED_WAIT_SECONDS,
        "error": error,
    }
    return render(request, "rooms/ranked.html", context, status=status)


@require_POST
@outbox.sent_after()
def join_queue(request):
    player = ensure_player(request)
    level = request.POST.get("level", "")
    try:
        ranked.join_queue(player, level, request.POST.get("nickname", ""))
    except RoomError as error:
        return ranked_page(request, error.message, status=400)
    ranked.form_groups(level)  # a full queue, or a long wait, starts the race at once
    room = ranked.status(player).get("room")
    # This join completed a group: straight to the race, not to a page that waits.
    return redirect("room", room) if room else redirect("ranked")


@require_POST
@outbox.sent_after()
def leave_queue(request):
    player = player_for_request(request)
    if player is not None:
        ranked.leave_queue(player)
    return redirect("ranked")


@require_GET
@outbox.sent_after()
def queue_status(request):
    """Polled by the waiting page. It also forms the player's group when it is due, so
    a wait ends on time even between two sweeps (a lazy deadline, like race actions)."""
    player = player_for_request(request)
    if player is None:
        return JsonResponse({"waiting": False, "room": None})
    state = ranked.status(player)
    if state["waiting"]:
        ranked.form_groups(state["level"])
        state = ranked.status(player)
    if state.get("room"):
        state["url"] = reverse("room", args=[state["room"]])
    return JsonResponse(state)
