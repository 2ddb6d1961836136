"""The admin finds players by nickname and shows games and ratings as read-only history."""

import pytest

from accounts import actions
from accounts.models import Player, Rating, RatingChange
from tests.accounts.accounts_helpers import won_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_rated_players():
    alice, bob = Player.objects.create(nickname="Alice"), Player.objects.create(nickname="Bob")
    actions.record_rated_result([(alice, 1), (bob, 2)], race_ref=7)
    return alice, bob


def test_players_are_found_by_nickname(admin_client):
    Player.objects.create(nickname="Sparrow")
    Player.objects.create(nickname="Crane")
    page = admin_client.get("/admin/accounts/player/?q=sparr").content.decode()
    assert "Sparrow" in page and "Crane" not in page


def test_the_device_token_never_shows_in_the_admin(admin_client):
    player = Player.objects.create(nickname="Sparrow")
    page = admin_client.get(f"/admin/accounts/player/{player.pk}/change/").content.decode()
    assert "Sparrow" in page and player.device_token not in page


def test_a_nickname_can_be_corrected_by_an_admin(admin_client):
    player = Player.objects.create(nickname="Rude word")
    response = admin_client.post(
        f"/admin/accounts/player/{player.pk}/change/", {"nickname": "Player"}
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.nickname == "Player"


def test_an_admin_gets_the_same_nickname_rules(admin_client):
    player = Player.objects.create(nickname="Sparrow")
    response = admin_client.post(
        f"/admin/accounts/player/{player.pk}/change/", {"nickname": "zero\u200bwidth"}
    )
    assert "cannot contain control or invisible characters" in response.content.decode()
    player.refresh_from_db()
    assert player.nickname == "Sparrow"


def test_solo_games_are_view_only(admin_client):
    game = won_game(Player.objects.create(nickname="Sparrow"), 61_000)
    url = f"/admin/practice/sologame/{game.pk}/change/"
    assert admin_client.get("/admin/practice/sologame/").status_code == 200
    page = admin_client.get(url).content.decode()
    assert game.code in page and 'name="_save"' not in page
    admin_client.post(url, {"time_ms": 1})
    game.refresh_from_db()
    assert game.time_ms == 61_000
    assert admin_client.get("/admin/practice/sologame/add/").status_code == 403
    assert admin_client.post(f"/admin/practice/sologame/{game.pk}/delete/").status_code == 403


@pytest.mark.parametrize("model", [Rating, RatingChange])
def test_ratings_and_their_history_are_view_only(admin_client, two_rated_players, model):
    row = model.objects.first()
    name = model._meta.model_name
    assert admin_client.get(f"/admin/accounts/{name}/").status_code == 200
    page = admin_client.get(f"/admin/accounts/{name}/{row.pk}/change/").content.decode()
    assert 'name="_save"' not in page
    assert admin_client.get(f"/admin/accounts/{name}/add/").status_code == 403
    assert admin_client.post(f"/admin/accounts/{name}/{row.pk}/delete/").status_code == 403
    assert model.objects.filter(pk=row.pk).exists()


def test_a_stranger_cannot_open_the_admin(client):
    response = client.get("/admin/accounts/player/")
    assert response.status_code == 302 and "/admin/login/" in response.url
