"""Accounts in a real Chromium: sign up and see the device's records follow to another
device, set a nickname, log out from the menu, open the daily challenge."""

from playwright.sync_api import expect

from accounts.identity import COOKIE_NAME, token_from_cookie
from accounts.models import Player
from records import leaderboards
from tests.accounts.accounts_helpers import PASSWORD, won_game


def player_of(page) -> Player:
    cookie = next(c for c in page.context.cookies() if c["name"] == COOKIE_NAME)
    assert cookie["httpOnly"]
    return Player.objects.get(device_token=token_from_cookie(cookie["value"]))


def sign_up(page, url, username="mei"):
    page.goto(f"{url}/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.locator("#id_password1").fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()


def log_in(page, url, username="mei", password=PASSWORD):
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def test_records_made_before_signing_up_follow_the_account_to_another_device(
    asgi_server, page, new_device
):
    page.goto(f"{asgi_server.url}/me/")
    won_game(player_of(page), 65_000)
    sign_up(page, asgi_server.url)
    expect(page.locator("#account-state")).to_contain_text("Signed in as mei")
    expect(page.locator("#statistics")).to_contain_text("1:05")

    second_device = new_device()
    log_in(second_device, asgi_server.url)
    second_device.get_by_role("link", name="Leaderboards").click()
    expect(second_device.locator("#practice")).to_contain_text("mei")
    second_device.goto(f"{asgi_server.url}/records/")
    expect(second_device.locator("#leaderboard")).to_contain_text("1:05")
    assert player_of(second_device) == player_of(page)


def test_a_nickname_is_set_and_a_bad_one_is_explained(asgi_server, page):
    page.goto(f"{asgi_server.url}/me/")
    nickname = page.get_by_label("Nickname")
    nickname.fill("   ")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#nickname-form")).to_contain_text("Enter a nickname")
    page.get_by_label("Nickname").fill("  Sparrow ")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#nickname")).to_have_text("Sparrow")
    expect(page.get_by_role("status")).to_contain_text("Nickname saved.")


def test_log_out_from_the_menu_leaves_an_anonymous_device(asgi_server, page):
    sign_up(page, asgi_server.url)
    account_player = player_of(page)
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    page.goto(f"{asgi_server.url}/me/")
    expect(page.locator("#account-state")).to_contain_text("No account")
    assert player_of(page) != account_player


def test_the_daily_challenge_opens_todays_deal(asgi_server, page):
    page.goto(f"{asgi_server.url}/leaderboards/")
    page.get_by_role("link", name="Play today's challenge").click()
    code = leaderboards.daily_code(leaderboards.today())
    expect(page.locator("#code")).to_have_text(code)
    expect(page.locator(".tile")).to_have_count(68)
