"""A running race's pair stored from the socket's event loop, on the board its web
process holds (rooms/race/held_board.py): one statement, no worker thread, and every
guarantee of the full way kept when something else changed the board meanwhile (a
stand-in CPU, another tab or process of the same player, a give-up, the race's end).

PostgreSQL only: on SQLite every pair goes the full way (tests/rooms/test_race_socket.py
covers that way on both)."""

import asyncio
import random
import threading
import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from bench.client_board import a_legal_pair
from infra import async_db
from rooms.core import hot_sql
from rooms.core.boards import deal_for, position_of
from rooms.cpus import stand_in
from rooms.live.socket_db import PLAY, SOCKETS
from rooms.models import Entry, Move, Race
from rooms.race import actions as races
from rooms.race import end as race_end
from tests.rooms.rooms_helpers import Socket, close_all, db, plan_pair, seated

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("short_countdown"),
    pytest.mark.countdown(0.3),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the event loop's pairs are PostgreSQL's"
    ),
]


async def _racing(*nicknames):
    room, players, sockets = await seated(*nicknames)
    await sockets[0].ask(type="start")
    for socket in sockets:
        await socket.go()
    entry = await db(Entry.objects.get)(seat__player=players[0])
    return room, players, sockets, entry


def _hold_lane(lane, freed: threading.Event) -> list:
    loop, size = asyncio.get_running_loop(), lane.executor()._max_workers
    return [loop.run_in_executor(lane.executor(), freed.wait, 30) for _ in range(size)]


def _board(entry_pk: int) -> Entry:
    return Entry.objects.get(pk=entry_pk)


def _pairs_stored(entry_pk: int) -> list[tuple[int, list[int]]]:
    moves = Move.objects.filter(entry_id=entry_pk, kind=Move.Kind.PAIR).order_by("number")
    return list(moves.values_list("number", "tiles"))


def _replayed_alive(entry: Entry) -> int:
    """The board's tiles as its stored pairs leave its deal (no shuffle in these races)."""
    position = position_of(Entry(code=entry.code, faces=entry.faces, alive=_full(entry)))
    for _number, (i, j) in _pairs_stored(entry.pk):
        position = position.remove(i, j)
    return position.alive


def _full(entry: Entry) -> str:
    return format((1 << entry.tile_count) - 1, "x")


async def _heard(socket, seconds: float) -> list[dict]:
    """What the socket hears in the next `seconds` (a communicator's receive that times
    out would end the socket's application: waited for with receive_nothing)."""
    heard, until = [], time.monotonic() + seconds
    while time.monotonic() < until:
        if not await socket.ws.receive_nothing(timeout=0.05, interval=0.01):
            heard.append(await socket.next())
    return heard


async def test_pairs_after_go_are_stored_with_every_worker_thread_busy():
    # The board held from "go": its pairs need neither the play lane nor the sockets'.
    room, players, sockets, entry = await _racing("Ana", "Bo")
    ana, bo = sockets
    # The first pair holds the board if "go" did not (a snapshot read past go already).
    assert (await ana.ask(type="move", tiles=plan_pair(entry, 0), n=0))["type"] == "ack"
    freed = threading.Event()
    busy = _hold_lane(PLAY, freed) + _hold_lane(SOCKETS, freed)
    try:
        for k in range(1, 4):
            ack = await asyncio.wait_for(ana.ask(type="move", tiles=plan_pair(entry, k), n=k), 5)
            assert ack["type"] == "ack" and ack["pairs_removed"] == k + 1
    finally:
        freed.set()
        await asyncio.gather(*busy)
    stored = await db(_pairs_stored)(entry.pk)
    assert stored == [(k, plan_pair(entry, k)) for k in range(4)]
    board = await db(_board)(entry.pk)
    assert board.pairs_removed == 4 and int(board.alive, 16) == await db(_replayed_alive)(board)
    assert board.last_human_pair_at is not None and board.last_action_at is not None
    standings = await bo.next("standings")
    assert any(row["nickname"] == "Ana" and row["progress"] > 0 for row in standings["standings"])
    await close_all(sockets)


