"""Pages that read records: profiles, your practice records, the site's leaderboards.
/me/ also holds the nickname form, stored by accounts.actions.set_nickname."""

import datetime

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from accounts import actions
from accounts.forms import NicknameForm
from accounts.identity import ensure_player
from accounts.models import Player, Rating
from accounts.views import posted
from records import charts, leaderboards, statistics

RECENT_RATING_CHANGES = 10


def profile_context(player: Player) -> dict:
    rows = statistics.statistics(player)
    changes = list(player.rating_changes.all())
    return {
        "player": player,
        "rating": Rating.objects.filter(player=player).first(),
        "chart": charts.line_chart(charts.rating_history(changes)),
        "recent_changes": changes[::-1][:RECENT_RATING_CHANGES],
        "statistics": rows,
        "totals": statistics.totals(rows),
        "leaderboard": statistics.leaderboard(player),
        "recent_races": statistics.recent_races(player),
    }


@require_http_methods(["GET", "POST"])
def me(request):
    """Your own profile, with the nickname form."""
    player = ensure_player(request)
    form = NicknameForm(posted(request), initial={"nickname": player.nickname})
    if form.is_valid():
        actions.set_nickname(player, form.cleaned_data["nickname"])
        messages.success(request, _("Nickname saved."))
        return redirect("me")
    context = {**profile_context(player), "nickname_form": form, "is_me": True}
    return render(request, "records/profile.html", context, status=400 if form.errors else 200)


@require_GET
def player_profile(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    if player.merged_into_id is not None:
        return redirect("player", pk=player.merged_into_id)
    return render(request, "records/profile.html", {**profile_context(player), "is_me": False})


@require_GET
def leaderboards_page(request):
    day = leaderboards.today()
    context = {
        "day": day,
        "daily_code": leaderboards.daily_code(day),
        "daily_board": leaderboards.daily_board(day),
        "previous_day": day - datetime.timedelta(days=1),
        "practice_boards": leaderboards.practice_boards(),
        "race_boards": leaderboards.race_boards(),
        "rating_board": leaderboards.rating_board(),
    }
    return render(request, "records/leaderboards.html", context)


DAY_BOARD_SIZE = 50


@require_GET
def daily_day_page(request, day: str):
    """A day's daily-challenge table, kept for every past day: each player's first win
    of that day's deal (docs/ACCOUNTS.md §Boards). Unknown or future days: 404."""
    try:
        date = datetime.date.fromisoformat(day)
    except ValueError:
        raise Http404("not a day: use YYYY-MM-DD") from None
    today = leaderboards.today()
    if date > today:
        raise Http404("that day has not come yet")
    one = datetime.timedelta(days=1)
    context = {
        "day": date,
        "is_today": date == today,
        "daily_code": leaderboards.daily_code(date),
        "daily_board": leaderboards.daily_board(date, DAY_BOARD_SIZE),
        "previous_day": date - one,
        "next_day": date + one if date < today else None,
    }
    return render(request, "records/daily_day.html", context)


@require_GET
def records_page(request):
    """Your practice records and statistics, on this device (or account)."""
    player = ensure_player(request)
    rows = statistics.statistics(player)
    context = {
        "statistics": rows,
        "totals": statistics.totals(rows),
        "leaderboard": statistics.leaderboard(player),
        "recent_games": statistics.recent_games(player),
    }
    return render(request, "records/records.html", context)
