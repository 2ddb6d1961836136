"""The ranked quick-match (docs/RULES.md §Ranked play and ratings): a public queue per
level, grouped into races.

Every write to the queue (QueueEntry) is here; the rooms it forms are made by
rooms/lobby/actions.py and started by rooms/race/actions.py. A group forms when MAX_SEATS
players wait at a level, or when the oldest of at least two has waited RANKED_WAIT_SECONDS;
with more waiting than fit one race, nearest ratings race together
(mahjong/race_rules/matchmaking.py). Grouping runs right after a join, from the sweeper and
from a waiting page's poll (a lazy deadline: docs/ARCHITECTURE.md §Lazy deadlines). Each
pass claims the waiting rows with SELECT ... FOR UPDATE SKIP LOCKED and deletes them in the
transaction that seats them, so two passes never put one player in two races."""

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import actions as accounts_actions
from accounts.models import Player, Rating
from mahjong.race_rules import matchmaking
from mahjong.race_rules.ratings import START_RATING
from mahjong.rules import LEVELS, MAX_SEATS
from rooms.core.errors import RoomError
from rooms.lobby import actions as lobby
from rooms.models import Entry, QueueEntry, Race, Room, Seat
from rooms.race import actions as races

MIN_PLAYERS = 2


def _wait() -> timedelta:
    return timedelta(seconds=settings.RANKED_WAIT_SECONDS)


@transaction.atomic
def join_queue(player: Player, level, nickname, now=None) -> QueueEntry:
    """Wait for a ranked race at `level`; joining another level moves the player there."""
    if level not in LEVELS:
        raise RoomError(
            _("choose a level: %(levels)s") % {"levels": ", ".join(LEVELS)}, "bad_level"
        )
    nickname = lobby.clean_nickname(nickname)
    # Locked first: a grouping pass seating this player commits before the check below.
    waiting = QueueEntry.objects.select_for_update().filter(player=player).first()
    if in_ranked_race(player):
        raise RoomError(_("finish your ranked race before joining the queue again"), "in_race")
    if player.banned_from_ranked:
        raise RoomError(_("you may not play ranked races: an admin voided a result"), "banned")
    accounts_actions.set_nickname(player, nickname)
    if waiting is not None and waiting.level == level:
        return waiting  # a second click keeps the player's place in the line
    QueueEntry.objects.filter(player=player).delete()
    return QueueEntry.objects.create(player=player, level=level, joined_at=now or timezone.now())


def leave_queue(player: Player) -> bool:
    """Stop waiting; False when the player was not waiting (already grouped, or never)."""
    deleted, _ = QueueEntry.objects.filter(player=player).delete()
    return bool(deleted)


def in_ranked_race(player: Player) -> bool:
    return Entry.objects.filter(
        seat__player=player,
        seat__room__ranked=True,
        race__status=Race.Status.RUNNING,
        status=Entry.Status.PLAYING,
    ).exists()


def form_groups(level: str | None = None, now=None, seed=None) -> list[str]:
    """Every group due at `level` (all levels by default); the codes of the new rooms."""
    now = now or timezone.now()
    codes = []
    for each in [level] if level else LEVELS:
        while (room := _form_one(each, now, seed)) is not None:
            codes.append(room.code)
    return codes


@transaction.atomic
def _form_one(level: str, now: datetime, seed) -> Room | None:
    # Rows another pass holds are skipped, not waited for: that pass seats them.
    claimed = QueueEntry.objects.select_for_update(skip_locked=True).filter(level=level)
    waiting = list(claimed.select_related("player").order_by("joined_at", "pk"))
    group = matchmaking.pick_group(_with_ratings(waiting), now, _wait(), MAX_SEATS)
    if group is None:
        return None
    QueueEntry.objects.filter(pk__in=[w.key.pk for w in group]).delete()
    room = lobby.create_ranked_room([w.key.player for w in group], level)
    races.start_race(None, room.code, now=now, seed=seed)
    return room


def _with_ratings(waiting: list[QueueEntry]) -> list[matchmaking.Waiting]:
    """The line as matchmaking reads it: an unrated player counts at the starting 1500."""
    rated = dict(
        Rating.objects.filter(player__in=[w.player_id for w in waiting]).values_list(
            "player_id", "value"
        )
    )
    return [
        matchmaking.Waiting(w, rated.get(w.player_id, START_RATING), w.joined_at) for w in waiting
    ]


def status(player: Player, now=None) -> dict:
    """What a waiting page shows: still waiting (and with how many), or the room to go to."""
    now = now or timezone.now()
    waiting = QueueEntry.objects.filter(player=player).first()
    if waiting is not None:
        line = QueueEntry.objects.filter(level=waiting.level).order_by("joined_at", "pk")
        players = line.count()
        # With two or more, a line that fits one race starts RANKED_WAIT_SECONDS after
        # its oldest joined; in a longer one each player is seated by their own wait's end
        # at the latest (mahjong/race_rules/matchmaking.py).
        starts_in = None
        if players >= MIN_PLAYERS:
            first = line.first() if players <= MAX_SEATS else waiting
            due = first.joined_at + _wait()
            starts_in = max(0, math.ceil((due - now).total_seconds()))
        return {
            "waiting": True,
            "level": waiting.level,
            "players": players,
            "waited_seconds": int((now - waiting.joined_at).total_seconds()),
            "starts_in": starts_in,
        }
    seat = _running_ranked_seat(player)
    return {"waiting": False, "room": seat.room.code if seat else None}


def _running_ranked_seat(player: Player) -> Seat | None:
    seats = Seat.objects.filter(
        player=player, room__ranked=True, room__races__status=Race.Status.RUNNING
    )
    return seats.select_related("room").order_by("-room__created_at").first()


def take_over_queue_place(device: Player, account: Player, **_signal) -> None:
    """On an account merge (accounts.signals.player_merged): the device's place in the
    queue becomes the account's, unless the account is waiting already."""
    if QueueEntry.objects.filter(player=account).exists():
        QueueEntry.objects.filter(player=device).delete()
    else:
        QueueEntry.objects.filter(player=device).update(player=account)
