"""The room socket (docs/PROTOCOL.md): events, acks, and every kind of bad message."""

import asyncio
import json
import threading
import time

import pytest
import redis
from channels.testing import WebsocketCommunicator
from django.db import connection, transaction

from config.asgi import application
from infra import redis_async
from rooms import consumers
from rooms.core.boards import deal_for, position_of
from rooms.live import standings_feed
from rooms.live.socket_db import PLAY, SOCKETS
from rooms.lobby import actions as lobby
from rooms.models import Entry
from rooms.race import actions as races
from tests.rooms.rooms_helpers import (
    HOST,
    ORIGIN,
    Socket,
    close_all,
    db,
    first_plan_pair,
    room_with,
    seated,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("short_countdown"),
    pytest.mark.countdown(0.3),  # sockets alone: no page needs the time to draw the count
]


async def test_a_socket_gets_a_snapshot_of_the_room_on_connect():
    room, players = await db(room_with)("Ana", "Bo")
    socket = Socket(room.code, players[1])
    snapshot = await socket.open()
    assert snapshot["room"]["code"] == room.code
    assert [s["nickname"] for s in snapshot["room"]["seats"]] == ["Ana", "Bo"]
    assert snapshot["you"] == snapshot["room"]["seats"][1]["id"]
    assert snapshot["race"] is None
    await socket.close()


@pytest.mark.parametrize(
    ("accept", "message"), [("en", "no such room"), ("es-ES,es;q=0.9", "no existe esa sala")]
)
async def test_an_unknown_room_is_told_no_room_in_the_players_language_then_closed_4404(
    accept, message
):
    headers = [ORIGIN, HOST, (b"accept-language", accept.encode())]
    ws = WebsocketCommunicator(application, "/ws/rooms/NOPE42/", headers=headers)
    connected, _ = await ws.connect()
    assert connected
    assert await ws.receive_json_from(timeout=5) == {
        "type": "error",
        "code": "no_room",
        "message": message,
    }
    assert await ws.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}


async def test_a_message_sent_to_an_unknown_room_before_its_close_is_passed_over():
    # A page sends its kept pairs as its socket opens; the room is gone: the socket is
    # told no_room and closed 4404, and what it sent meanwhile changes nothing (it used to
    # crash the consumer, so the page saw an abrupt close instead of "room gone").
    ws = WebsocketCommunicator(application, "/ws/rooms/NOPE42/", headers=[ORIGIN, HOST])
    assert (await ws.connect())[0]
    await ws.send_to(text_data=json.dumps({"type": "move", "tiles": [0, 1], "n": 0, "id": 1}))
    assert (await ws.receive_json_from(timeout=5))["code"] == "no_room"
    assert await ws.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
    await ws.disconnect()
    assert await ws.receive_nothing(timeout=0.2)


async def test_a_socket_from_a_foreign_origin_is_refused():
    room, players = await db(room_with)("Ana")
    socket = Socket(room.code, players[0], origin=(b"origin", b"http://evil.example"))
    connected, _ = await socket.ws.connect()
    assert not connected


async def test_the_lobby_is_live_and_every_event_carries_the_next_version():
    room, players, (ana,) = await seated("Ana")
    version = (await ana.ask(type="snapshot"))["v"]
    await ana.ask(type="add_cpu", level="steady")
    lobby = await ana.next("lobby")
    assert lobby["v"] == version + 1
    assert lobby["room"]["seats"][-1]["cpu"] == "steady"
    await ana.ask(type="rules", rules={"hints": 5})
    assert (await ana.next("lobby"))["v"] == version + 2
    await close_all([ana])


@pytest.mark.countdown(2)  # time for the race_started snapshot to be read before "go"
async def test_a_race_shows_no_face_before_go_and_every_face_after():
    room, players, sockets = await seated("Ana", "Bo")
    ana, bo = sockets
    answer = await ana.ask(type="start")
    assert answer["type"] == "ack"
    started = await bo.next("race_started")
    assert "face" not in json.dumps(started)
    board = (await bo.next("snapshot"))["entry"]["board"]
    assert all("face" not in tile for tile in board["tiles"])
    go = await bo.next("go", timeout=5)
    assert all("face" in tile for tile in go["board"]["tiles"])
    for message in bo.seen[: bo.seen.index(go)]:
        assert '"face"' not in json.dumps(message)
    await close_all(sockets)


