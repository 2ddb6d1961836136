"""The leaderboards' period tabs in Chromium (tests/records/test_period_boards.py has the
rest): a phone clicks Today, This week, This month and All time and back a week, and
sees each period's boards; every page fits the phone, in both languages and themes."""

import datetime
from datetime import UTC, timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import Player
from records import periods
from records.periods import Kind
from tests.accounts.accounts_helpers import won_game
from tests.browser.browser_helpers import DESKTOP, PHONE, page_for, shoot


def today():
    return timezone.now().astimezone(UTC).date()


def won_at(nickname, time_ms, finished_at, **extra):
    player = Player.objects.create(nickname=nickname)
    start = finished_at - timedelta(milliseconds=time_ms)
    return won_game(player, time_ms, started_at=start, **extra)


@pytest.fixture
def games_in_every_period():
    """Tia-Ro won today, Wen-Li earlier this week (or today, on a Monday), Kai-Mo earlier
    this month (or this week), Old-Yu a year ago: each tab shows its own."""
    now = timezone.now()
    day = today()
    week = periods.containing(Kind.WEEK, day)
    month = periods.containing(Kind.MONTH, day)
    start_of_today = periods.bounds(periods.containing(Kind.DAY, day))[0]
    won_at("Tia-Ro", 61_000, now - timedelta(seconds=5))
    earlier_this_week = max(periods.bounds(week)[0], start_of_today - timedelta(hours=20))
    won_at("Wen-Li", 72_000, earlier_this_week + timedelta(seconds=1))
    earlier_this_month = max(periods.bounds(month)[0], start_of_today - timedelta(days=9))
    won_at("Kai-Mo", 83_000, earlier_this_month + timedelta(seconds=2))
    won_at("Old-Yu", 40_000, now - timedelta(days=400))
    previous_week = periods.preceding(week)
    won_at("Pre-Wk", 55_000, periods.bounds(previous_week)[0] + timedelta(hours=12))


def board_names(page):
    return page.locator("#practice tbody td:nth-child(2)").all_inner_texts()


def no_sideways_scroll(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def test_a_phone_clicks_through_the_period_tabs(asgi_server, new_device, games_in_every_period):
    page = page_for(new_device, asgi_server, None, viewport=PHONE, has_touch=True)
    page.goto(f"{asgi_server.url}/leaderboards/")
    expect(page.locator("#tab-all")).to_have_attribute("aria-current", "page")
    assert "Old-Yu" in board_names(page)  # all time keeps last year's best
    no_sideways_scroll(page)

    page.locator("#tab-day").tap()
    page.wait_for_url(f"**/leaderboards/day/{today().isoformat()}/")
    expect(page.locator("#tab-day")).to_have_attribute("aria-current", "page")
    expect(page.locator("#tab-all")).not_to_have_attribute("aria-current", "page")
    names = board_names(page)
    assert "Tia-Ro" in names and "Old-Yu" not in names
    no_sideways_scroll(page)

    page.locator("#tab-week").tap()
    week = periods.containing(Kind.WEEK, today())
    page.wait_for_url(f"**/leaderboards/week/{periods.format(week)}/")
    names = board_names(page)
    assert {"Tia-Ro", "Wen-Li"} <= set(names) and "Old-Yu" not in names
    assert "Pre-Wk" not in names
    expect(page.locator("#next-period")).to_have_count(0)  # next week has not begun
    no_sideways_scroll(page)

    page.locator("#previous-period").tap()  # back a week
    page.wait_for_url(f"**/leaderboards/week/{periods.format(periods.preceding(week))}/")
    assert "Pre-Wk" in board_names(page) and "Tia-Ro" not in board_names(page)
    expect(page.locator(".period-tabs [aria-current]")).to_have_count(0)
    page.locator("#next-period").tap()  # and on again
    page.wait_for_url(f"**/leaderboards/week/{periods.format(week)}/")

    page.locator("#tab-month").tap()
    month = periods.containing(Kind.MONTH, today())
    page.wait_for_url(f"**/leaderboards/month/{periods.format(month)}/")
    assert {"Tia-Ro", "Kai-Mo"} <= set(board_names(page))
    expect(page.locator("#period-heading")).to_contain_text(str(today().year))
    no_sideways_scroll(page)


def test_a_bad_period_in_the_address_shows_a_page_with_the_way_back(asgi_server, page):
    response = page.goto(f"{asgi_server.url}/leaderboards/week/2026-W60/")
    assert response.status == 404
    expect(page.get_by_role("heading", name="No such leaderboard")).to_be_visible()
    page.locator("#tab-month").click()
    expect(page.locator("#tab-month")).to_have_attribute("aria-current", "page")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_period_pages_fit_each_screen_language_and_theme(
    asgi_server, new_device, games_in_every_period, viewport, lang, theme
):
    page = page_for(new_device, asgi_server, None, viewport=viewport, lang=lang)
    page.add_init_script(f"localStorage.setItem('mj-theme', '{theme}')")
    name = f"{viewport['width']}-{lang}-{theme}"
    week = periods.format(periods.containing(Kind.WEEK, today()))
    page.goto(f"{asgi_server.url}/leaderboards/week/{week}/")
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    this_week = {"en": "This week", "es": "Esta semana"}[lang]
    expect(page.locator("#tab-week")).to_have_text(this_week)
    no_sideways_scroll(page)
    # The four tabs sit on one line, none cut off.
    tops = [box["y"] for box in (t.bounding_box() for t in page.locator(".period-tabs a").all())]
    assert max(tops) - min(tops) < 2, tops
    shoot(page, f"leaderboards-week-{name}")
    page.goto(f"{asgi_server.url}/leaderboards/")
    no_sideways_scroll(page)
    shoot(page, f"leaderboards-all-{name}")
    page.goto(f"{asgi_server.url}/leaderboards/month/2026-13/")
    shoot(page, f"leaderboards-404-{name}")


def test_the_day_page_at_a_month_end_reads_the_right_day(asgi_server, page):
    """The last day of last month: its win is on its day and not on today's."""
    first_of_month = periods.containing(Kind.MONTH, today()).first
    last_day = first_of_month - datetime.timedelta(days=1)
    end = datetime.datetime.combine(last_day, datetime.time(23, 59, 59), tzinfo=UTC)
    won_at("Eve-Mo", 51_000, end)
    page.goto(f"{asgi_server.url}/leaderboards/day/{last_day.isoformat()}/")
    expect(page.locator("#practice")).to_contain_text("Eve-Mo")
    page.locator("#next-period").click()
    page.wait_for_url(f"**/leaderboards/day/{first_of_month.isoformat()}/")
    expect(page.locator("#practice")).not_to_contain_text("Eve-Mo")
