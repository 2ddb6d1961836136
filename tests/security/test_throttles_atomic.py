"""Limits that hold under a script: attempts sent at once are counted as they come, not
read together and written after (issue 44: 16 wrong passwords for one username sent at
once were all checked)."""

import threading

import pytest
from django.test import Client

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
