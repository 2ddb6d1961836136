"""Accounts: sign up, log in, log out, password reset. (Profiles are records/views.py.)"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import actions
from accounts.forms import ResetForm, SignUpForm, ThrottledLoginForm
from accounts.identity import ensure_player, forget_device
from accounts.throttle import client_address, hashed, within_limit


def posted(request):
    """The form data of a POST (even an empty one, so it is validated), else None."""
    return request.POST if request.method == "POST" else None


@require_http_methods(["GET", "POST"])
def sign_up(request):
    if request.user.is_authenticated:
        return redirect("me")
    form = SignUpForm(posted(request))
    if form.is_valid() and not _may_sign_up(request):
        form.add_error(None, _("Too many new accounts from your network: try again in an hour."))
        return render(request, "accounts/signup.html", {"form": form}, status=429)
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


def _may_sign_up(request) -> bool:
    key = f"{settings.ACCOUNT_LIMITS_KEY_PREFIX}:sign-up:{client_address(request)}"
    return within_limit(key, settings.SIGN_UPS_PER_ADDRESS, settings.ACCOUNT_LIMITS_WINDOW_SECONDS)


class RefusedFormStatus:
    """A refused form answers 400 as every other form of the site does (Django's own
    views answer 200), and 429 when the log-in throttle refused it."""

    def form_invalid(self, form):
        response = super().form_invalid(form)
        throttled = any(e.code == "throttled" for e in form.errors.as_data().get("__all__", []))
        response.status_code = 429 if throttled else 400
        return response


class LogIn(RefusedFormStatus, auth_views.LoginView):
    form_class = ThrottledLoginForm
    template_name = "accounts/login.html"

    def form_valid(self, form):
        response = super().form_valid(form)
        ensure_player(self.request)  # merges this device's player into the account's
        return response


class LogOut(auth_views.LogoutView):
    def post(self, request, *args, **kwargs):
        user = request.user if request.user.is_authenticated else None  # before it goes
        response = super().post(request, *args, **kwargs)
        forget_device(request, response)
        if user is not None:  # a copy of this device's cookie is nobody now
            actions.rotate_device_token(user)
        return response


class PasswordReset(RefusedFormStatus, auth_views.PasswordResetView):
    template_name = "accounts/password_reset_form.html"
    form_class = ResetForm
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"

    def form_valid(self, form):
        """The mail goes only within the limits per address and per e-mail address
        (`&`: both are counted, even when the first refuses); past them, 429 and none."""
        window = settings.ACCOUNT_LIMITS_WINDOW_SECONDS
        prefix = f"{settings.ACCOUNT_LIMITS_KEY_PREFIX}:reset"
        by_address = f"{prefix}:address:{client_address(self.request)}"
        by_email = f"{prefix}:email:{hashed(form.cleaned_data['email'])}"
        if not (
            within_limit(by_address, settings.RESET_MAILS_PER_ADDRESS, window)
            & within_limit(by_email, settings.RESET_MAILS_PER_EMAIL, window)
        ):
            form.add_error(None, _("Too many reset mails asked for: try again in an hour."))
            response = self.render_to_response(self.get_context_data(form=form))
            response.status_code = 429
            return response
        return super().form_valid(form)
