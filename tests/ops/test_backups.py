"""Backups that restore (docs/OPERATIONS.md §Backups): a backup taken with `backup_db`
while the site's data is in the database, restored with `restore_db` into an empty
database — on PostgreSQL an empty cluster of the test's own, on SQLite a new file —
gives back every row, every sequence and the replays the site serves."""

import json
import logging
import os
import sqlite3
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import dj_database_url
import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from accounts.models import Player, Rating, RatingChange
from infra import backups
from infra.restore import pg_connect
from infra.tasks import backup_database
from layouts.actions import store_layout
from layouts.models import StoredLayout
from rooms.core.boards import deal_for
from rooms.lobby import actions as lobby
from rooms.models import Entry, Move, Race, Room
from rooms.race import actions as races
from rooms.race import cpu_seats
from rooms.ranked import actions as ranked
from tests.layouts.layouts_helpers import flat_text
from tests.practice.practice_helpers import moves_to_a_dead_end
from tests.rooms.rooms_helpers import T0, everyone_ready, room_with, started
from tests.sqlite_run import run_on_sqlite

ROOT = Path(__file__).resolve().parents[2]
ON_POSTGRESQL = connection.vendor == "postgresql"

pytestmark = [pytest.mark.drill, pytest.mark.usefixtures("fresh_deal_caches")]


@pytest.fixture
def backup_dir(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"
    return settings.BACKUP_DIR


def play_out(player, code, entry, now, pairs=None):
    plan = deal_for(entry.code).plan
    for n, pair in enumerate(plan if pairs is None else plan[:pairs]):
        races.play_pair(player, code, sorted(pair), n, now=now + timedelta(seconds=1 + n))


def a_site_with_history() -> list[int]:
    """Two friends' races on a stored layout with a CPU (moves, places, points over both)
    and a ranked race with a shuffle (ratings and their history), every one finished, by
    the real actions. The finished races' ids."""
    room, (ana, bo) = room_with("Ana", "Bo", cpus=("steady",))
    layout = store_layout(flat_text(24), bo, "Two rows")
    lobby.update_rules(ana, room.code, {"layout": f"U{layout.pk}"})
    first, now = started(room, ana, seed=7)
    cpu = first.entries.get(seat__cpu_level="steady")
    for step in (1, 2):
        cpu_seats.cpu_act(None, room.code, cpu.seat_id, step, now=now + timedelta(seconds=step))
    play_out(bo, room.code, first.entries.get(seat__player=bo), now, pairs=3)
    races.give_up(bo, room.code, now=now + timedelta(seconds=5))
    play_out(ana, room.code, first.entries.get(seat__player=ana), now)

    later = now + timedelta(minutes=2)
    everyone_ready(ana, room.code, now=later)
    second, now = started(room, ana, at=later, seed=8)
    play_out(bo, room.code, second.entries.get(seat__player=bo), now)
    races.give_up(ana, room.code, now=now + timedelta(seconds=3))

    cy, di = Player.objects.create(), Player.objects.create()
    for player, nickname in ((cy, "Cy"), (di, "Di")):
        ranked.join_queue(player, "beginner", nickname, now=T0)
    (code,) = ranked.form_groups("beginner", now=T0 + timedelta(minutes=1), seed=12345)
    rated = Room.objects.get(code=code).current_race()
    now = rated.go_at + timedelta(seconds=1)
    play_out(di, code, rated.entries.get(seat__player=di), now, pairs=2)
    dead_end = moves_to_a_dead_end(rated.entries.get(seat__player=cy).code)
    for n, pair in enumerate(dead_end):
        races.play_pair(cy, code, list(pair), n, now=now + timedelta(seconds=1 + n))
    races.shuffle(cy, code, now=now + timedelta(seconds=30))  # a shuffle in the replay
    for player in (cy, di):
        races.give_up(player, code, now=now + timedelta(seconds=40))

    finished = list(Race.objects.filter(status=Race.Status.FINISHED).values_list("pk", flat=True))
    assert len(finished) == 3, "every race of the history is over"
    assert Move.objects.count() > 20 and StoredLayout.objects.count() == 1
    assert not Entry.objects.filter(place=None).exists()
    assert not Entry.objects.filter(points=None).exists()
    assert Rating.objects.count() == 2 and RatingChange.objects.count() == 2
    return finished


# --- what the database holds, read without Django ----------------------------------------
def pg_rows(db: dict) -> dict:
    """Every table's rows as PostgreSQL writes them (`row::text`, sorted here, not by a
    collation the two clusters may not share) and every sequence's position."""
    with pg_connect(db) as conn:
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            )
        ]
        found = {
            table: sorted(text for (text,) in conn.execute(f'SELECT t::text FROM "{table}" t'))
            for table in tables
        }
        found["sequences"] = sorted(
            conn.execute(
                "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public'"
            ).fetchall()
        )
    return found


