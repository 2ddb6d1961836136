"""Arena pages (docs/RULES.md §Arenas): /arenas/ lists the running and upcoming arenas
and creates one (rate-limited like rooms); /arenas/<code>/ is an arena's page for players
and spectators, live over its socket (arenas/consumers.py); joining is a form."""

from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.identity import ensure_player
from accounts.models import NICKNAME_MAX_LENGTH
from arenas import actions, queries
from arenas.models import MAX_MINUTES, MIN_MINUTES, NAME_MAX_LENGTH, Arena, ArenaPlayer, arena_code
from infra.rate_window import device_and_address_within
from mahjong.rules import TIME_LIMITS, Level


def arena_strings() -> dict:
    """The arena page's words (docs/I18N.md: the page carries them, json_script)."""
    return {
        "starts_in": _("Starts in {t}"),
        "time_left": _("{t} left"),
        "finished": _("This arena is over: the final table."),
        "last_minute": _("Last minute: no new race starts; the races running finish and count."),
        "paused": _("Paused. Say ready to be paired into the next race."),
        "waiting": _("Waiting for opponents: a race forms within seconds…"),
        "racing": _("You are racing."),
        "go_to_race": _("Go to your race"),
        "ready": _("Ready for a race"),
        "pause": _("Pause"),
        "watch": _("Watch"),
        "no_races": _("No race is running right now."),
        "streak": _("on a streak: the next top-half race counts double"),
        "you_line": _("You: #{rank}, {points} points, {races} races"),
        "you_line_one": _("You: #{rank}, {points} points, 1 race"),
        "podium_1": _("1st"),
        "podium_2": _("2nd"),
        "podium_3": _("3rd"),
        "points": _("{n} points"),
        "link_down": _("Reconnecting…"),
        "nobody": _("Nobody has joined yet."),
        "vs": _(" vs "),
    }


def _page_context(request, **more) -> dict:
    return {
        "levels": Level.choices,
        "time_limits": TIME_LIMITS,
        "min_minutes": MIN_MINUTES,
        "max_minutes": MAX_MINUTES,
        "name_max": NAME_MAX_LENGTH,
        "NICKNAME_MAX_LENGTH": NICKNAME_MAX_LENGTH,
        **more,
    }


def arenas_page(request, error=None, status=200, form=None):
    player = ensure_player(request)
    context = _page_context(
        request,
        lists=queries.listed(),
        mine=Arena.objects.filter(creator=player).exclude(status=Arena.Status.FINISHED)[:10],
        error=error,
        form=form or {},
    )
    return render(request, "arenas/arenas.html", context, status=status)


def _may_create(request, player) -> bool:
    """Counts this attempt; False once the device or the address is over its limit (as
    for rooms, with the arenas' own limits)."""
    return device_and_address_within(request, player, "ARENA_CREATE")


@require_POST
def create_arena(request):
    player = ensure_player(request)
    form = request.POST
    if not _may_create(request, player):
        message = _("You created many arenas in a short time: try again later.")
        return arenas_page(request, message, status=429, form=form)
    try:
        arena = actions.create_arena(
            player,
            name=form.get("name", ""),
            level=form.get("level", ""),
            minutes=form.get("minutes", ""),
            starts_in_minutes=form.get("starts_in", "0") or "0",
            public=form.get("public") == "on",
            time_limit_minutes=form.get("time_limit", "5"),
        )
    except actions.ArenaError as error:
        return arenas_page(request, error.message, status=400, form=form)
    return redirect("arena", code=arena.code)


def arena_page(request, code, error=None, status=200):
    arena = Arena.objects.filter(code=arena_code(code)).first() if arena_code(code) else None
    if arena is None:
        raise Http404(_("no arena has this code"))
    player = ensure_player(request)  # the socket needs the device cookie set first
    place = ArenaPlayer.objects.filter(arena=arena, player=player).first()
    context = {
        "arena": arena,
        "place": place,
        "is_creator": arena.creator_id == player.pk,
        "nickname": player.nickname,
        "board": queries.board_label(arena),
        "error": error,
        "initial": queries.state_json(arena, player.pk),
        "strings": arena_strings(),
        "link": request.build_absolute_uri(),
        "NICKNAME_MAX_LENGTH": NICKNAME_MAX_LENGTH,
    }
    return render(request, "arenas/arena.html", context, status=status)


@require_POST
def join_arena(request, code):
    player = ensure_player(request)
    try:
        actions.join(player, code, request.POST.get("nickname", ""))
    except actions.ArenaError as error:
        if error.code == "no_arena":
            raise Http404(error.message) from None
        return arena_page(request, code, error.message, status=400)
    return redirect("arena", code=arena_code(code))


@require_POST
def cancel_arena(request, code):
    player = ensure_player(request)
    try:
        actions.cancel(player, code)
    except actions.ArenaError as error:
        if error.code == "no_arena":
            raise Http404(error.message) from None
        return arena_page(request, code, error.message, status=400)
    return redirect("arenas")
