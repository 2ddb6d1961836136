"""Profile, nickname, accounts (sign up, log in, log out, password reset) and boards."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from accounts import actions, charts, leaderboards, records
from accounts.forms import NicknameForm, SignUpForm, ThrottledLoginForm
from accounts.identity import ensure_player, forget_device
from accounts.models import Player, Rating

RECENT_RATING_CHANGES = 10


def posted(request):
    """The form data of a POST (even an empty one, so it is validated), else None."""
    return request.POST if request.method == "POST" else None


def profile_context(player: Player) -> dict:
    rows = records.statistics(player)
    changes = list(player.rating_changes.all())
    return {
        "player": player,
        "rating": Rating.objects.filter(player=player).first(),
        "chart": charts.line_chart(charts.rating_history(changes)),
        "recent_changes": changes[::-1][:RECENT_RATING_CHANGES],
        "statistics": rows,
        "totals": records.totals(rows),
        "leaderboard": records.leaderboard(player),
        "recent_races": records.recent_races(player),
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
    return render(request, "accounts/profile.html", context, status=400 if form.errors else 200)


@require_GET
def player_profile(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    if player.merged_into_id is not None:
        return redirect("player", pk=player.merged_into_id)
    return render(request, "accounts/profile.html", {**profile_context(player), "is_me": False})


@require_http_methods(["GET", "POST"])
def sign_up(request):
    if request.user.is_authenticated:
        return redirect("me")
    form = SignUpForm(posted(request))
    if form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        player = ensure_player(request)  # this device's records now belong to the account
        if not player.nickname:
            actions.set_nickname(player, user.username[: actions.NICKNAME_MAX_LENGTH])
        messages.success(request, _("Welcome! Your records now follow you to any device."))
        return redirect("me")
    status = 400 if form.errors else 200
    return render(request, "accounts/signup.html", {"form": form}, status=status)


class LogIn(auth_views.LoginView):
    form_class = ThrottledLoginForm
    template_name = "accounts/login.html"

    def form_valid(self, form):
        response = super().form_valid(form)
        ensure_player(self.request)  # merges this device's player into the account's
        return response


class LogOut(auth_views.LogoutView):
    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        forget_device(request, response)
        return response


class PasswordReset(auth_views.PasswordResetView):
    template_name = "accounts/password_reset_form.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"


@require_GET
def leaderboards_page(request):
    day = leaderboards.today()
    context = {
        "day": day,
        "daily_code": leaderboards.daily_code(day),
        "daily_board": leaderboards.daily_board(day),
        "practice_boards": leaderboards.practice_boards(),
        "race_boards": leaderboards.race_boards(),
        "rating_board": leaderboards.rating_board(),
    }
    return render(request, "accounts/leaderboards.html", context)
