"""Signing in on a device merges that device's player into the account's player, so the
account's records follow the player to any device (docs/ACCOUNTS.md §Optional accounts
(Django auth))."""

import pytest
from django.db import IntegrityError
from django.test import Client

from accounts import actions
from accounts.identity import COOKIE_NAME, player_from_scope, signed_token
from accounts.models import Player, Rating, RatingChange
from practice.models import SoloGame
from tests.accounts.accounts_helpers import (
    PASSWORD,
    device_player,
    log_in,
    make_account,
    playing_game,
    won_game,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("throttle")]


def a_device_with_games(*times_ms) -> Client:
    device = Client()
    device.get("/me/")
    for time_ms in times_ms:
        won_game(device_player(device), time_ms)
    return device


def test_signing_up_keeps_this_devices_player_and_records():
    device = a_device_with_games(90_000)
    before = device_player(device)
    response = device.post(
        "/accounts/signup/",
        {"username": "mei", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302 and response.url == "/me/"
    player = device_player(device)
    assert player.pk == before.pk and player.user.username == "mei"
    assert player.nickname == "mei"  # a player without a nickname takes the username
    assert player.solo_games.count() == 1


def test_signing_up_keeps_a_nickname_already_chosen():
    device = a_device_with_games()
    actions.set_nickname(device_player(device), "Sparrow")
    device.post(
        "/accounts/signup/", {"username": "mei", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert device_player(device).nickname == "Sparrow"


def test_logging_in_on_a_second_device_moves_its_games_to_the_account():
    first = a_device_with_games(90_000)
    first.post(
        "/accounts/signup/", {"username": "mei", "password1": PASSWORD, "password2": PASSWORD}
    )
    account_player = device_player(first)
    second = a_device_with_games(70_000, 80_000)
    device_before = device_player(second)

    assert log_in(second).status_code == 302
    assert device_player(second) == account_player
    assert account_player.solo_games.count() == 3
    assert device_before.solo_games.count() == 0
    device_before.refresh_from_db()
    assert device_before.merged_into == account_player and device_before.user is None
    assert Player.objects.filter(user__username="mei").count() == 1


def test_the_accounts_records_follow_it_to_a_third_device():
    first = a_device_with_games(90_000)
    first.post(
        "/accounts/signup/", {"username": "mei", "password1": PASSWORD, "password2": PASSWORD}
    )
    third = Client()
    log_in(third)
    page = third.get("/records/").content.decode()
    assert "1:30" in page and "Kept for your account, on every device." in page


def test_a_device_player_is_merged_into_an_account_that_had_no_player_yet():
    make_account()
    device = a_device_with_games(60_000)
    before = device_player(device)
    log_in(device)
    assert device_player(device) == before
    before.refresh_from_db()
    assert before.user.username == "mei"


def test_a_merge_keeps_the_newer_unfinished_game_and_abandons_the_older():
    account = make_account()
    account_player = Player.objects.create(user=account)
    older = playing_game(account_player)
    device = a_device_with_games()
    newer = playing_game(device_player(device))
    log_in(device)
    older.refresh_from_db()
    newer.refresh_from_db()
    assert older.status == SoloGame.Status.ABANDONED
    assert newer.status == SoloGame.Status.PLAYING and newer.player == account_player
    assert device.get("/play/").context["state"]["id"] == newer.pk


def test_the_device_nickname_fills_an_account_without_one():
    account_player = Player.objects.create(user=make_account())
    device = a_device_with_games()
    actions.set_nickname(device_player(device), "Sparrow")
    log_in(device)
    account_player.refresh_from_db()
    assert account_player.nickname == "Sparrow"


def test_the_accounts_nickname_wins_over_the_devices():
    Player.objects.create(user=make_account(), nickname="Mei")
    device = a_device_with_games()
    actions.set_nickname(device_player(device), "Sparrow")
    log_in(device)
    assert device_player(device).nickname == "Mei"


def test_another_accounts_player_on_the_device_is_not_merged():
    make_account("mei")
    make_account("bo", email="bo@example.org")
    device = a_device_with_games(50_000)
    log_in(device, "mei")
    meis = device_player(device)
    device.post("/accounts/logout/")
    # The device forgot mei's player on log-out; pretend it kept the cookie anyway.
    device.cookies[COOKIE_NAME] = signed_token(meis.device_token)
    log_in(device, "bo")
    bos = device_player(device)
    assert bos != meis and bos.user.username == "bo"
    assert meis.solo_games.count() == 1 and bos.solo_games.count() == 0


def test_logging_out_gives_the_device_a_new_anonymous_player():
    make_account()
    device = a_device_with_games(50_000)
    log_in(device)
    account_player = device_player(device)
    response = device.post("/accounts/logout/")
    assert response.status_code == 302
    assert response.cookies[COOKIE_NAME].value == ""
    device.get("/me/")
    stranger = device_player(device)
    assert stranger != account_player and stranger.user is None
    assert stranger.solo_games.count() == 0


def test_log_out_refuses_a_get():
    assert Client().get("/accounts/logout/").status_code == 405


def test_signing_in_through_the_admin_merges_on_the_next_page(admin_user):
    device = a_device_with_games(50_000)
    before = device_player(device)
    device.force_login(admin_user)
    device.get("/me/")
    player = device_player(device)
    assert player.user == admin_user and player.solo_games.count() == 1
    assert player == before


def test_a_rating_moves_only_to_an_account_never_rated():
    account_player = Player.objects.create(user=make_account())
    device = a_device_with_games()
    rival = Player.objects.create()
    actions.record_rated_result([(device_player(device), 1), (rival, 2)], race_ref=1)
    device_rating = Rating.objects.get(player=device_player(device))
    log_in(device)
    device_rating.refresh_from_db()
    assert device_rating.player == account_player
    assert RatingChange.objects.get(race_ref=1, player=account_player).after > 1500


def test_an_account_keeps_its_own_rating_on_a_merge():
    account_player = Player.objects.create(user=make_account())
    rival = Player.objects.create()
    actions.record_rated_result([(account_player, 2), (rival, 1)], race_ref=1)
    device = a_device_with_games()
    device_original = device_player(device)
    actions.record_rated_result([(device_original, 1), (rival, 2)], race_ref=2)
    log_in(device)
    assert Rating.objects.get(player=account_player).value < 1500
    assert Rating.objects.get(player=device_original).value > 1500


def test_an_account_has_at_most_one_player():
    account = make_account()
    Player.objects.create(user=account)
    with pytest.raises(IntegrityError):
        Player.objects.create(user=account)


def test_a_websocket_finds_the_player_from_the_cookie_the_page_set():
    device = a_device_with_games()
    scope = {"cookies": {COOKIE_NAME: device.cookies[COOKIE_NAME].value}}
    assert player_from_scope(scope) == device_player(device)
    assert player_from_scope({"cookies": {COOKIE_NAME: "forged:token"}}) is None
    assert player_from_scope({}) is None