async def go_race(sockets):
    await sockets[0].ask(type="start")
    for socket in sockets:
        await socket.go()


async def racing(*nicknames):
    """Seated and past go: (room, players, sockets, the first player's board, its plan's
    first pair)."""
    room, players, sockets = await seated(*nicknames)
    await go_race(sockets)
    entry = await db(Entry.objects.get)(seat__player=players[0])
    return room, players, sockets, entry, first_plan_pair(entry)


async def test_a_pair_is_acknowledged_and_the_others_see_the_standings():
    room, players, sockets, entry, (i, j) = await racing("Ana", "Bo")
    ana, bo = sockets
    ack = await ana.ask(type="move", tiles=[i, j], n=0)
    assert ack == {"type": "ack", "pairs_removed": 1, "status": "playing", "id": ack["id"]}
    standings = await bo.next("standings")
    row = next(r for r in standings["standings"] if r["nickname"] == "Ana")
    assert row["progress"] == 2 * 100 // len(deal_for(entry.code).faces)
    await close_all(sockets)


def hold_every_thread(lane, freed: threading.Event) -> list:
    """Every thread of this loop's `lane` waiting for `freed`: what is sent to the lane
    meanwhile queues (more held than it has threads: the rest queue too)."""
    loop, size = asyncio.get_running_loop(), lane.executor()._max_workers
    return [loop.run_in_executor(lane.executor(), freed.wait, 30) for _ in range(size)]


async def test_a_pair_is_answered_while_every_other_socket_thread_is_busy():
    # Sockets opening by the dozen (an arena starting its races) fill the sockets' worker
    # threads; a running race's pairs have threads of their own (the play lane).
    room, players, sockets, entry, (i, j) = await racing("Ana", "Bo")
    ana, _bo = sockets
    freed = threading.Event()
    busy = hold_every_thread(SOCKETS, freed)
    try:
        ack = await asyncio.wait_for(ana.ask(type="move", tiles=[i, j], n=0), 5)
    finally:
        freed.set()
        await asyncio.gather(*busy)
    assert ack["pairs_removed"] == 1
    await close_all(sockets)


async def test_a_ping_is_answered_while_the_sockets_last_pair_still_waits_for_the_database(
    settings,
):
    # A page takes a ping unanswered for 5 s for a dead socket and opens another, the
    # dearest thing a busy server can be asked. So a ping never waits for a thread, nor
    # for the socket's own pair in flight (the database away or slow); the pair is
    # answered once the database is back, and nothing it sent is lost.
    room, players, sockets, entry, (i, j) = await racing("Ana", "Bo")
    ana, _bo = sockets
    freed = threading.Event()
    held = hold_every_thread(SOCKETS, freed) + hold_every_thread(PLAY, freed)
    try:
        await ana.send(type="move", tiles=[i, j], n=0, id=7)  # queued behind the held thread
        pong = await asyncio.wait_for(ana.ask(type="ping", t=5), 5)
    finally:
        freed.set()
        await asyncio.gather(*held)
    assert pong["type"] == "pong" and pong["t"] == 5
    ack = await ana.next("ack")
    assert ack["id"] == 7 and ack["pairs_removed"] == 1
    await close_all(sockets)


async def test_a_burst_of_pairs_reaches_the_others_as_fewer_frames_showing_every_pair(settings):
    # Standings are a whole state: a room sends them at most every STANDINGS_FEED_MS, read when
    # they go (rooms/live/standings_feed.py), not one frame per pair to every socket.
    room, players, sockets = await seated("Ana", "Bo")
    ana, bo = sockets
    await go_race(sockets)
    code = await db(lambda: Entry.objects.filter(seat__player=players[0]).get().code)()
    for n, (i, j) in enumerate(deal_for(code).plan[:4]):
        assert (await ana.ask(type="move", tiles=[i, j], n=n))["type"] == "ack"
    progress = 4 * 2 * 100 // len(deal_for(code).faces)
    frames = []
    while not frames or _progress_of("Ana", frames[-1]) < progress:
        frames.append(await bo.next("standings"))
    await asyncio.sleep(2 * settings.STANDINGS_FEED_MS / 1000)
    assert await bo.nothing_more()  # nothing older arrives after
    assert len(frames) < 4 and all(frame["v"] == frames[0]["v"] for frame in frames)
    assert [frame["at"] for frame in frames] == sorted({frame["at"] for frame in frames})
    await close_all(sockets)


