"""Login is throttled against guessing: per username and per address, with a clear
"try again in" message, on the real cache and a fake clock (no test sleeps)."""

import pytest
from django.test import Client

from accounts.throttle import (
    MAX_FAILURES_PER_ADDRESS,
    MAX_FAILURES_PER_USERNAME,
    WINDOW_SECONDS,
    LoginThrottle,
    Refusal,
)
from tests.accounts.accounts_helpers import (
    FakeClock,
    fresh_throttle_prefix,
    log_in,
    make_account,
)

pytestmark = pytest.mark.django_db


def guess(client, username="mei", times=1, **extra):
    for _ in range(times):
        response = log_in(client, username, "wrong-guess", **extra)
    return response


def test_a_wrong_password_gets_the_usual_error_and_no_session(client, throttle):
    make_account()
    response = guess(client)
    assert response.status_code == 400
    assert "That username and password match no account" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_after_five_failures_even_the_right_password_is_refused_with_the_wait(client, throttle):
    make_account()
    guess(client, times=MAX_FAILURES_PER_USERNAME)
    response = log_in(client)
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed sign-in attempts. Try again in 15 minutes." in page
    assert "_auth_user_id" not in client.session


def test_the_lock_lifts_when_the_failures_leave_the_window(client, throttle):
    make_account()
    guess(client, times=MAX_FAILURES_PER_USERNAME)
    throttle.clock.advance(WINDOW_SECONDS - 61)
    assert "Try again in 2 minutes." in log_in(client).content.decode()
    throttle.clock.advance(61)
    assert log_in(client).status_code == 302
    assert "_auth_user_id" in client.session


def test_the_username_count_is_shared_by_every_address_and_any_case(throttle):
    make_account()
    for n in range(MAX_FAILURES_PER_USERNAME):
        guess(Client(REMOTE_ADDR=f"10.0.0.{n}"), "MEI")
    response = log_in(Client(REMOTE_ADDR="10.0.1.1"))
    assert "Too many failed sign-in attempts" in response.content.decode()


def test_one_address_guessing_many_usernames_is_stopped(throttle):
    client = Client(REMOTE_ADDR="10.9.9.9")
    make_account()
    for n in range(MAX_FAILURES_PER_ADDRESS):
        guess(client, f"user{n}")
    response = log_in(client)
    assert "Too many failed sign-in attempts" in response.content.decode()
    # Someone else, elsewhere, still signs in.
    assert log_in(Client(REMOTE_ADDR="10.1.1.1")).status_code == 302


def test_a_success_clears_the_usernames_failures(client, throttle):
    make_account()
    guess(client, times=MAX_FAILURES_PER_USERNAME - 1)
    assert log_in(client).status_code == 302
    client.post("/accounts/logout/")
    guess(client, times=MAX_FAILURES_PER_USERNAME - 1)
    assert log_in(client).status_code == 302


def test_the_admin_login_is_throttled_too(client, throttle, admin_user):
    for _ in range(MAX_FAILURES_PER_USERNAME):
        client.post("/admin/login/", {"username": "admin", "password": "wrong-guess"})
    response = client.post("/admin/login/", {"username": "admin", "password": "password"})
    assert "Too many failed sign-in attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_wait_counts_from_the_oldest_failure_that_still_blocks():
    clock = FakeClock()
    counts = LoginThrottle(prefix=fresh_throttle_prefix(), clock=clock)
    for _ in range(MAX_FAILURES_PER_USERNAME):
        counts.claim("mei", "")  # a failure: never succeeded
        clock.advance(60)
    refusal = counts.claim("mei", "")
    assert refusal.retry_after_seconds == WINDOW_SECONDS - 5 * 60
    assert refusal.message.endswith("Try again in 10 minutes.")
    clock.advance(refusal.retry_after_seconds)
    assert not isinstance(counts.claim("mei", ""), Refusal)


def test_one_minute_is_said_in_the_singular():
    clock = FakeClock()
    counts = LoginThrottle(prefix=fresh_throttle_prefix(), clock=clock)
    for _ in range(MAX_FAILURES_PER_USERNAME):
        counts.claim("mei", "10.0.0.1")
    clock.advance(WINDOW_SECONDS - 30)
    assert counts.claim("mei", "10.0.0.1").message.endswith("Try again in 1 minute.")


def test_the_site_cache_is_the_shared_redis_cache():
    from django.conf import settings

    cache = settings.CACHES["default"]
    assert cache["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert cache["LOCATION"] == settings.REDIS_URL
