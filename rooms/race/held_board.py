"""A seat's board held in the web process that holds its socket, so that a running
race's pair is checked there and stored from the event loop in one statement
(docs/ARCHITECTURE.md §The pair on the event loop).

The held board is a copy; the database is the record. It answers only what it is sure
of: a legal pair, in time, not too fast, on the board at the pair count the page saw,
that leaves the board still playing. That pair is stored by the one write of every pair
(rooms/core/hot_sql.py `record_pair`), whose compare-and-set stores nothing if the board
or its race changed meanwhile (a stand-in CPU took it, a shuffle or a pair came from
another tab, the race ended). Everything else (every refusal, the board's last pair, a
retry, a count the copy does not know) goes the full way, `actions.play_pair`, which
locks the room and answers exactly as docs/RULES.md says. After any doubt the socket
drops its copy and holds the one the full way's answer comes with (rooms/consumers.py).
"""

from dataclasses import dataclass
from datetime import datetime

from infra import async_db
from mahjong.engine.position import Position
from rooms.core import hot_sql
from rooms.core.boards import position_of
from rooms.live.standings_feed import StandingsChanged
from rooms.models import Entry
from rooms.race.actions import is_out, too_fast


@dataclass(slots=True)
class HeldBoard:
    code: str  # the room's
    entry_id: int
    race_id: int
    go_at: datetime
    cut_off_at: datetime
    shuffles_allowed: int
    position: Position
    pairs_removed: int
    shuffles_used: int
    penalty_until: datetime | None
    last_human_pair_at: datetime | None


def held(code: str, entry: Entry | None) -> HeldBoard | None:
    """A copy of a board just read or written the full way (its race loaded), if a
    human plays it; None: nothing to hold."""
    if entry is None or entry.status != Entry.Status.PLAYING or entry.cpu_control:
        return None
    if not async_db.available():  # SQLite: every pair goes the full way
        return None
    race = entry.race
    return HeldBoard(
        code=code,
        entry_id=entry.pk,
        race_id=race.pk,
        go_at=race.go_at,
        cut_off_at=race.cut_off_at,
        shuffles_allowed=race.rules["shuffles"],
        position=position_of(entry),
        pairs_removed=entry.pairs_removed,
        shuffles_used=entry.shuffles_used,
        penalty_until=entry.penalty_until,
        last_human_pair_at=entry.last_human_pair_at,
    )


async def play(board: HeldBoard, tiles: tuple[int, int], n: int, now: datetime) -> bool:
    """Store this pair from the event loop if the copy is sure of it and the board is
    still the copy's; True when stored (the copy then holds the board after it). False:
    nothing stored, go the full way."""
    sure = _sure_write(board, tiles, n, now)
    if sure is None:
        return False
    write, after = sure
    if not await hot_sql.record_pair_now(write):
        return False
    board.position, board.pairs_removed, board.last_human_pair_at = after, n + 1, now
    await StandingsChanged(board.code).send()
    return True


def _sure_write(board: HeldBoard, tiles, n: int, now) -> tuple[hot_sql.PairWrite, Position] | None:
    """The pair's write and the board after it, when the copy can tell it is allowed
    and the board plays on (finishing or going out ends races: the full way)."""
    waiting = board.penalty_until is not None and now < board.penalty_until
    in_time = board.go_at <= now < board.cut_off_at
    if n != board.pairs_removed or waiting or not in_time:
        return None
    if too_fast(board.last_human_pair_at, now):
        return None
    i, j = sorted(tiles)
    if not board.position.can_remove(i, j)[0]:
        return None
    after = board.position.remove(i, j)
    if after.is_won() or is_out(after, board.shuffles_used, board.shuffles_allowed):
        return None
    write = hot_sql.PairWrite(
        entry_id=board.entry_id,
        race_id=board.race_id,
        number=n,
        shuffles_used=board.shuffles_used,
        was_cpu_control=False,
        tiles=(i, j),
        alive=format(after.alive, "x"),
        at=now,
        by_cpu=False,
        cpu_control=False,
        status=Entry.Status.PLAYING.value,
        finished_ms=None,
        cpu_step=None,
    )
    return write, after