async def test_a_change_that_leaves_the_rows_as_they_were_sends_no_frame(settings):
    # A shuffle moves no row (progress, status, time): the standings it schedules equal
    # the last ones sent, and no socket is sent that frame again; the next pair is.
    from tests.practice.practice_helpers import moves_to_a_dead_end

    settings.STANDINGS_FEED_MS = 200
    room, players = await db(room_with)("Ana", "Bo")
    await db(lobby.update_rules)(players[0], room.code, {"level": "beginner"})
    ana, bo = Socket(room.code, players[0]), Socket(room.code, players[1])
    await ana.open()
    await bo.open()
    race = await db(races.start_race)(players[0], room.code, seed=12345)
    await ana.go()
    code = await db(lambda: race.entries.get(seat__player=players[0]).code)()
    for n, pair in enumerate(moves_to_a_dead_end(code)):
        assert (await ana.ask(type="move", tiles=list(pair), n=n))["type"] == "ack"
    await drained(bo, 4 * settings.STANDINGS_FEED_MS / 1000)  # the dead end's standings
    shuffled = await ana.ask(type="shuffle")
    assert shuffled["type"] == "shuffled"
    after = await drained(bo, 4 * settings.STANDINGS_FEED_MS / 1000)
    assert not [m for m in after if m["type"] == "standings"]
    pair = next(
        iter(
            await db(
                lambda: position_of(race.entries.get(seat__player=players[0])).playable_pairs()
            )()
        )
    )
    n = len(moves_to_a_dead_end(code))
    assert (await ana.ask(type="move", tiles=list(pair), n=n))["type"] == "ack"
    assert (await bo.next("standings", timeout=3))["type"] == "standings"  # a real change is sent
    await close_all([ana, bo])


async def drained(socket, seconds: float) -> list[dict]:
    """Every message the socket is sent in the next `seconds` and until it is quiet."""
    await asyncio.sleep(seconds)
    messages = []
    while not await socket.nothing_more():  # (a timed-out receive would end the socket)
        messages.append(await socket.next())
    return messages


async def test_after_another_process_published_a_rooms_standings_its_change_goes_out_a_period_later(
    settings,
):
    # A room's standings are published at most once a period, whichever process (or
    # worker) publishes: each takes the room's window in Redis first, and the window
    # ends a period after the publish; a change that finds it closed goes out when it ends.
    settings.STANDINGS_FEED_MS = 400
    room, players, sockets = await seated("Ana", "Bo")
    ana, bo = sockets
    await go_race(sockets)
    entry = await db(Entry.objects.get)(seat__player=players[0])
    loop = asyncio.get_running_loop()
    assert await standings_feed._take_window(room.code, "other") == 0  # as another process
    await standings_feed._checked(room.code, b"[]", "other")  # ... and publishing
    published = loop.time()
    i, j = first_plan_pair(entry)
    assert (await ana.ask(type="move", tiles=[i, j], n=0))["type"] == "ack"
    standings = await bo.next("standings", timeout=3)
    assert loop.time() - published >= 0.4  # not in the other's period
    assert _progress_of("Ana", standings) > 0  # the change was not lost
    await close_all(sockets)