def sqlite_rows(conn: sqlite3.Connection) -> dict:
    tables = [
        name
        for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    return {t: sorted(map(repr, conn.execute(f'SELECT * FROM "{t}"'))) for t in tables}


def replays_from(database_url: str, race_ids: list[int]) -> dict[int, bytes]:
    """The replay endpoint's JSON of each race, rebuilt by another process whose only
    database is `database_url` (so a stored layout's deal comes from there too)."""
    script = (
        "import json, sys, django; django.setup()\n"
        "from django.http import JsonResponse\n"
        "from replays.timeline import race_replay\n"
        "from rooms.models import Race\n"
        "ids = json.loads(sys.argv[1])\n"
        "print(json.dumps({i: JsonResponse(race_replay(Race.objects.get(pk=i))).content.decode()"
        " for i in ids}))\n"
    )
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(race_ids)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return {int(k): v.encode() for k, v in json.loads(done.stdout).items()}


def served_replays(client, race_ids: list[int]) -> dict[int, bytes]:
    answers = {pk: client.get(f"/replays/race/{pk}.json") for pk in race_ids}
    assert all(answer.status_code == 200 for answer in answers.values())
    return {pk: answer.content for pk, answer in answers.items()}


# --- the drill ---------------------------------------------------------------------------
@pytest.mark.skipif(not ON_POSTGRESQL, reason="the PostgreSQL drill; SQLite's is below")
def test_a_postgresql_dump_restored_into_an_empty_cluster_gives_every_row_and_replay_back(
    transactional_db, backup_dir, client, capsys
):
    from tests.ops.cluster_helpers import EmptyCluster

    finished = a_site_with_history()
    served = served_replays(client, finished)
    started_at = time.monotonic()
    dump = Path(call_command("backup_db"))
    dumped_in = time.monotonic() - started_at
    assert dump.parent == backup_dir and dump.suffix == ".dump"
    assert dump.stat().st_mode & 0o777 == 0o600

    with EmptyCluster() as cluster:
        started_at = time.monotonic()
        call_command("restore_db", str(dump), database_url=cluster.url)
        restored_in = time.monotonic() - started_at
        restored = dj_database_url.parse(cluster.url)
        before, after = pg_rows(connection.settings_dict), pg_rows(restored)
        assert set(after) == set(before)
        for table, rows in before.items():
            assert after[table] == rows, f"{table} came back different"
        for model in (Race, Entry, Move, Rating, RatingChange, StoredLayout):
            assert after[model._meta.db_table], f"{model.__name__}: no rows to compare"
        assert replays_from(cluster.url, finished) == served
        # Restoring over a restored database is refused, and with --replace gives the same.
        with pytest.raises(CommandError, match="already has .* tables"):
            call_command("restore_db", str(dump), database_url=cluster.url)
        call_command("restore_db", str(dump), database_url=cluster.url, replace=True)
        assert pg_rows(restored) == before
    tables = {k: v for k, v in before.items() if k != "sequences"}
    with capsys.disabled():
        print(
            f"\n[backup drill] {sum(map(len, tables.values()))} rows in {len(tables)} tables;"
            f" dump {dump.stat().st_size} bytes in {dumped_in:.2f} s,"
            f" restored in {restored_in:.2f} s"
        )


def test_a_sqlite_copy_restored_into_a_new_file_gives_every_row_and_replay_back(
    transactional_db, backup_dir, client, tmp_path, request
):
    if ON_POSTGRESQL:  # the SQLite path is the dev default: run this test again on it
        return run_on_sqlite(request.node.nodeid, tmp_path)
    finished = a_site_with_history()
    served = served_replays(client, finished)
    copy = Path(call_command("backup_db"))
    assert copy.parent == backup_dir and copy.suffix == ".sqlite3"
    assert copy.stat().st_mode & 0o777 == 0o600

    target = tmp_path / "restored.sqlite3"
    call_command("restore_db", str(copy), database_url=f"sqlite:///{target}")
    connection.ensure_connection()
    restored = sqlite3.connect(
        target, detect_types=sqlite3.PARSE_DECLTYPES | sqlite3.PARSE_COLNAMES
    )
    try:
        before, after = sqlite_rows(connection.connection), sqlite_rows(restored)
    finally:
        restored.close()
    assert set(after) == set(before)
    for table, rows in before.items():
        assert after[table] == rows, f"{table} came back different"
    assert replays_from(f"sqlite:///{target}", finished) == served


# --- the guards and the schedule ------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_a_restore_into_a_database_that_has_tables_is_refused_without_replace(backup_dir):
    Player.objects.create(nickname="Kept")
    dump = call_command("backup_db")
    with pytest.raises(CommandError, match="already has .* tables"):
        call_command("restore_db", dump)
    assert Player.objects.filter(nickname="Kept").exists()


@pytest.mark.django_db(transaction=True)
class Lines(logging.Handler):
    """The lines one logger writes, caught on the logger itself: a Celery worker started
    earlier in the process may have cut loggers off from the root, where caplog listens."""

    def __init__(self):
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(record.getMessage())


@pytest.fixture
def backup_log():
    logger, caught = logging.getLogger("infra.backups"), Lines()
    old = logger.level, logger.disabled
    logger.addHandler(caught)
    logger.setLevel(logging.INFO)
    logger.disabled = False
    yield caught.lines
    logger.removeHandler(caught)
    logger.level, logger.disabled = old


def test_the_nightly_task_runs_on_the_pool_worker_keeps_the_newest_and_logs_size_and_time(
    celery_worker, settings, backup_dir, backup_log
):
    settings.BACKUP_KEEP = 2
    entry = django_settings.CELERY_BEAT_SCHEDULE["backup-database"]
    assert entry["task"] == "infra.tasks.backup_database"
    assert entry["schedule"].hour == {3} and entry["schedule"].minute == {17}
    assert settings.CELERY_TASK_ROUTES["infra.tasks.backup_database"] == {"queue": "pools"}
    taken = []
    for _ in range(3):
        backup_database.delay()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            names = [p.name for p in backups.backups(backup_dir)]
            if names and names[-1] not in taken:
                taken.append(names[-1])
                break
            time.sleep(0.05)
    assert len(taken) == 3, "each task wrote a backup"
    assert [p.name for p in backups.backups(backup_dir)] == taken[1:]
    assert not list(backup_dir.glob("*.partial"))
    logged = [line for line in backup_log if " MB) in " in line]
    assert len(logged) == 3, backup_log
