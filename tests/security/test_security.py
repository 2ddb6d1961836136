"""Security headers, CSRF on every form, the room-creation rate limit and a clean
`manage.py check --deploy` under production settings.
In Chromium: tests/browser/test_security_browser.py."""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from accounts.throttle import MAX_FAILURES_PER_ADDRESS
from rooms.models import Room
from tests.accounts.accounts_helpers import log_in

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_every_page_carries_a_strict_content_security_policy_and_the_usual_headers(client):
    response = client.get("/rooms/")
    policy = dict(
        directive.strip().split(" ", 1)
        for directive in response["Content-Security-Policy"].split(";")
    )
    assert policy["default-src"] == policy["script-src"] == policy["style-src"] == "'self'"
    assert policy["frame-ancestors"] == policy["object-src"] == "'none'"
    assert "unsafe" not in response["Content-Security-Policy"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


def test_https_responses_carry_hsts_and_cookies_are_secure_and_http_only(settings):
    settings.SECURE_HSTS_SECONDS = 31536000
    client = Client()
    response = client.get("/play/", secure=True)
    assert response["Strict-Transport-Security"].startswith("max-age=31536000")
    device = response.cookies["mj_device"]
    assert device["httponly"] and device["samesite"] == "Lax"
    assert device["secure"] == django_settings.SESSION_COOKIE_SECURE


def route_paths(patterns=None, prefix=""):
    """Every path of the site, with a sample value for each parameter."""
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from route_paths(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and not route.startswith("^"):
            yield "/" + re.sub(r"<(?:\w+:)?\w+>", "1", re.sub(r"<str:\w+>", "ABC234", route))


def test_every_url_refuses_a_post_without_the_csrf_token():
    client = Client(enforce_csrf_checks=True)
    client.get("/play/")  # a device cookie, as a victim's browser would send
    paths = sorted(set(route_paths()))
    assert "/rooms/new" in paths and "/play/api/move" in paths and "/admin/login/" in paths
    for path in paths:
        response = client.post(path, {"nickname": "Mallory", "code": "ABC234"})
        assert response.status_code == 403, path
    assert not Room.objects.exists()


@pytest.fixture
def limits(settings):
    settings.ROOM_CREATE_PER_DEVICE = 3
    settings.ROOM_CREATE_PER_ADDRESS = 5
    return settings


def create(client, **extra):
    return client.post("/rooms/new", {"nickname": "Ana"}, **extra)


def test_a_device_creating_rooms_too_fast_is_refused_with_the_reason(limits):
    client = Client()
    assert [create(client).status_code for _ in range(3)] == [302, 302, 302]
    refused = create(client)
    assert refused.status_code == 429
    assert b"try again in a few minutes" in refused.content
    assert Room.objects.count() == 3
    assert create(Client()).status_code == 302, "another device at the address still can"


def test_one_address_is_limited_across_its_devices(limits):
    answers = [create(Client()).status_code for _ in range(6)]
    assert answers == [302] * 5 + [429]


def test_behind_the_proxy_the_address_is_the_one_the_proxy_saw(limits):
    limits.BEHIND_TLS_PROXY = True
    for n in range(6):  # each forges a different first entry; the proxy's last one counts
        forwarded = f"10.0.0.{n}, 203.0.113.7"
        response = create(Client(), HTTP_X_FORWARDED_FOR=forwarded)
    assert response.status_code == 429
    assert create(Client(), HTTP_X_FORWARDED_FOR="203.0.113.8").status_code == 302


CREATIONS = {  # what a device creates, its form, its settings' prefix, and its rows
    "room": ("/rooms/new", {"nickname": "Ana"}, "ROOM_CREATE"),
    "arena": ("/arenas/new", {"name": "Sprint", "level": "easy", "minutes": "30"}, "ARENA_CREATE"),
}


@pytest.mark.parametrize("kind", CREATIONS)
def test_rooms_and_arenas_count_each_device_and_each_address_apart(kind, settings):
    url, form, prefix = CREATIONS[kind]
    setattr(settings, f"{prefix}_PER_DEVICE", 2)
    setattr(settings, f"{prefix}_PER_ADDRESS", 4)
    first, second = Client(), Client()
    # The refused third counts for the address too: a script cannot probe for free.
    assert [first.post(url, form).status_code for _ in range(3)] == [302, 302, 429]
    assert second.post(url, form).status_code == 302, "another device at the address can"
    assert second.post(url, form).status_code == 429, "but the address is full now"
    other_address = Client(REMOTE_ADDR="203.0.113.9")
    assert other_address.post(url, form).status_code == 302


PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "mahjong.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://mahjong.example.org",
    "SECURE_COOKIES": "1",
    "BEHIND_TLS_PROXY": "1",
    "EMAIL_HOST": "smtp.example.org",
    # An operator's choice for the whole domain (and irreversible for preload); the
    # deploy check warns until it is made.
    "HSTS_INCLUDE_SUBDOMAINS": "1",
    "HSTS_PRELOAD": "1",
}


def test_check_deploy_is_clean_under_production_settings():
    env = {**os.environ, **PRODUCTION}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # conftest sets it for Playwright only
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_behind_the_proxy_a_forged_forwarded_for_does_not_dodge_the_login_throttle(
    settings, throttle
):
    settings.BEHIND_TLS_PROXY = True
    for n in range(MAX_FAILURES_PER_ADDRESS):  # many usernames, a new forged first entry each
        log_in(Client(), f"user{n}", "wrong", HTTP_X_FORWARDED_FOR=f"10.0.{n}.1, 203.0.113.7")
    response = log_in(Client(), "mei", "wrong", HTTP_X_FORWARDED_FOR="10.9.9.9, 203.0.113.7")
    assert b"Too many failed sign-in attempts" in response.content
