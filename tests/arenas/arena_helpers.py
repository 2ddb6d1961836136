"""Named helpers for arena tests: arenas, joined players, their races played through
rooms' own actions on an injected clock."""

from datetime import timedelta

import pytest
from django.apps import apps
from django.utils import timezone

from accounts.models import Player
from arenas import actions, pairing
from arenas.actions import ArenaError
from arenas.models import Arena, ArenaRace
from rooms.core.boards import deal_for
from rooms.models import Entry
from rooms.race import actions as races

STATE_APPS = ("arenas", "rooms", "accounts")


def new_arena(minutes=30, starts_in=0, level="beginner", creator=None, **more) -> Arena:
    creator = creator or Player.objects.create(nickname="Host")
    return actions.create_arena(
        creator, more.pop("name", "Evening arena"), level, minutes, starts_in, **more
    )


def joined(arena: Arena, *nicknames) -> list[Player]:
    players = []
    for nickname in nicknames:
        player = Player.objects.create()
        actions.join(player, arena.code, nickname)
        players.append(player)
    return players


def race_of(arena: Arena, player: Player):
    """The player's latest arena race, and their board in it."""
    owned = ArenaRace.objects.filter(arena=arena, race__room__seats__player=player)
    race = owned.order_by("-pk").first().race
    return race, Entry.objects.get(race=race, seat__player=player)


def paired(arena: Arena, players, now, seed=1) -> list[str]:
    """They say ready at `now`; a pass a few seconds later seats them (one race)."""
    for player in players:
        actions.ready(player, arena.code, now=now)
    wait = timedelta(seconds=3 if len(players) > 1 else 8)
    return pairing.pair_arena(Arena.objects.get(pk=arena.pk), now + wait, seed=seed)


def play_out(player, entry: Entry, go_at, first_after=2.0, gap=lambda k: 1.0 + (k * 0.73) % 2.1):
    """Clear the board along its deal's plan, pairs at a person's uneven pace. The
    moment of the last pair."""
    at = go_at + timedelta(seconds=first_after)
    code = entry.race.room.code
    for k, pair in enumerate(deal_for(entry.code).plan):
        races.play_pair(player, code, tuple(sorted(pair)), k, now=at)
        at += timedelta(seconds=gap(k))
    return at


def play_some(player, entry: Entry, go_at, count: int):
    at = go_at + timedelta(seconds=2)
    code = entry.race.room.code
    for k, pair in enumerate(deal_for(entry.code).plan[:count]):
        races.play_pair(player, code, tuple(sorted(pair)), k, now=at)
        at += timedelta(seconds=1.5 + (k % 3) * 0.4)
    return at


def stored_state() -> dict:
    return {
        model.__name__: list(model.objects.order_by("pk").values_list())
        for label in STATE_APPS
        for model in apps.get_app_config(label).get_models()
    }


def refused(code: str, call, *args, **kwargs) -> str:
    """`call` raises ArenaError `code` and changes no row of the arena, room and account
    tables. The error's message."""
    before = stored_state()
    with pytest.raises(ArenaError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value.message
    changed = [m for m, rows in before.items() if stored_state()[m] != rows]
    assert not changed, f"refused as {code!r}, yet rows of {changed} changed"
    return caught.value.message


def now():
    return timezone.now()