async def test_a_board_a_stand_in_took_is_handed_back_and_its_pairs_go_on():
    # The socket holds the board; a stand-in CPU takes it (the player seemed away) and
    # plays two pairs. The player's next pair at the count the page knows is refused as
    # stale by the full way, with the seat the player's again, exactly as without a
    # held board; the next at the right count is stored once.
    room, players, sockets, entry = await _racing("Ana", "Bo")
    ana = sockets[0]
    assert (await ana.ask(type="move", tiles=plan_pair(entry, 0), n=0))["type"] == "ack"

    def stand_in_plays():
        with transaction.atomic():
            board = Entry.objects.select_related("race__room", "seat").get(pk=entry.pk)
            assert stand_in.take(board, timezone.now())
        for k in (1, 2):  # two steps of the stand-in, by the CPUs' own write path
            with transaction.atomic():
                room_, board = hot_sql.lock_room_and_entry(room.code, seat_id=board.seat_id)
                i, j = plan_pair(board, k)
                races.remove_pair(room_, board, i, j, k, timezone.now(), by_cpu=True)

    await db(stand_in_plays)()
    stale = await ana.ask(type="move", tiles=plan_pair(entry, 1), n=1)
    assert stale["type"] == "error" and stale["code"] == "stale"
    board = await db(_board)(entry.pk)
    assert (board.cpu_control, board.pairs_removed, board.cpu_pairs) == (False, 3, 2)
    ack = await ana.ask(type="move", tiles=plan_pair(entry, 3), n=3)
    assert ack["type"] == "ack" and ack["pairs_removed"] == 4
    assert [n for n, _ in await db(_pairs_stored)(entry.pk)] == [0, 1, 2, 3]
    await close_all(sockets)


async def test_a_give_up_from_another_tab_refuses_the_held_boards_next_pair():
    room, players, sockets, entry = await _racing("Ana", "Bo")
    ana = sockets[0]
    other_tab = Socket(room.code, players[0])  # another tab, maybe on another web process
    await other_tab.open()
    assert (await ana.ask(type="move", tiles=plan_pair(entry, 0), n=0))["type"] == "ack"
    assert (await other_tab.ask(type="give_up"))["status"] == "gave_up"
    refused = await ana.ask(type="move", tiles=plan_pair(entry, 1), n=1)
    assert refused["type"] == "error" and refused["code"] == "entry_over"
    assert [n for n, _ in await db(_pairs_stored)(entry.pk)] == [0]
    await close_all([*sockets, other_tab])


async def test_a_pair_waiting_for_the_races_end_is_refused_and_counted_nowhere():
    # The race's end holds its row; a pair sent meanwhile waits for it, then finds the
    # race over: it is refused, stored nowhere, and the results stand as they were read.
    room, players, sockets, entry = await _racing("Ana", "Bo")
    ana = sockets[0]
    assert (await ana.ask(type="move", tiles=plan_pair(entry, 0), n=0))["type"] == "ack"
    locked, release = threading.Event(), threading.Event()

    def end_slowly():
        with transaction.atomic():
            Race.objects.select_for_update().get(pk=entry.race_id)
            locked.set()
            release.wait(10)
            race_end.end_race_by_staff(room.code)

    ending = asyncio.ensure_future(db(end_slowly, thread_sensitive=False)())
    await asyncio.get_running_loop().run_in_executor(None, locked.wait, 10)
    await ana.send(type="move", tiles=plan_pair(entry, 1), n=1, id=77)
    assert not any(m.get("id") == 77 for m in await _heard(ana, 0.5))  # it waits for the row
    release.set()
    await ending
    answer = await ana.next("error", "ack")
    while answer.get("id") != 77:
        answer = await ana.next("error", "ack")
    assert answer["type"] == "error" and answer["code"] in ("race_over", "no_race")
    assert [n for n, _ in await db(_pairs_stored)(entry.pk)] == [0]
    board = await db(_board)(entry.pk)
    assert board.pairs_removed == 1 and board.place is not None
    await close_all(sockets)


async def test_two_tabs_racing_each_others_pairs_store_each_number_once():
    # Two sockets of one player (two tabs, or two web processes after a reconnect) send
    # pairs as fast as they can, each from the board it last heard of: each pair number
    # is stored once, every acknowledged pair is stored, and the board's tiles are what
    # its stored pairs leave.
    room, players, sockets, entry = await _racing("Ana", "Bo")
    tabs = [sockets[0], Socket(room.code, players[0])]
    await tabs[1].open()
    plan = [sorted(p) for p in deal_for(entry.code).plan]
    acked: list[tuple[int, list[int]]] = []

    async def tab_plays(tab, seed):
        rng, n = random.Random(seed), 0
        while n < len(plan) - 2:
            pair = plan[n]
            answer = await tab.ask(type="move", tiles=pair, n=n)
            if answer["type"] == "ack":
                acked.append((n, pair))
                n = answer["pairs_removed"]
            else:  # the other tab got there first; ask where the board is. (Its pair's
                # time may be later than this one's, taken before: too fast, at a 0 floor.)
                assert answer["code"] in ("stale", "too_fast"), answer
                n = (await db(_board)(entry.pk)).pairs_removed
            # Within the socket's rate (8 a second, rooms/consumers.py): a flood is
            # refused unanswered by id, which is another test's business.
            await asyncio.sleep(1 / 7 + rng.random() / 200)

    await asyncio.gather(tab_plays(tabs[0], 1), tab_plays(tabs[1], 2))
    stored = await db(_pairs_stored)(entry.pk)
    assert [n for n, _ in stored] == list(range(len(stored)))  # none twice, none skipped
    assert {(n, tuple(t)) for n, t in acked} <= {(n, tuple(t)) for n, t in stored}
    board = await db(_board)(entry.pk)
    assert board.pairs_removed == len(stored)
    assert int(board.alive, 16) == await db(_replayed_alive)(board)
    await close_all([*sockets, tabs[1]])