async def test_a_tasks_standings_go_out_at_once_when_the_rooms_window_is_open():
    # A CPU's pair is stored by a Celery task: no event loop to wait on; the room's window
    # is open (nothing published in the last period), so they go out at once.
    room, players, sockets = await seated("Ana", "Bo")
    await go_race(sockets)
    loop, sent = asyncio.get_running_loop(), asyncio.Event()

    def a_task():
        with transaction.atomic():
            standings_feed.changed(room.code)
        connection.close()  # this thread's own
        loop.call_soon_threadsafe(sent.set)

    threading.Thread(target=a_task).start()
    await sent.wait()
    standings = await sockets[1].next("standings", timeout=2)
    assert {row["nickname"] for row in standings["standings"]} == {"Ana", "Bo"}
    assert standings["v"] == (await sockets[1].ask(type="snapshot"))["v"] and standings["at"] > 0
    await close_all(sockets)


def _progress_of(nickname, standings):
    return next(r["progress"] for r in standings["standings"] if r["nickname"] == nickname)


async def test_a_move_before_go_is_refused(settings):
    settings.RACE_COUNTDOWN_SECONDS = 30
    room, players, (ana,) = await seated("Ana")
    await ana.ask(type="start")
    answer = await ana.ask(type="move", tiles=[0, 1], n=0)
    assert answer["code"] == "too_early"
    await close_all([ana])


@pytest.mark.parametrize(
    "raw, code",
    [
        ("{not json", "bad_message"),
        ("[1, 2]", "bad_message"),
        ('{"no": "type"}', "bad_message"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"type": "move", "tiles": [1], "n": 0}', "bad_message"),
        ('{"type": "move", "tiles": ["a", 2], "n": 0}', "bad_message"),
        ('{"type": "move", "tiles": [0, 1]}', "bad_message"),
        ('{"type": "move", "tiles": [0, 9999], "n": 0}', "illegal"),
        ('{"type": "rules", "rules": {"hints": 99}}', "not_owner"),
        ('{"type": "add_cpu", "level": "godlike"}', "not_owner"),
        ('{"type": "start"}', "not_owner"),
        ('{"type": "give_up", "seat": 1}', "bad_message"),  # a field give_up has not
        ('{"type": "give_up"}', None),
    ],
)
async def test_bad_messages_get_an_error_naming_the_fault_and_change_nothing(raw, code):
    room, players, sockets = await seated("Ana", "Bo")
    ana, bo = sockets
    await go_race(sockets)
    await bo.raw(raw)
    answer = await bo.next("error", "ack")
    if code is None:  # Bo gives up Bo's own race, nobody else's
        assert answer["type"] == "ack"
        entries = await db(lambda: dict(Entry.objects.values_list("seat__nickname", "status")))()
        assert entries == {"Ana": "playing", "Bo": "gave_up"}
    else:
        assert answer["code"] == code and answer["message"]
        removed = await db(lambda: sorted(Entry.objects.values_list("pairs_removed", flat=True)))()
        assert removed == [0, 0]
    ping = await ana.ask(type="ping", t=1)  # the other socket was not disturbed
    assert ping["type"] == "pong"
    await close_all(sockets)


async def test_a_player_without_a_seat_cannot_act():
    room, players = await db(room_with)("Ana")
    stranger = Socket(room.code)
    await stranger.open()
    # Every action of a socket without a seat is refused alike (docs/PROTOCOL.md).
    kinds = ("start", "rules", "add_cpu", "remove_seat", "public", "offer", "ready")
    for kind in (*kinds, "move", "hint", "shuffle", "give_up"):
        answer = await stranger.ask(type=kind)
        assert (answer["type"], answer["code"]) == ("error", "no_seat"), kind
    await stranger.close()


async def test_a_flooding_socket_is_rate_limited_without_disturbing_others():
    room, players, sockets = await seated("Ana", "Bo")
    ana, bo = sockets
    for k in range(60):
        await bo.send(type="ping", t=k)
    kinds = []
    for _ in range(60):
        kinds.append((await bo.next())["type"])
    assert "error" in kinds
    assert any(m.get("code") == "rate_limited" for m in bo.seen)
    assert (await ana.ask(type="ping", t=0))["type"] == "pong"
    await close_all(sockets)


