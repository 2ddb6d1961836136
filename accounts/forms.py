from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordResetForm,
    SetPasswordForm,
    UserCreationForm,
)
from django.utils.translation import gettext_lazy as _

from accounts import actions
from accounts.models import NICKNAME_MAX_LENGTH
from accounts.throttle import LoginThrottle, Refusal, client_address


class NicknameForm(forms.Form):
    # The length is checked by clean_nickname after trimming, so no maxlength here
    # would cut a pasted name silently; the browser's own limit is a hint only.
    nickname = forms.CharField(
        label=_("Nickname"),
        strip=False,
        required=False,
        widget=forms.TextInput(attrs={"maxlength": NICKNAME_MAX_LENGTH, "autocomplete": "off"}),
    )

    def clean_nickname(self):
        try:
            return actions.clean_nickname(self.cleaned_data["nickname"])
        except actions.NicknameError as refused:
            raise forms.ValidationError(str(refused)) from None


# Django's own Spanish for its forms speaks as *usted* ("Introduzca…", "Asegúrese…"); the
# site says *tú* (docs/I18N.md): the words our account forms show, in our catalogue. The
# password rules' own are accounts/passwords.py.
SAME_PASSWORD_AGAIN = _("Type the same password again, to check it.")
EMAIL_ERRORS = {"invalid": _("Type a valid e-mail address.")}


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        required=False,
        label=_("E-mail"),
        help_text=_("Optional; only used to reset a forgotten password."),
        error_messages=EMAIL_ERRORS,
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
        help_texts = {
            "username": _("Required: up to 150 characters, only letters, digits and @ . + - _")
        }
        error_messages = {
            "username": {
                "invalid": _(
                    "Type a valid username: only letters, digits and @ . + - _ are allowed."
                ),
                "max_length": _(
                    "A username has at most %(limit_value)d characters (this one has "
                    "%(show_value)d)."
                ),
            }
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["password2"].help_text = SAME_PASSWORD_AGAIN


class NewPasswordForm(SetPasswordForm):
    """A new password from a reset link, in the site's words."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["new_password2"].help_text = SAME_PASSWORD_AGAIN


class ResetForm(PasswordResetForm):
    """Ask for a reset link, in the site's words."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].error_messages.update(EMAIL_ERRORS)


class ThrottleMixin:
    """Refuses a login form early after too many failures (accounts.throttle)."""

    throttle = LoginThrottle()

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        address = client_address(self.request) if self.request else ""
        attempt = self.throttle.claim(username, address)  # counted as a failure until it is not
        if isinstance(attempt, Refusal):
            raise forms.ValidationError(attempt.message, code="throttled")
        cleaned = super().clean()  # a wrong password raises: the attempt stays a failure
        self.throttle.succeeded(attempt)
        return cleaned


class ThrottledLoginForm(ThrottleMixin, AuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        # %(username)s: the field's name ("username"), filled in by Django.
        "invalid_login": _(
            "That %(username)s and password match no account (capital letters count in both)."
        ),
    }


class ThrottledAdminLoginForm(ThrottleMixin, AdminAuthenticationForm):
    pass
