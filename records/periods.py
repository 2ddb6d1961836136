"""The periods every leaderboard reads for: a UTC day, an ISO week (Monday to Sunday,
UTC), a calendar month, and all time (docs/RULES.md §Leaderboards by period).

Pure Python (no Django: pyproject.toml's import-linter contract): parse a period from
its URL text, format it back, its bounds as UTC instants [start, end), the previous and
next period of the same kind, the period of a kind that holds an instant. Days, weeks and
months tile time: consecutive periods touch, with no gap and no overlap
(tests/records/test_periods.py proves it with hypothesis)."""

import datetime
import re
from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    DAY = "day"
    WEEK = "week"
    MONTH = "month"
    ALL = "all"


# Periods outside these years are refused by parse(): far enough on both sides for any
# game ever played here, near enough that previous/next never leave Python's dates.
FIRST_YEAR = 2000
LAST_YEAR = 9998

_PATTERNS = {
    Kind.DAY: re.compile(r"(\d{4})-(\d{2})-(\d{2})", re.ASCII),
    Kind.WEEK: re.compile(r"(\d{4})-W(\d{2})", re.ASCII),
    Kind.MONTH: re.compile(r"(\d{4})-(\d{2})", re.ASCII),
}


class PeriodError(ValueError):
    """A period's text that names no period: wrong shape, month 13, week 60, year 1066."""


@dataclass(frozen=True, order=True)
class Period:
    """`first` is the period's first UTC day (a Monday for a week, the 1st for a month);
    None for all time."""

    kind: Kind
    first: datetime.date | None = None

    def __post_init__(self):
        if (self.kind is Kind.ALL) != (self.first is None):
            raise PeriodError("all time has no first day; every other period has one")
        if self.first is not None and self.first != _first_day(self.kind, self.first):
            raise PeriodError(f"{self.first} does not start a {self.kind}")

    @property
    def last(self) -> datetime.date | None:
        """The period's last UTC day (None for all time)."""
        if self.first is None:
            return None
        return following(self).first - datetime.timedelta(days=1)


ALL_TIME = Period(Kind.ALL)


def _first_day(kind: Kind, day: datetime.date) -> datetime.date:
    if kind is Kind.DAY:
        return day
    if kind is Kind.WEEK:
        return day - datetime.timedelta(days=day.weekday())  # Monday is weekday 0
    return day.replace(day=1)


def containing(kind: Kind, when: datetime.datetime | datetime.date) -> Period:
    """The period of `kind` that holds `when` (an aware instant, read in UTC, or a date)."""
    if kind is Kind.ALL:
        return ALL_TIME
    if isinstance(when, datetime.datetime):
        if when.tzinfo is None:
            raise PeriodError("a naive datetime has no place in UTC")
        when = when.astimezone(datetime.UTC).date()
    return Period(kind, _first_day(kind, when))


def parse(kind: Kind | str, text: str) -> Period:
    """`2026-12-03` (day), `2026-W49` (ISO week), `2026-12` (month); "" for all time.
    Anything else raises PeriodError."""
    try:
        kind = Kind(kind)
    except ValueError:
        raise PeriodError(f"no such kind of period: {kind!r}") from None
    if kind is Kind.ALL:
        if text:
            raise PeriodError("all time takes no date")
        return ALL_TIME
    match = _PATTERNS[kind].fullmatch(text)
    if not match:
        raise PeriodError(f"not a {kind}: {text!r}")
    year, *rest = (int(part) for part in match.groups())
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise PeriodError(f"year out of range: {year}")
    try:
        if kind is Kind.DAY:
            first = datetime.date(year, *rest)
        elif kind is Kind.WEEK:
            first = datetime.date.fromisocalendar(year, rest[0], 1)
        else:
            first = datetime.date(year, rest[0], 1)
    except ValueError as error:  # month 13, 31 April, week 53 of a 52-week year
        raise PeriodError(f"not a {kind}: {text!r} ({error})") from None
    return Period(kind, first)


def format(period: Period) -> str:
    """The text parse() reads back: parse(p.kind, format(p)) == p."""
    first = period.first
    if first is None:
        return ""
    if period.kind is Kind.DAY:
        return first.isoformat()
    if period.kind is Kind.WEEK:
        year, week, _ = first.isocalendar()
        return f"{year:04d}-W{week:02d}"
    return f"{first.year:04d}-{first.month:02d}"


def bounds(period: Period) -> tuple[datetime.datetime | None, datetime.datetime | None]:
    """The period as UTC instants [start, end); (None, None) for all time."""
    if period.first is None:
        return None, None
    start = _midnight(period.first)
    return start, _midnight(following(period).first)


def _midnight(day: datetime.date) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time.min, tzinfo=datetime.UTC)


def following(period: Period) -> Period:
    """The next period of the same kind (all time is its own)."""
    first = period.first
    if first is None:
        return period
    if period.kind is Kind.DAY:
        return Period(Kind.DAY, first + datetime.timedelta(days=1))
    if period.kind is Kind.WEEK:
        return Period(Kind.WEEK, first + datetime.timedelta(days=7))
    year, month = divmod(first.year * 12 + first.month, 12)  # month is 0-based here
    return Period(Kind.MONTH, datetime.date(year, month + 1, 1))


def preceding(period: Period) -> Period:
    """The previous period of the same kind (all time is its own)."""
    first = period.first
    if first is None:
        return period
    return containing(period.kind, first - datetime.timedelta(days=1))


def days(period: Period) -> list[datetime.date]:
    """The UTC days of a day, week or month, in order (all time has no list)."""
    if period.first is None:
        raise PeriodError("all time is not a list of days")
    count = (period.last - period.first).days + 1
    return [period.first + datetime.timedelta(days=n) for n in range(count)]


def is_over(period: Period, today: datetime.date) -> bool:
    """Whether a period ended before `today` (all time never does)."""
    return period.last is not None and period.last < today


def has_begun(period: Period, today: datetime.date) -> bool:
    """Whether a period has started by `today` (all time always has)."""
    return period.first is None or period.first <= today