async def test_giving_up_ends_the_race_with_results_and_the_table():
    room, players, sockets = await seated("Ana", "Bo")
    ana, bo = sockets
    await go_race(sockets)
    await bo.ask(type="give_up")
    await ana.ask(type="give_up")
    finished = await ana.next("race_finished")
    assert [r["place"] for r in finished["results"]] == [1, 1]
    assert {r["nickname"] for r in finished["table"]} == {"Ana", "Bo"}
    await close_all(sockets)


async def test_a_reconnecting_player_gets_the_board_as_it_was():
    room, players, sockets, entry, (i, j) = await racing("Ana", "Bo")
    ana, bo = sockets
    await ana.ask(type="move", tiles=[i, j], n=0)
    await ana.close()
    again = Socket(room.code, players[0])
    snapshot = await again.open()
    alive = snapshot["entry"]["board"]["alive"]
    assert i not in alive and j not in alive and len(alive) == len(deal_for(entry.code).faces) - 2
    assert all("face" in tile for tile in snapshot["entry"]["board"]["tiles"])
    await close_all([again, bo])


async def test_events_reach_every_socket_in_order_of_version():
    room, players, sockets = await seated("Ana", "Bo")
    ana, bo = sockets
    for level in ("relaxed", "steady", "sharp"):
        await ana.ask(type="add_cpu", level=level)
    versions = [(await bo.next("lobby"))["v"] for _ in range(3)]
    assert versions == sorted(versions) and len(set(versions)) == 3
    await asyncio.sleep(0)
    await close_all(sockets)


def test_actions_module_is_the_only_writer():
    """The consumer module never saves models itself (docs/ARCHITECTURE.md §One write
    path)."""
    import inspect

    from rooms import consumers

    source = inspect.getsource(consumers)
    assert ".save(" not in source and ".objects.create(" not in source
    assert races.play_pair  # the consumer calls these


async def test_the_cookie_a_page_sets_identifies_the_socket():
    from django.test import Client

    from accounts.identity import COOKIE_NAME

    def visit_and_join():
        client = Client()
        client.post("/rooms/new", {"nickname": "Ana"})
        return client.cookies[COOKIE_NAME].value

    value = await db(visit_and_join)()
    code = await db(lambda: Entry._meta.apps.get_model("rooms", "Room").objects.get().code)()
    socket = Socket(code)
    socket.ws.scope["headers"].append((b"cookie", f"{COOKIE_NAME}={value}".encode()))
    snapshot = await socket.open()
    assert snapshot["you"] is not None and snapshot["you"] == snapshot["room"]["owner_seat"]
    await socket.close()


async def test_the_owner_removes_a_seat_between_races():
    room, players, sockets = await seated("Ana", "Bo")
    ana, bo = sockets
    bo_seat = (await bo.ask(type="snapshot"))["you"]
    assert (await bo.ask(type="remove_seat", seat=bo_seat))["code"] == "not_owner"
    assert (await ana.ask(type="remove_seat", seat=bo_seat))["type"] == "ack"
    lobby = await ana.next("lobby")
    assert [s["nickname"] for s in lobby["room"]["seats"]] == ["Ana"]
    assert (await ana.ask(type="remove_seat", seat="x"))["code"] == "bad_message"
    await close_all(sockets)


async def test_a_hint_goes_to_the_asker_only_and_counts():
    room, players, sockets = await seated("Ana", "Bo")
    ana, bo = sockets
    await go_race(sockets)
    answer = await ana.ask(type="hint")
    assert answer["type"] == "hint" and len(answer["pair"]) == 2
    assert answer["hints_left"] == 2  # the count the Hint button shows, the server's
    assert (await bo.ws.receive_nothing(timeout=0.3)) or all(m["type"] != "hint" for m in bo.seen)
    snapshot = await ana.ask(type="snapshot")
    assert snapshot["entry"]["hints_left"] == 2
    await close_all(sockets)


