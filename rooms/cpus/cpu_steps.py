"""When CPU steps run: each is a Celery task queued after the transaction that decided
it commits (docs/ARCHITECTURE.md §CPU chains). What a step does is rooms/race/cpu_seats.py;
tasks are sent by name, so this module imports neither of them."""

import random

from django.conf import settings
from django.db import transaction

from mahjong.race_rules import cpu
from rooms.core import tasks_sent
from rooms.models import Race, Seat


def schedule(code: str, seat_id: int, step: int, delay_seconds: float) -> None:
    """Queue a CPU step once the current transaction commits (never for a rolled-back
    change). Scaled by CPU_DELAY_SCALE (tests speed CPUs up)."""
    delay = max(0.0, delay_seconds * settings.CPU_DELAY_SCALE)
    args = [code, seat_id, step]
    # robust: with the broker down the step's change is stored all the same; the sweeper
    # restarts a chain silent for CPU_STALL_SECONDS.
    transaction.on_commit(
        lambda: tasks_sent.send(tasks_sent.CPU_STEP, *args, countdown=delay),
        robust=True,
    )


def start_chains(race: Race, seats: list[Seat]) -> None:
    """Every CPU seat's first step: after the countdown and a first look at the board."""
    rng = random.Random()
    countdown = (race.go_at - race.started_at).total_seconds()
    for seat in seats:
        if seat.is_cpu:
            think = cpu.think_seconds(cpu.PROFILES[seat.cpu_level], 8, rng)
            schedule(race.room.code, seat.pk, 1, countdown / settings.CPU_DELAY_SCALE + think)
