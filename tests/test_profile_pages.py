"""The profile and the nickname: what a player sees of themself and of others."""

import pytest

from accounts import actions
from accounts.models import Player
from tests.accounts_helpers import device_player, won_game

pytestmark = pytest.mark.django_db


def test_a_new_visitor_sees_an_empty_profile_and_gets_a_device_cookie(client):
    response = client.get("/me/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "No account: your records are kept on this device only." in page
    assert "Not rated yet" in page and "No races yet." in page
    assert device_player(client).nickname == ""


def test_the_nickname_is_saved_trimmed(client):
    client.get("/me/")
    response = client.post("/me/", {"nickname": "  Dragon Lady  "}, follow=True)
    assert response.status_code == 200
    assert "Nickname saved." in response.content.decode()
    assert device_player(client).nickname == "Dragon Lady"


@pytest.mark.parametrize(
    "nickname, error",
    [
        ("", "Enter a nickname"),
        ("    ", "Enter a nickname"),
        ("x" * 25, "at most 24 characters; this one has 25"),
        ("bad\x00name", "Null characters are not allowed"),
        ("bell\x07name", "cannot contain control or invisible characters"),
        ("tab\tname", "cannot contain control or invisible characters"),
        ("zero\u200bwidth", "cannot contain control or invisible characters"),
        ("rtl\u202eoverride", "cannot contain control or invisible characters"),
    ],
)
def test_a_bad_nickname_gets_a_clear_error_and_changes_nothing(client, nickname, error):
    client.get("/me/")
    actions.set_nickname(device_player(client), "Before")
    response = client.post("/me/", {"nickname": nickname})
    assert response.status_code == 400
    assert error in response.content.decode()
    assert device_player(client).nickname == "Before"


def test_a_post_without_the_field_is_an_error_not_a_silent_success(client):
    client.get("/me/")
    response = client.post("/me/", {})
    assert response.status_code == 400 and "Enter a nickname" in response.content.decode()


def test_twenty_four_characters_of_any_script_are_fine():
    player = Player.objects.create()
    actions.set_nickname(player, "麻雀" * 12)
    player.refresh_from_db()
    assert player.nickname == "麻雀" * 12


def test_a_nickname_that_is_not_text_is_refused():
    with pytest.raises(actions.NicknameError, match="is text"):
        actions.clean_nickname(42)


def test_a_public_profile_shows_records_and_no_nickname_form(client):
    player = Player.objects.create(nickname="Kong")
    won_game(player, 65_000)
    page = client.get(f"/players/{player.pk}/").content.decode()
    assert "Kong" in page and "1:05" in page and "Beginner" in page
    assert 'id="nickname-form"' not in page
    assert "Plays without an account." in page


def test_an_unknown_player_is_a_404(client):
    assert client.get("/players/999999/").status_code == 404


def test_a_merged_device_player_redirects_to_the_account_player(client):
    account = Player.objects.create(nickname="Main")
    husk = Player.objects.create(merged_into=account)
    response = client.get(f"/players/{husk.pk}/")
    assert response.status_code == 302 and response.url == f"/players/{account.pk}/"
