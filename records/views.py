"""Pages that read records: profiles, your practice records, the site's leaderboards.
/me/ also holds the nickname form, stored by accounts.actions.set_nickname."""

import datetime

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from accounts import actions
from accounts.forms import NicknameForm
from accounts.identity import ensure_player
from accounts.models import Player, Rating
from accounts.views import posted
from records import boards, charts, leaderboards, periods, statistics, wording

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
    """All time: every board's best ever (the Today, This week, This month tabs lead on)."""
    return period_page(request, periods.Kind.ALL, "")


@require_GET
def period_page(request, kind: str, text: str):
    """Every leaderboard for one period: /leaderboards/day/2026-12-03/, /week/2026-W49/,
    /month/2026-12/ (docs/RULES.md §Leaderboards by period). A period that is no period,
    or has not begun, is a 404 that says why."""
    day = leaderboards.today()
    try:
        period = periods.parse(kind, text)
    except periods.PeriodError:
        return period_not_found(request, kind, text)
    if not periods.has_begun(period, day):
        return period_not_found(request, kind, text, not_yet=True)
    return render(request, "records/leaderboards.html", period_context(period, day))


def period_context(period: periods.Period, day: datetime.date) -> dict:
    is_day = period.kind is periods.Kind.DAY
    following = periods.following(period)
    return {
        "period": period,
        "heading": wording.period_heading(period),
        "tabs": wording.tabs(period, day),
        "previous": wording.neighbour(periods.preceding(period), before=True),
        "next": wording.neighbour(following, before=False)
        if period.first is not None and periods.has_begun(following, day)
        else None,
        "day": day,
        "daily_code": leaderboards.daily_code(day),
        # A past period offers no play of today's challenge: its days' tables are closed.
        "is_past": periods.is_over(period, day),
        "is_day": is_day,
        "period_day": period.first if is_day else None,
        "period_code": leaderboards.daily_code(period.first) if is_day else None,
        "daily_board": leaderboards.daily_board(period.first) if is_day else None,
        "days_cleared": None if is_day else leaderboards.days_cleared(period, day),
        "previous_day": day - datetime.timedelta(days=1),
        "practice_boards": leaderboards.practice_boards(period),
        "race_boards": leaderboards.race_boards(period),
        "rating_board": leaderboards.rating_board(period=period),
        "more_boards": boards.read_boards(period),
    }


def period_not_found(request, kind: str, text: str, not_yet: bool = False):
    """The 404 of a bad period: what was wrong, and the way to the boards that exist."""
    if not_yet:
        reason = _("That period has not begun yet.")
    else:
        reason = _(
            "That is not a period the leaderboards know. A day reads 2026-12-03, a week "
            "2026-W49 (weeks start on Monday), a month 2026-12."
        )
    context = {"reason": reason, "tabs": wording.tabs(None, leaderboards.today())}
    return render(request, "records/period_not_found.html", context, status=404)


@require_GET
def not_a_leaderboard(request, rest: str):
    """Any other address under /leaderboards/ (a year, a typo): the same clear 404."""
    return period_not_found(request, "", rest)


DAY_BOARD_SIZE = 50


@require_GET
def daily_day_page(request, day: str):
    """A day's daily-challenge table, kept for every past day: each player's first win
    of that day's deal (docs/ACCOUNTS.md §Boards). Unknown or future days: the clear 404
    of a bad period."""
    try:
        date = periods.parse(periods.Kind.DAY, day).first
    except periods.PeriodError:
        return period_not_found(request, "day", day)
    today = leaderboards.today()
    if date > today:
        return period_not_found(request, "day", day, not_yet=True)
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
