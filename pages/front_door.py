"""What the home page shows (pages/templates/pages/home.html): a small board drawn on the server,
today's daily challenge and its best time, open rooms, and the visitor's own record and
streak of days played. Read only: a visitor without a device cookie gets no player row.
"""

import datetime
import random
from dataclasses import dataclass

from django.db.models.functions import TruncDate

from accounts.identity import player_for_request
from accounts.models import Player
from mahjong.daily import day_bounds, days_in_a_row
from mahjong.engine.tiles import REGULAR_FACES, face_label
from practice import daily as practice_daily
from records import leaderboards, statistics
from rooms.lobby.open_rooms import open_rooms

ROOMS_SHOWN = 3
STREAK_LOOKBACK_DAYS = 400  # a streak longer than this still shows as this many days

# --- the preview board ------------------------------------------------------------------
# A little pyramid in tile units (x, y, layer): 6×4 with an end on each side, 4×3, 2×2,
# and two tiles on top, a free pair that is picked and lifts away (site.css, "pv-pick").
TILE_W, TILE_H = 30, 40
LAYER_SHIFT = 5  # px each layer is drawn up and left, as on the real board
PAD = 14
PREVIEW_PLACES = (
    [(x, y, 0) for y in range(4) for x in range(6)]
    + [(-1, 1.5, 0), (6, 1.5, 0)]
    + [(x, y + 0.5, 1) for y in range(3) for x in range(1, 5)]
    + [(x, y + 1, 2) for y in range(2) for x in (2, 3)]
    + [(2, 1.5, 3), (3, 1.5, 3)]
)
PREVIEW_WIDTH = PAD * 2 + 8 * TILE_W + 4
PREVIEW_HEIGHT = PAD * 2 + 4 * TILE_H + 4


@dataclass
class PreviewTile:
    left: float  # px in the preview's viewBox
    top: float
    layer: int
    face: str  # a sprite id after "tile-"
    pick: int  # 0, or 1 and 2: the pair picked in turn and lifted


def preview_tiles(day: datetime.date) -> list[PreviewTile]:
    """The preview's tiles, back to front: layer by layer, column by column, so each
    tile's thickness (drawn right and below it) is covered by its neighbours there. The
    faces change every day."""
    chance = random.Random(day.toordinal())
    pair = chance.randrange(REGULAR_FACES)
    others = [face for face in range(REGULAR_FACES) if face != pair]  # the pair stands out
    faces = chance.choices(others, k=len(PREVIEW_PLACES) - 2) + [pair, pair]
    top = len(PREVIEW_PLACES) - 2  # the two top tiles are the matching pair
    tiles = []
    for index, (x, y, layer) in enumerate(PREVIEW_PLACES):
        tiles.append(
            PreviewTile(
                left=PAD + (x + 1) * TILE_W - layer * LAYER_SHIFT,
                top=PAD + y * TILE_H - layer * LAYER_SHIFT,
                layer=layer,
                face=face_label(faces[index]),
                pick=index - top + 1 if index >= top else 0,
            )
        )
    return sorted(tiles, key=lambda tile: (tile.layer, tile.left, tile.top))


# --- today's challenge ------------------------------------------------------------------
@dataclass
class Daily:
    title: str
    code: str
    best: object  # the fastest win today (a SoloGame), or None


def daily(day: datetime.date) -> Daily:
    board = leaderboards.daily_board(day)
    return Daily(
        title=practice_daily.title(day),  # the daily game's own page's words
        code=leaderboards.daily_code(day),
        best=board[0] if board else None,
    )


def rooms_to_join(limit: int = ROOMS_SHOWN) -> list[dict]:
    return open_rooms(limit=limit)


# --- the visitor's own record -----------------------------------------------------------
def known_player(request) -> Player | None:
    """The visitor's player if they have one already (never made here): the device's,
    or the signed-in account's when the device cookie is missing or another's."""
    player = player_for_request(request)
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and (player is None or player.user_id != user.pk):
        player = Player.objects.filter(user=user, merged_into__isnull=True).first()
    return player


@dataclass
class Record:
    games: int
    wins: int
    best: object  # the fastest win (a SoloGame), or None
    streak: int  # days in a row with a game played, up to today (or yesterday)
    played_today: bool


def days_played(player: Player, today: datetime.date) -> list[datetime.date]:
    """The UTC days on which the player started a game that counts (docs/RULES.md §Records
    and boards: a pair removed, or a win)."""
    since, _end = day_bounds(today - datetime.timedelta(days=STREAK_LOOKBACK_DAYS))
    rows = (
        statistics.played(player)
        .filter(started_at__gte=since)
        .annotate(day=TruncDate("started_at", tzinfo=datetime.UTC))
        .values_list("day", flat=True)
        .distinct()
    )
    return list(rows)


def record(player: Player | None, today: datetime.date) -> Record | None:
    """The player's record, or None for a visitor who has not played yet."""
    if player is None:
        return None
    totals = statistics.totals(statistics.statistics(player))
    if not totals["games"]:
        return None
    days = days_played(player, today)
    return Record(
        games=totals["games"],
        wins=totals["wins"],
        best=next(iter(statistics.leaderboard(player)), None),  # the record: a clean win
        streak=days_in_a_row(days, today),
        played_today=today in days,
    )


def front_door(request) -> dict:
    """Everything the home page shows, for its template."""
    day = leaderboards.today()
    return {
        "preview": preview_tiles(day),
        "preview_size": (PREVIEW_WIDTH, PREVIEW_HEIGHT),
        "daily": daily(day),
        "open_rooms": rooms_to_join(),
        "record": record(known_player(request), day),
    }
