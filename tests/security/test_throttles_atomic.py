"""Limits that hold under a script: attempts sent at once are counted as they come, not
read together and written after (issue 44: 16 wrong passwords for one username sent at
once were all checked)."""

import json
import threading

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.identity import COOKIE_NAME, token_from_cookie
from accounts.models import Player
from accounts.throttle import MAX_FAILURES_PER_USERNAME
from tests.accounts.accounts_helpers import log_in, make_account, use_fresh_throttle

pytestmark = pytest.mark.django_db(transaction=True)  # the threads' own connections


def test_sixteen_wrong_passwords_sent_at_once_are_checked_five_times(monkeypatch):
    # The site's own password hasher (slow on purpose): every attempt is still being
    # checked while the others arrive, so a count read before the check and written
    # after it lets them all through.
    use_fresh_throttle(monkeypatch)
    make_account()
    start, answers = threading.Barrier(16), []

    def guess(n):
        client = Client(REMOTE_ADDR=f"10.0.0.{n}")  # the username's limit, not the address's
        start.wait()
        answers.append(log_in(client, "mei", "wrong-guess").status_code)

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(answers) == [400] * MAX_FAILURES_PER_USERNAME + [429] * (16 - 5)
    # And the right password is refused too, until the failures leave the window.
    assert log_in(Client(REMOTE_ADDR="10.0.1.1")).status_code == 429


def _sign_up(client, username):
    form = {
        "username": username,
        "password1": "a long pass phrase 42",
        "password2": "a long pass phrase 42",
    }
    return client.post("/accounts/signup/", form)


def test_one_address_makes_five_accounts_an_hour_and_no_more(settings):
    script = Client(REMOTE_ADDR="10.7.7.7")  # a fresh session each time, as a script would
    answers = [_sign_up(Client(REMOTE_ADDR="10.7.7.7"), f"bot{n}").status_code for n in range(12)]
    assert answers == [302] * settings.SIGN_UPS_PER_ADDRESS + [429] * (12 - 5)
    refused = _sign_up(script, "bot99")
    assert "Too many new accounts from your network" in refused.content.decode()
    assert get_user_model().objects.filter(username__startswith="bot").count() == 5
    assert _sign_up(Client(REMOTE_ADDR="10.8.8.8"), "someone").status_code == 302  # elsewhere


def test_reset_mails_are_limited_per_victim_and_per_address(settings, mailoutbox):
    make_account(email="victim@example.org")
    for n in range(3):  # three strangers, each once
        reset = Client(REMOTE_ADDR=f"10.6.6.{n}").post(
            "/accounts/password-reset/", {"email": "victim@example.org"}
        )
        assert reset.status_code == 302
    again = Client(REMOTE_ADDR="10.6.6.9").post(
        "/accounts/password-reset/", {"email": "victim@example.org"}
    )
    assert again.status_code == 429 and "Too many reset mails" in again.content.decode()
    assert len(mailoutbox) == 3
    one = Client(REMOTE_ADDR="10.5.5.5")  # one address, many inboxes
    answers = [
        one.post("/accounts/password-reset/", {"email": f"x{n}@example.org"}).status_code
        for n in range(7)
    ]
    assert answers == [302] * settings.RESET_MAILS_PER_ADDRESS + [429] * 2


def test_fresh_cookies_from_one_address_store_a_small_share_of_the_hourly_quota():
    # 50 fresh devices of one address each saving a layout used to take the whole site's
    # hourly quota (500 in 4 s); the address now stores its share, and others still can.
    from layouts import throttle
    from layouts.models import StoredLayout

    answers = []
    for n in range(throttle.STORES_PER_WINDOW + 5):
        body = {"positions": SMALL, "name": f"flood {n}"}  # each device's own copy
        answers.append(_editor(Client(REMOTE_ADDR="10.4.4.4"), "save", body))
    assert [a.status_code for a in answers] == [200] * throttle.STORES_PER_WINDOW + [429] * 5
    assert "Many layouts were stored from your network" in answers[-1].json()["error"]
    assert StoredLayout.objects.count() == throttle.STORES_PER_WINDOW
    mine = _editor(Client(REMOTE_ADDR="10.3.3.3"), "save", {"positions": SMALL, "name": "mine"})
    assert mine.status_code == 200


def test_the_editors_test_is_limited_per_address():
    from layouts import throttle

    tests = [
        _editor(Client(REMOTE_ADDR="10.2.2.2"), "test", {"positions": SMALL}).status_code
        for _ in range(throttle.CHECKS_PER_WINDOW + 2)
    ]
    assert tests == [200] * throttle.CHECKS_PER_WINDOW + [429] * 2


# Six tiles in two rows and two straddling them one layer up: deals solvable.
SMALL = [[0, 0, 0], [2, 0, 0], [4, 0, 0], [0, 2, 0], [2, 2, 0], [4, 2, 0], [1, 0, 1], [3, 0, 1]]


def _editor(client, what: str, body):
    return client.post(f"/layouts/edit/{what}", json.dumps(body), content_type="application/json")


def test_a_device_cookie_copied_while_signed_in_is_nobody_after_log_out():
    make_account()
    device = Client()
    assert log_in(device).status_code == 302
    device.get("/me/")
    copied = token_from_cookie(device.cookies[COOKIE_NAME].value)
    assert Player.objects.get(user__username="mei").device_token == copied
    device.post("/accounts/logout/")
    assert not Player.objects.filter(device_token=copied).exists()  # the copy names nobody
    # Signed in again, the device goes on as the account's player, under the new token.
    assert log_in(device).status_code == 302
    device.get("/me/")
    token = token_from_cookie(device.cookies[COOKIE_NAME].value)
    assert token != copied and Player.objects.get(user__username="mei").device_token == token
