"""The period maths of records/periods.py: days, ISO weeks from Monday (UTC) and months
tile time, their text reads back, and every bad text is refused."""

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from records import periods
from records.periods import ALL_TIME, Kind, Period, PeriodError

KINDS = [Kind.DAY, Kind.WEEK, Kind.MONTH]
days = st.dates(
    min_value=datetime.date(periods.FIRST_YEAR, 1, 10),
    max_value=datetime.date(periods.LAST_YEAR, 12, 20),
)
instants = st.datetimes(
    min_value=datetime.datetime(periods.FIRST_YEAR, 1, 10),
    max_value=datetime.datetime(periods.LAST_YEAR, 12, 20),
    timezones=st.sampled_from(
        [
            datetime.UTC,
            datetime.timezone(datetime.timedelta(hours=-11)),
            datetime.timezone(datetime.timedelta(hours=13, minutes=45)),
        ]
    ),
)
kinds = st.sampled_from(KINDS)


@settings(max_examples=300, deadline=None)
@given(kind=kinds, day=days)
def test_consecutive_periods_touch_with_no_gap_and_no_overlap(kind, day):
    period = periods.containing(kind, day)
    start, end = periods.bounds(period)
    after = periods.following(period)
    assert periods.bounds(after)[0] == end  # touch: no gap, no overlap
    assert periods.preceding(after) == period
    assert periods.bounds(periods.preceding(period))[1] == start
    assert start < end and start.tzinfo == datetime.UTC


@settings(max_examples=300, deadline=None)
@given(kind=kinds, day=days)
def test_a_period_reads_back_from_its_text(kind, day):
    period = periods.containing(kind, day)
    assert periods.parse(kind, periods.format(period)) == period
    assert periods.parse(kind.value, periods.format(period)) == period


@settings(max_examples=300, deadline=None)
@given(when=instants)
def test_every_instant_lies_in_exactly_one_day_week_and_month(when):
    for kind in KINDS:
        period = periods.containing(kind, when)
        start, end = periods.bounds(period)
        assert start <= when < end
        # Its neighbours do not hold it: exactly one period of the kind does.
        for other in (periods.preceding(period), periods.following(period)):
            other_start, other_end = periods.bounds(other)
            assert not other_start <= when < other_end


@settings(max_examples=200, deadline=None)
@given(day=days)
def test_weeks_start_on_monday_and_nest_days_and_hold_seven(day):
    week = periods.containing(Kind.WEEK, day)
    assert week.first.weekday() == 0 and len(periods.days(week)) == 7
    assert day in periods.days(week)
    month = periods.containing(Kind.MONTH, day)
    assert month.first.day == 1 and periods.days(month)[-1].month == day.month
    assert day in periods.days(month) and 28 <= len(periods.days(month)) <= 31


def test_sunday_night_and_monday_midnight_are_in_different_weeks():
    sunday = datetime.datetime(2026, 12, 6, 23, 59, 59, 999_999, tzinfo=datetime.UTC)
    monday = datetime.datetime(2026, 12, 7, tzinfo=datetime.UTC)
    assert periods.format(periods.containing(Kind.WEEK, sunday)) == "2026-W49"
    assert periods.format(periods.containing(Kind.WEEK, monday)) == "2026-W50"
    # Sunday 20:00 in New York is already Monday in UTC: the week is UTC's.
    new_york = datetime.timezone(datetime.timedelta(hours=-5))
    late = datetime.datetime(2026, 12, 6, 20, 0, tzinfo=new_york)
    assert periods.format(periods.containing(Kind.WEEK, late)) == "2026-W50"


def test_iso_weeks_cross_years_as_the_calendar_says():
    # 1 January 2027 is a Friday: it belongs to 2026's week 53, which starts 28 December.
    week = periods.containing(Kind.WEEK, datetime.date(2027, 1, 1))
    assert periods.format(week) == "2026-W53" and week.first == datetime.date(2026, 12, 28)
    assert periods.format(periods.following(week)) == "2027-W01"
    assert periods.parse("week", "2026-W53") == week


def test_month_ends_and_leap_days():
    assert periods.parse("month", "2028-02").last == datetime.date(2028, 2, 29)
    assert periods.parse("month", "2026-02").last == datetime.date(2026, 2, 28)
    december = periods.parse("month", "2026-12")
    assert periods.format(periods.following(december)) == "2027-01"
    assert periods.bounds(december)[1] == datetime.datetime(2027, 1, 1, tzinfo=datetime.UTC)


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("month", "2026-13"),
        ("month", "2026-00"),
        ("month", "2026-1"),
        ("week", "2026-W60"),
        ("week", "2026-W00"),
        ("week", "2025-W53"),  # 2025 has 52 ISO weeks
        ("week", "2026-49"),
        ("day", "2026-02-30"),
        ("day", "2026-12-3"),
        ("day", "yesterday"),
        ("day", "１２３４-12-03"),  # full-width digits are not ASCII digits to a URL
        ("day", "1999-12-31"),
        ("day", "9999-12-31"),
        ("day", "2026-12-03\n"),
        ("year", "2026"),
        ("all", "2026"),
    ],
)
def test_bad_text_is_refused_with_a_reason(kind, text):
    with pytest.raises(PeriodError):
        periods.parse(kind, text)


def test_all_time_is_one_period_with_no_bounds():
    assert periods.parse("all", "") == ALL_TIME
    assert periods.bounds(ALL_TIME) == (None, None)
    assert periods.following(ALL_TIME) == ALL_TIME == periods.preceding(ALL_TIME)
    assert periods.containing(Kind.ALL, datetime.date(2026, 12, 3)) == ALL_TIME


def test_a_period_must_start_where_its_kind_starts():
    with pytest.raises(PeriodError):
        Period(Kind.WEEK, datetime.date(2026, 12, 3))  # a Thursday
    with pytest.raises(PeriodError):
        Period(Kind.MONTH, datetime.date(2026, 12, 2))
    with pytest.raises(PeriodError):
        periods.containing(Kind.DAY, datetime.datetime(2026, 12, 3, 12))  # naive
