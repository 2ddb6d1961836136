"""The front door (/): a visitor sees what the site is and starts in one click — Play
now, today's daily challenge with its best time, open rooms to join, and, once they have
played, their record and streak of days played (pages/front_door.py)."""

import datetime
import html
import re

import pytest
from django.test import Client
from django.utils import timezone

from accounts.identity import COOKIE_NAME, signed_token
from accounts.models import Player
from pages.front_door import days_in_a_row, preview_tiles
from records.leaderboards import daily_code, today
from rooms.lobby import actions as lobby
from tests.accounts.accounts_helpers import playing_game, won_game
from tests.rooms.rooms_helpers import room_with

DAY = datetime.date(2026, 12, 1)


def home(client=None) -> str:
    response = (client or Client()).get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def words(page: str) -> str:
    """The page's text, tags left out and spaces squeezed."""
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def client_of(player: Player) -> Client:
    client = Client()
    client.cookies[COOKIE_NAME] = signed_token(player.device_token)
    return client


@pytest.mark.django_db
def test_a_first_visit_offers_play_now_the_daily_challenge_and_makes_no_player():
    page = home()
    assert 'id="play-now" href="/play/">Play now</a>' in page
    assert f'id="play-daily" href="/play/{daily_code(today())}/"' in page
    assert "No one has cleared it yet today" in page
    day = today()
    assert f'<h2 id="daily-title">Daily challenge — {day.day} {day:%B}</h2>' in page
    assert 'id="front-record"' not in page  # nothing to show before a game
    assert Player.objects.count() == 0  # crawlers and first visits make no rows
    assert 'id="learn-link" href="/learn/"' in page


@pytest.mark.django_db
def test_the_daily_panel_shows_the_best_time_of_the_day_once_someone_has_won():
    mei, lin = Player.objects.create(nickname="Mei"), Player.objects.create(nickname="Lin")
    code = daily_code(today())
    won_game(mei, 151_000, code=code)
    won_game(lin, 95_000, code=code)
    won_game(lin, 60_000)  # another deal: not today's challenge
    page = home()
    assert "Best time today 1:35 by Lin" in words(page)


@pytest.mark.django_db
def test_open_public_rooms_are_offered_to_join_and_private_ones_are_not():
    public, (ana,) = room_with("Ana")
    private, _ = room_with("Bo")
    assert "No public room is waiting right now" in home()
    lobby.set_public(ana, public.code, True)
    page = home()
    assert f'href="/rooms/{public.code}/" aria-label="Join Ana\'s room"' in page
    assert private.code not in page


@pytest.mark.django_db
def test_after_a_win_the_player_sees_their_record_and_streak():
    mei = Player.objects.create(nickname="Mei")
    now = timezone.now()
    won_game(mei, 200_000, started_at=now - datetime.timedelta(days=2))
    won_game(mei, 125_000, started_at=now - datetime.timedelta(days=1))
    won_game(mei, 140_000)
    playing_game(mei)  # no pair removed: does not count as a game played
    page = " ".join(home(client_of(mei)).split())
    assert 'id="record-games">3<' in page and 'id="record-wins">3<' in page
    assert 'id="record-best">2:05<' in page
    assert 'id="record-streak">3<' in page


@pytest.mark.django_db
def test_a_streak_not_yet_played_today_is_still_counted_and_the_player_is_nudged():
    lin = Player.objects.create(nickname="Lin")
    now = timezone.now()
    won_game(lin, 80_000, started_at=now - datetime.timedelta(days=4))
    won_game(lin, 80_000, started_at=now - datetime.timedelta(days=1))
    page = home(client_of(lin))
    assert 'id="record-streak">1<' in page
    assert "Play today to keep your streak going." in page


@pytest.mark.django_db
def test_a_signed_in_player_on_a_new_device_sees_the_accounts_record():
    from tests.accounts.accounts_helpers import make_account

    user = make_account("mei")
    account_player = Player.objects.create(user=user, nickname="Mei")
    won_game(account_player, 90_000)
    client = Client()
    client.force_login(user)
    assert 'id="record-best">1:30<' in home(client)


def test_a_streak_counts_days_in_a_row_up_to_today_or_yesterday():
    days = [DAY, DAY - datetime.timedelta(days=1), DAY - datetime.timedelta(days=2)]
    assert days_in_a_row(days, DAY) == 3
    assert days_in_a_row(days[1:], DAY) == 2  # not played yet today: still alive
    assert days_in_a_row(days[2:], DAY) == 0  # a whole day missed
    assert days_in_a_row([DAY, DAY - datetime.timedelta(days=2)], DAY) == 1
    assert days_in_a_row([], DAY) == 0


def test_the_preview_ends_with_a_free_matching_pair_on_top():
    tiles = preview_tiles(DAY)
    picked = [tile for tile in tiles if tile.pick]
    assert [tile.pick for tile in picked] == [1, 2]
    assert picked[0].face == picked[1].face
    assert all(tile.layer == max(t.layer for t in tiles) for tile in picked)
    assert preview_tiles(DAY) == tiles  # the same all day
