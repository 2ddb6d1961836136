"""The tasks sent by name (rooms/core/tasks_sent.py) are tasks the worker has, and no
module sends one by a name of its own: an arrow up the layers the import linter cannot
see, checked here instead (docs/ARCHITECTURE.md §Tasks sent by name)."""

import re
from pathlib import Path

import pytest

from config.celery import app
from rooms.core import tasks_sent

ROOT = Path(__file__).resolve().parents[2]
SITE = ["config", "pages", "records", "replays", "arenas", "rooms", "practice", "layouts",
        "infra", "accounts", "mahjong"]  # fmt: skip


def test_every_task_sent_by_name_is_registered_with_the_worker():
    app.autodiscover_tasks(force=True)  # as the worker does: every app's tasks module
    assert set(tasks_sent.NAMES) <= set(app.tasks), set(tasks_sent.NAMES) - set(app.tasks)


def test_only_tasks_sent_sends_a_task_by_name():
    senders = [
        str(path.relative_to(ROOT))
        for package in SITE
        for path in (ROOT / package).rglob("*.py")
        if re.search(r"\.send_task\(", path.read_text())
    ]
    assert senders == ["rooms/core/tasks_sent.py"]


def test_a_name_that_is_not_a_task_is_refused_before_it_reaches_the_broker():
    with pytest.raises(ValueError, match="rooms.tasks.no_such_task"):
        tasks_sent.send("rooms.tasks.no_such_task", "ABC234")
