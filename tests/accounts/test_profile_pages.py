"""The profile and the nickname: what a player sees of themself and of others."""

import re

import pytest

from accounts import actions
from accounts.models import Player
from records import charts
from tests.accounts.accounts_helpers import device_player, won_game

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


def rated_races(player, rival, results):
    for race, place in enumerate(results, start=1):
        actions.record_rated_result([(player, place), (rival, 3 - place)], race_ref=race)


def test_the_profile_shows_the_rating_with_its_history_as_an_svg_chart(client):
    player, rival = Player.objects.create(nickname="Mei"), Player.objects.create()
    rated_races(player, rival, [1, 1, 2])
    page = client.get(f"/players/{player.pk}/").content.decode()
    assert '<svg class="chart" id="rating-chart"' in page
    points = re.search(r'<polyline points="([^"]+)"', page)[1].split()
    assert len(points) == 4  # the start, then one point per race
    assert "3 rated races" in page and "Provisional" in page
    assert "+162" in page  # the first race's change, signed, in whole points
    assert page.count("/2</td>") == 3  # place/field size rows of the history table
    assert "<script" not in page.split('id="rating"')[1].split("</section>")[0]


def test_the_chart_puts_higher_ratings_higher_and_stays_in_its_box():
    chart = charts.line_chart([1500, 1530, 1560, 1480])
    points = [tuple(map(float, p.split(","))) for p in chart.points.split()]
    xs, ys = zip(*points, strict=True)
    assert list(xs) == sorted(xs)
    assert ys[2] < ys[1] < ys[0] < ys[3]  # SVG y grows downwards
    assert all(0 <= x <= chart.width for x in xs) and all(0 <= y <= chart.height for y in ys)
    assert (chart.low, chart.high) == (1480, 1560)


def test_a_flat_or_single_point_history_still_draws_inside_the_box():
    chart = charts.line_chart([1500])
    assert chart.count == 1 and chart.low < 1500 < chart.high
    assert charts.line_chart([]) is None


def test_an_unrated_player_is_told_the_starting_rating(client):
    player = Player.objects.create(nickname="Mei")
    page = client.get(f"/players/{player.pk}/").content.decode()
    assert "Not rated yet: ranked races start everyone at 1500." in page
    assert "<svg" not in page
