"""Optional accounts with Django auth: sign up, log in, log out, password reset by e-mail."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from tests.accounts.accounts_helpers import (
    PASSWORD,
    log_in,
    make_account,
)

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("throttle")]


def sign_up(client, username="mei", password1=PASSWORD, password2=PASSWORD, email=""):
    data = {"username": username, "password1": password1, "password2": password2}
    return client.post("/accounts/signup/", {**data, "email": email})


def test_sign_up_signs_in_and_shows_the_profile(client):
    response = sign_up(client, email="mei@example.org")
    assert response.status_code == 302 and response.url == "/me/"
    page = client.get("/me/").content.decode()
    assert "Signed in as mei" in page
    assert get_user_model().objects.get(username="mei").email == "mei@example.org"


@pytest.mark.parametrize(
    "fields, error",
    [
        ({"username": ""}, "This field is required."),
        ({"password2": "something-else-1"}, "The two password fields didn"),
        ({"password1": "123", "password2": "123"}, "too short"),
        ({"password1": "password", "password2": "password"}, "one of the most used"),
        ({"email": "not-an-address"}, "Type a valid e-mail address."),
        ({"username": "bad name!"}, "Type a valid username"),
    ],
)
def test_a_bad_sign_up_says_why_and_creates_nothing(client, fields, error):
    response = sign_up(client, **fields)
    assert response.status_code == 400
    assert error in response.content.decode()
    assert not get_user_model().objects.exists()


def test_a_taken_username_in_any_case_is_refused(client):
    make_account("mei")
    response = sign_up(client, username="MEI")
    assert response.status_code == 400
    assert "A user with that username already exists." in response.content.decode()


def test_log_in_and_out(client):
    make_account()
    response = log_in(client)
    assert response.status_code == 302 and response.url == "/me/"
    assert "Log out" in client.get("/me/").content.decode()
    client.post("/accounts/logout/")
    assert "Log in" in client.get("/me/").content.decode()
    assert "_auth_user_id" not in client.session


def test_log_in_goes_back_to_the_page_asked_for(client):
    make_account()
    response = client.post(
        "/accounts/login/?next=/leaderboards/",
        {"username": "mei", "password": PASSWORD, "next": "/leaderboards/"},
    )
    assert response.url == "/leaderboards/"


def test_a_signed_in_visitor_going_to_sign_up_lands_on_the_profile(client):
    client.force_login(make_account())
    assert client.get("/accounts/signup/").url == "/me/"


def test_password_reset_sends_a_link_that_sets_a_new_password(client):
    make_account(email="mei@example.org")
    response = client.post("/accounts/password-reset/", {"email": "mei@example.org"})
    assert response.status_code == 302 and response.url == "/accounts/password-reset/sent/"
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["mei@example.org"]
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body)[1]
    form_page = client.get(link, follow=True)
    assert "Choose a new password" in form_page.content.decode()
    new = "another-long-passphrase"
    done = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}
    )
    assert done.status_code == 302 and done.url == "/accounts/reset/done/"
    assert log_in(client, password=new).status_code == 302


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client):
    response = client.post("/accounts/password-reset/", {"email": "nobody@example.org"})
    assert response.url == "/accounts/password-reset/sent/"
    assert mail.outbox == []


def test_a_used_or_forged_reset_link_is_refused_clearly(client):
    page = client.get("/accounts/reset/MQ/forged-token/").content.decode()
    assert "This link is not valid any more" in page


def configured_mailer(**environment) -> str:
    """The mail backend the settings choose in a fresh process with this environment."""
    code = "import config.settings as s; print(s.MAILERS['default']['BACKEND'])"
    env = {name: value for name, value in os.environ.items() if name != "EMAIL_HOST"}
    env.update({"DEBUG": "0", **environment})
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_mail_is_printed_on_the_console_without_an_smtp_host():
    assert configured_mailer() == "django.core.mail.backends.console.EmailBackend"


def test_mail_goes_by_smtp_when_a_host_is_set():
    smtp = "django.core.mail.backends.smtp.EmailBackend"
    assert configured_mailer(EMAIL_HOST="smtp.example.org") == smtp
    # In development (DEBUG) mail stays on the console even with a host set.
    console = "django.core.mail.backends.console.EmailBackend"
    assert configured_mailer(EMAIL_HOST="smtp.example.org", DEBUG="1") == console
