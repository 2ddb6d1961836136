"""An arena's clock and its pairing (docs/RULES.md §Arenas): the one write path that
moves arenas from upcoming to running to finished and seats waiting players in races.

`tick` runs every ARENA_TICK_SECONDS from the scheduler (arenas/tasks.py), and a pass for
one arena runs in the worker half a second after a player says they are ready
(arenas/tasks.py `pair_soon`: the players ready by then in one pass). A pass claims the waiting rows
with SELECT ... FOR UPDATE SKIP LOCKED and marks them racing in the transaction that seats
them, so two passes never put one player in two races. The races are ordinary rooms' races
(rooms.lobby.actions.create_hosted_room, rooms.race.actions.start_race), owned through
ArenaRace."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from arenas import live
from arenas.models import Arena, ArenaPlayer, ArenaRace
from mahjong.race_rules import arena_pairing
from rooms.lobby import actions as lobby
from rooms.models import Race
from rooms.race import actions as races

ALONE_CPUS = 3  # a player alone races this many CPUs, which never score


def tick(now: datetime | None = None, seed=None) -> dict:
    """Every arena due a change: started, paired, finished. What was done, by arena code."""
    now = now or timezone.now()
    done = {"started": [], "races": [], "finished": []}
    for arena in Arena.objects.filter(status=Arena.Status.UPCOMING, starts_at__lte=now):
        if _set_status(arena.pk, Arena.Status.UPCOMING, Arena.Status.RUNNING, now):
            done["started"].append(arena.code)
    for arena in Arena.objects.filter(status=Arena.Status.RUNNING):
        if now >= arena.ends_at:
            if finish_if_due(arena, now):
                done["finished"].append(arena.code)
        else:
            done["races"] += pair_arena(arena, now, seed)
    return done


@transaction.atomic
def _set_status(pk: int, before: str, after: str, now: datetime) -> bool:
    changed = Arena.objects.filter(pk=pk, status=before).update(
        status=after, finished_at=now if after == Arena.Status.FINISHED else None
    )
    if changed:
        live.changed(Arena.objects.get(pk=pk).code)
    return bool(changed)


def finish_if_due(arena: Arena, now: datetime) -> bool:
    """Past its window and no race of it still running: finished for good (the races
    running at the end finish and count first)."""
    running = ArenaRace.objects.filter(arena=arena, race__status=Race.Status.RUNNING)
    if now < arena.ends_at or running.exists():
        return False
    with transaction.atomic():
        ArenaPlayer.objects.filter(arena=arena).exclude(state=ArenaPlayer.State.PAUSED).update(
            state=ArenaPlayer.State.PAUSED, waiting_since=None
        )
        return _set_status(arena.pk, Arena.Status.RUNNING, Arena.Status.FINISHED, now)


def pair_arena(arena: Arena, now: datetime | None = None, seed=None) -> list[str]:
    """One pass over the arena's waiting players; the codes of the rooms it started."""
    now = now or timezone.now()
    if not arena_pairing.may_start(now, arena.ends_at) or arena.status != Arena.Status.RUNNING:
        return []
    with transaction.atomic():
        claimed = ArenaPlayer.objects.select_for_update(skip_locked=True).filter(
            arena=arena, state=ArenaPlayer.State.WAITING
        )
        waiting = {w.pk: w for w in claimed.select_related("player")}
        line = [
            arena_pairing.Waiting(pk, w.points, w.waiting_since or now) for pk, w in waiting.items()
        ]
        codes = []
        for group in arena_pairing.pair(line, now, arena.ends_at):
            codes.append(_start(arena, [waiting[w.key] for w in group], now, seed))
    return codes


def _start(arena: Arena, group: list[ArenaPlayer], now: datetime, seed) -> str:
    players = [w.player for w in group]
    cpus = ALONE_CPUS if len(group) == 1 else 0
    room = lobby.create_hosted_room(players, arena.race_rules(), cpus=cpus)
    race = races.start_race(None, room.code, now=now, seed=seed)
    seats = dict(room.seats.filter(player__isnull=False).values_list("player_id", "pk"))
    all_in = [seats[w.player_id] for w in group if w.all_in]
    races.drop_helps(race, all_in, now)
    ArenaRace.objects.create(arena=arena, race=race, all_in_seats=all_in)
    ArenaPlayer.objects.filter(pk__in=[w.pk for w in group]).update(
        state=ArenaPlayer.State.RACING, waiting_since=None
    )
    live.changed(arena.code)
    return room.code
