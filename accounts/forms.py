from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts import actions
from accounts.models import NICKNAME_MAX_LENGTH
from accounts.throttle import LoginThrottle, client_address


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


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        required=False,
        label=_("E-mail"),
        help_text=_("Optional; only used to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class ThrottleMixin:
    """Refuses a login form early after too many failures (accounts.throttle)."""

    throttle = LoginThrottle()

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        address = client_address(self.request) if self.request else ""
        refusal = self.throttle.refusal(username, address)
        if refusal is not None:
            raise forms.ValidationError(refusal.message, code="throttled")
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            self.throttle.failed(username, address)
            raise
        self.throttle.succeeded(username)
        return cleaned


class ThrottledLoginForm(ThrottleMixin, AuthenticationForm):
    pass


class ThrottledAdminLoginForm(ThrottleMixin, AdminAuthenticationForm):
    pass