async def test_a_shuffle_is_refused_unless_blocked_and_then_deals_a_new_board():
    from tests.practice.practice_helpers import moves_to_a_dead_end

    room, players = await db(room_with)("Ana")
    await db(lobby.update_rules)(players[0], room.code, {"level": "beginner"})
    ana = Socket(room.code, players[0])
    await ana.open()
    race = await db(races.start_race)(players[0], room.code, seed=12345)
    await ana.go()
    assert (await ana.ask(type="shuffle"))["code"] == "not_blocked"
    code = await db(lambda: race.entries.get().code)()
    for n, pair in enumerate(moves_to_a_dead_end(code)):
        assert (await ana.ask(type="move", tiles=list(pair), n=n))["type"] == "ack"
    shuffled = await ana.ask(type="shuffle")
    assert shuffled["type"] == "shuffled" and shuffled["shuffles_left"] == 2
    assert all("face" in tile for tile in shuffled["board"]["tiles"])
    await ana.close()


async def test_an_error_repeats_the_id_whenever_the_message_could_be_read():
    room, players, (ana,) = await seated("Ana")
    await ana.raw(json.dumps({"id": 7, "type": 3}))
    assert (await ana.next("error"))["id"] == 7  # an object without a string type
    await ana.raw("not json")
    unreadable = await ana.next("error")
    assert (unreadable["id"], unreadable["code"]) == (None, "bad_message")
    await close_all([ana])


async def test_a_spectator_receives_no_face_before_during_or_after_go(settings):
    # Everyone races the same deal: a face seen by a watcher is a plan handed out.
    settings.RACE_COUNTDOWN_SECONDS = 0.3
    room, players, (ana, bo) = await seated("Ana", "Bo")
    watcher = Socket(room.code)  # no cookie: a visitor with no seat
    await watcher.open()
    await ana.ask(type="start")
    board = await ana.go()
    entry = await db(lambda: Entry.objects.get(seat__player=players[0]))()
    await ana.ask(type="move", tiles=first_plan_pair(entry), n=0)
    await watcher.ask(type="snapshot")
    await asyncio.sleep(0.8)  # the paced standings go out too
    await watcher.ask(type="ping", t=0)
    faces = {tile["face"] for tile in board["tiles"]}
    for message in watcher.seen:
        text = json.dumps(message)
        assert '"face"' not in text and '"faces"' not in text, message["type"]
        assert message["type"] != "go"
    assert {m["type"] for m in watcher.seen} >= {"snapshot", "race_started", "standings"}
    assert faces  # the players' boards had faces all along
    await close_all([ana, bo, watcher])


async def test_the_room_counts_who_watches_and_a_second_tab_of_a_player_is_not_a_watcher():
    room, players, (ana,) = await seated("Ana")
    assert (await ana.next("watchers"))["count"] == 0  # told on connect
    first, second = Socket(room.code), Socket(room.code)  # two visitors with no seat
    await first.open()
    assert (await ana.next("watchers"))["count"] == 1
    await second.open()
    assert (await ana.next("watchers"))["count"] == 2
    again = Socket(room.code, players[0])  # Ana's second tab: still Ana
    await again.open()
    assert (await again.next("watchers"))["count"] == 2  # told the count, not counted
    await first.close()
    assert (await ana.next("watchers"))["count"] == 1
    await close_all([ana, second, again])


async def test_a_watcher_left_by_a_killed_web_process_stops_counting_on_every_page(
    monkeypatch, settings
):
    """The web process holding a spectator's socket was killed: no socket closed to say
    so. Once its lease lapses, the next renewal of a live watcher tells the room."""
    monkeypatch.setattr(consumers, "SEEN_EVERY_SECONDS", 0)
    room, players, (ana,) = await seated("Ana")
    assert (await ana.next("watchers"))["count"] == 0
    client = redis.Redis.from_url(settings.REDIS_URL)
    lapses_at = time.time() + 0.5
    client.zadd(redis_async.key("watchers", room.code), {b"socket-of-a-dead-process": lapses_at})
    watcher = Socket(room.code)
    await watcher.open()
    assert (await ana.next("watchers"))["count"] == 2  # the dead one's lease still runs
    await asyncio.sleep(lapses_at - time.time() + 0.1)
    await watcher.ask(type="ping", t=1)
    assert (await ana.next("watchers"))["count"] == 1
    assert (await watcher.next("watchers"))["count"] == 1
    await close_all([ana, watcher])
