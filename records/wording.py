"""What the period pages say about their period: the heading, the tabs Today / This week /
This month / All time, the previous and next links (docs/RULES.md §Leaderboards by period).
The maths is records/periods.py; here only words and addresses."""

from dataclasses import dataclass

from django.urls import reverse
from django.utils import dateformat, formats
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from records import periods
from records.periods import ALL_TIME, Kind, Period

URL_NAMES = {Kind.DAY: "board-day", Kind.WEEK: "board-week", Kind.MONTH: "board-month"}


def url_of(period: Period) -> str:
    if period.first is None:
        return reverse("leaderboards")
    return reverse(URL_NAMES[period.kind], kwargs={"text": periods.format(period)})


def period_heading(period: Period) -> str:
    """ "Thursday 3 December 2026", "Week 49 of 2026 · 30 November – 6 December",
    "December 2026", "All time"."""
    first = period.first
    if first is None:
        return _("All time")
    if period.kind is Kind.DAY:
        # Translators: a weekday, day, month and year (Django date format characters).
        return capfirst(
            dateformat.format(first, pgettext("weekday, day, month and year", "l j F Y"))
        )
    if period.kind is Kind.WEEK:
        year, week, _weekday = first.isocalendar()
        day_month = pgettext("day and month", "j F")
        # Translators: an ISO week (Monday to Sunday), then its first and last days.
        return _("Week %(week)s of %(year)s · %(first)s – %(last)s") % {
            "week": week,
            "year": year,
            "first": dateformat.format(first, day_month),
            "last": dateformat.format(period.last, day_month),
        }
    return capfirst(formats.date_format(first, "YEAR_MONTH_FORMAT"))


@dataclass
class Tab:
    label: str
    url: str
    current: bool  # the page shows exactly this tab's period
    kind: str


def tabs(shown: Period | None, today) -> list[Tab]:
    """Today, This week, This month, All time: the periods running today."""
    labels = {
        Kind.DAY: _("Today"),
        Kind.WEEK: _("This week"),
        Kind.MONTH: _("This month"),
        Kind.ALL: _("All time"),
    }
    result = []
    for kind, label in labels.items():
        period = periods.containing(kind, today) if kind is not Kind.ALL else ALL_TIME
        result.append(Tab(label, url_of(period), period == shown, kind.value))
    return result


@dataclass
class Neighbour:
    label: str
    url: str
    heading: str  # the period's own name, for the link's title


def neighbour(period: Period, before: bool) -> Neighbour | None:
    """The link to the previous or next period of the same kind (none for all time)."""
    if period.first is None or period.first.year < periods.FIRST_YEAR:
        return None
    if before:
        label = {
            Kind.DAY: _("Previous day"),
            Kind.WEEK: _("Previous week"),
            Kind.MONTH: _("Previous month"),
        }[period.kind]
    else:
        label = {Kind.DAY: _("Next day"), Kind.WEEK: _("Next week"), Kind.MONTH: _("Next month")}[
            period.kind
        ]
    return Neighbour(label, url_of(period), period_heading(period))
