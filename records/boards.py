"""More boards on the period pages: how another app's board (the arena winners, for
one) joins Today / This week / This month / All time with one function
(docs/ARCHITECTURE.md §Leaderboards by period).

A board is a PeriodBoard in BOARDS. Its `read(start, end, limit)` gets the period as UTC
instants [start, end) (both None for all time) and returns at most `limit` rows, best
first; a row is a sequence of cells, one per column, each a (text, link or None) pair.
Plain values, so the app that reads them needs nothing of records (records sits above the
apps it lists: pyproject.toml's layers), and records imports nothing that does not exist:
another app adds its board to BOARDS below, as the arenas' winners are.
"""

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from arenas import boards as arena_boards
from records import periods
from records.periods import Period

Cell = tuple[str, str | None]  # the text, and where it links (None: no link)
Reader = Callable[[datetime.datetime | None, datetime.datetime | None, int], list[Sequence[Cell]]]


@dataclass(frozen=True)
class Column:
    heading: str
    numeric: bool = False  # right-aligned, tabular figures


@dataclass(frozen=True)
class PeriodBoard:
    key: str  # the section's id on the page
    title: str
    columns: tuple[Column, ...]
    read: Reader
    empty: str  # what the section says when the period has no row


@dataclass
class ShownCell:
    text: str
    url: str | None
    numeric: bool


@dataclass
class ReadBoard:
    board: PeriodBoard
    rows: list[list[ShownCell]]


BOARDS: list[PeriodBoard] = [
    PeriodBoard(
        "arenas",
        _("Arena winners"),
        (Column(_("Player")), Column(_("Wins"), numeric=True), Column(_("Podiums"), numeric=True)),
        arena_boards.winners,
        _("No arena finished in this period."),
    ),
]

BOARD_SIZE = 10


def read_boards(period: Period, boards=None, limit: int = BOARD_SIZE) -> list[ReadBoard]:
    """Every extra board's rows for the period, in BOARDS order."""
    start, end = periods.bounds(period)
    read = []
    for board in BOARDS if boards is None else boards:
        rows = [
            [
                ShownCell(text, url, column.numeric)
                for (text, url), column in zip(row, board.columns, strict=True)
            ]
            for row in board.read(start, end, limit)[:limit]
        ]
        read.append(ReadBoard(board, rows))
    return read