async def test_a_players_pairs_racing_a_stand_in_on_a_real_worker_keep_one_write_path(
    celery_worker, settings
):
    # The player's socket plays as fast as it can while, again and again, a stand-in CPU
    # takes the board (as the sweeper does for an away player) and a real worker plays
    # its steps; each pair of the player's hands the board back. However they interleave:
    # each pair number stored once, the CPU's pairs counted as the CPU's, every
    # acknowledged pair stored, the tiles what the stored pairs leave.
    settings.CPU_DELAY_SCALE = 0.01
    room, players, sockets, entry = await _racing("Ana", "Bo")
    ana = sockets[0]
    acked, done = [], threading.Event()

    def stand_in_again_and_again():
        while not done.wait(0.03):
            with transaction.atomic():
                board = Entry.objects.select_related("race__room", "seat").get(pk=entry.pk)
                if board.status != Entry.Status.PLAYING:
                    return
                last = board.last_action_at or board.race.go_at
                idle = timezone.now() - last > timedelta(seconds=0.1)
                if not board.cpu_control and idle:  # as the sweeper takes an idle board
                    stand_in.take(board, timezone.now())

    taking = asyncio.ensure_future(db(stand_in_again_and_again, thread_sensitive=False)())
    try:
        for k in range(120):
            board = await db(_board)(entry.pk)
            pair = a_legal_pair(position_of(board))
            if board.status != Entry.Status.PLAYING or pair is None:
                break
            if k >= 30 and board.cpu_pairs > 0:  # both have played: enough interleaving
                break
            await asyncio.sleep(1 / 7)  # within the socket's rate of 8 messages a second
            answer = await ana.ask(type="move", tiles=sorted(pair), n=board.pairs_removed)
            if answer["type"] == "ack":
                acked.append((board.pairs_removed, sorted(pair)))
            else:  # the stand-in moved first, or took the board again at once (this
                # loop is keener than the sweeper): refused as the full way refuses it
                assert answer["code"] in ("stale", "illegal", "entry_over", "taken_back"), answer
    finally:
        done.set()
        await taking
    await asyncio.sleep(0.3)  # a CPU step in flight lands
    board = await db(_board)(entry.pk)
    moves = await db(
        lambda: list(
            board.moves.order_by("number").values_list("number", "tiles", "by_cpu", "kind")
        )
    )()
    pairs = [m for m in moves if m[3] == Move.Kind.PAIR]
    assert [m[0] for m in pairs] == list(range(board.pairs_removed))
    assert board.cpu_pairs == sum(1 for m in pairs if m[2]) > 0
    # Acknowledged means stored: the player's, or the stand-in's same pair at that count
    # (the full way answers a pair already on the board as a retry).
    assert {(n, tuple(t)) for n, t in acked} <= {(m[0], tuple(m[1])) for m in pairs}
    if not any(m[3] == Move.Kind.SHUFFLE for m in moves):  # a CPU may shuffle a blocked board
        assert int(board.alive, 16) == await db(_replayed_alive)(board)
    await close_all(sockets)


async def test_with_connections_kept_pairs_share_a_few_pooled_connections():
    # The site's default (CONN_MAX_AGE > 0): the loop's pool keeps its connections
    # between pairs, at most PAIR_DB_CONNECTIONS, named in pg_stat_activity.
    database = connection.settings_dict
    room, players, sockets, entry = await _racing("Ana", "Bo")
    ana = sockets[0]
    assert (await ana.ask(type="move", tiles=plan_pair(entry, 0), n=0))["type"] == "ack"
    kept, database["CONN_MAX_AGE"] = database["CONN_MAX_AGE"], 600
    try:
        for k in range(1, 6):
            assert (await ana.ask(type="move", tiles=plan_pair(entry, k), n=k))["type"] == "ack"
        pooled = await db(_pair_connections)()
        assert 1 <= pooled <= settings.PAIR_DB_CONNECTIONS
    finally:
        database["CONN_MAX_AGE"] = kept
        await async_db.close()
    for _ in range(50):  # a closed connection's backend leaves pg_stat_activity a moment later
        if await db(_pair_connections)() == 0:
            break
        await asyncio.sleep(0.05)
    assert await db(_pair_connections)() == 0
    assert [n for n, _ in await db(_pairs_stored)(entry.pk)] == list(range(6))
    await close_all(sockets)


def _pair_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
            [async_db.APPLICATION_NAME],
        )
        return cursor.fetchone()[0]
