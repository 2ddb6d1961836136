"""The tasks that modules below rooms/tasks.py queue: by name, since rooms/tasks.py (the
entry points' layer) imports them to run each task's body, and an import back up would
break the layers (pyproject.toml [tool.importlinter]). Every such name is here and only
here; tests/rooms/test_tasks_sent.py proves each is a task the worker has, and that no
module sends a task by a name of its own (docs/ARCHITECTURE.md §Tasks sent by name)."""

from celery import current_app

CPU_STEP = "rooms.tasks.cpu_step"  # rooms/cpus/cpu_steps.py
START_QUICK_RACE = "rooms.tasks.start_quick_race"  # rooms/quick/actions.py
REFILL_POOL = "rooms.tasks.refill_pool"  # rooms/pools/actions.py
SEND_STANDINGS = "rooms.tasks.send_standings"  # rooms/live/standings_feed.py

NAMES = (CPU_STEP, START_QUICK_RACE, REFILL_POOL, SEND_STANDINGS)


def send(name: str, *args, countdown: float | None = None) -> None:
    """Queue task `name` (one of NAMES) with these arguments, `countdown` seconds on."""
    if name not in NAMES:
        raise ValueError(f"{name} is not a task rooms/core/tasks_sent.py names")
    current_app.send_task(name, args=list(args), countdown=countdown, ignore_result=True)
