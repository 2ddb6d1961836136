"""The cheating audit: what a browser can learn and do through its socket and pages.
No face before "go", no deal code or plan while the race runs (a hint is one pair), and
nobody acts for another seat or in another room."""

import json

import pytest

from bench.client_board import a_legal_pair, position_from_json
from rooms.models import Entry, Move
from tests.rooms.rooms_helpers import Socket, close_all, db, room_with, seated

pytestmark = pytest.mark.django_db(transaction=True)
# Words of the solver's output; none may reach a browser during a race.
PLAN_WORDS = ("plan", "solution", "winning", "solver", "faces")


@pytest.fixture(autouse=True)
def countdown(settings):
    settings.RACE_COUNTDOWN_SECONDS = 0.5


def deal_codes(room):
    return set(Entry.objects.filter(race__room=room).values_list("code", flat=True))


def no_face(message) -> bool:
    return '"face"' not in json.dumps(message)


async def test_no_face_reaches_any_socket_or_page_before_go(client, settings):
    settings.RACE_COUNTDOWN_SECONDS = 3
    room, players, (ana, bo) = await seated("Ana", "Bo")
    watcher = Socket(room.code)
    await watcher.open()
    await ana.ask(type="start")
    await bo.next("race_started")
    for socket in (ana, bo, watcher):  # everything each was sent up to now, and on request
        await socket.ask(type="snapshot")
        for kind in ("hint", "shuffle"):
            answer = await socket.ask(type=kind)
            assert answer["type"] == "error"
        assert all(no_face(m) for m in socket.seen)
    page = await db(client.get)(f"/rooms/{room.code}/")
    assert b'"face"' not in page.content
    go = await bo.go()
    assert not no_face(go)
    assert all(no_face(m) for m in watcher.seen), "a watcher without a seat never gets faces"
    await close_all([ana, bo, watcher])


async def test_no_deal_code_or_plan_reaches_a_socket_while_the_race_runs():
    room, players, (ana, bo) = await seated("Ana", "Bo")
    await ana.ask(type="start")
    go = await bo.go()
    position = position_from_json(go)
    i, j = a_legal_pair(position)
    await bo.ask(type="move", tiles=[i, j], n=0)
    hint = await bo.ask(type="hint")
    assert set(hint) == {"type", "pair", "hints_left", "id"} and len(hint["pair"]) == 2
    await bo.ask(type="snapshot")
    codes = await db(deal_codes)(room)
    for socket in (ana, bo):
        await socket.ask(type="ping", t=0)  # every event so far has arrived before this
        text = json.dumps(socket.seen)
        assert not any(code in text for code in codes), "the deal code is the whole deal"
        assert not any(f'"{word}"' in text for word in PLAN_WORDS)
    await close_all([ana, bo])


async def test_only_the_player_who_asked_sees_the_hinted_pair():
    room, players, (ana, bo) = await seated("Ana", "Bo")
    await ana.ask(type="start")
    await bo.go()
    await bo.ask(type="hint")
    await ana.ask(type="ping", t=0)
    assert not any(m["type"] == "hint" for m in ana.seen)
    await close_all([ana, bo])


async def test_a_message_naming_another_seat_plays_no_board_and_your_own_plays_yours():
    room, players, (ana, bo) = await seated("Ana", "Bo")
    await ana.ask(type="start")
    board = await bo.go()
    ana_seat = (await ana.ask(type="snapshot"))["you"]
    i, j = a_legal_pair(position_from_json(board))
    # A move has no seat to name: refused whole (rooms/core/messages.py), no board touched.
    answer = await bo.ask(type="move", tiles=[i, j], n=0, seat=ana_seat, player=ana_seat)
    assert (answer["code"], "seat" in answer["message"]) == ("bad_message", True)
    assert (await bo.ask(type="move", tiles=[i, j], n=0))["type"] == "ack"
    removed = await db(lambda: dict(Entry.objects.values_list("seat__nickname", "pairs_removed")))()
    assert removed == {"Ana": 0, "Bo": 1}
    await close_all([ana, bo])


async def test_a_player_cannot_act_in_a_room_where_they_have_no_seat():
    room, players, (ana, bo) = await seated("Ana", "Bo")
    other, (carl,) = await db(room_with)("Carl")
    intruder = Socket(other.code, players[1])  # Bo's real cookie, another room's socket
    await intruder.open()
    carl_socket = Socket(other.code, carl)
    await carl_socket.open()
    await carl_socket.ask(type="start")
    await carl_socket.go()
    for kind, code in [
        ("move", "no_seat"),
        ("hint", "no_seat"),
        ("shuffle", "no_seat"),
        ("give_up", "no_seat"),
        ("start", "no_seat"),
        ("rules", "no_seat"),
        ("add_cpu", "no_seat"),
        ("remove_seat", "no_seat"),
    ]:
        answer = await intruder.ask(type=kind, tiles=[0, 1], n=0, rules={"hints": 9}, seat=1)
        assert answer["code"] == code, (kind, answer)
    entry = await db(lambda: Entry.objects.get(race__room=other))()
    assert entry.status == "playing" and entry.pairs_removed == 0
    await close_all([ana, bo, intruder, carl_socket])


async def test_a_forged_or_foreign_cookie_gets_no_seat():
    room, players, (ana,) = await seated("Ana")
    await ana.ask(type="start")
    await ana.go()
    forged = Socket(room.code)
    forged.ws.scope["headers"].append((b"cookie", b"mj_device=" + b"x" * 40 + b":forged"))
    snapshot = await forged.open()
    assert snapshot["you"] is None and snapshot["entry"] is None
    assert (await forged.ask(type="move", tiles=[0, 1], n=0))["code"] == "no_seat"
    await forged.close()
    await close_all([ana])


async def test_a_replayed_move_is_acknowledged_once_and_an_old_one_is_stale():
    room, players, (ana,) = await seated("Ana")
    await ana.ask(type="start")
    position = position_from_json(await ana.go())
    first = a_legal_pair(position)
    second = a_legal_pair(position.remove(*first))
    assert (await ana.ask(type="move", tiles=list(first), n=0))["pairs_removed"] == 1
    assert (await ana.ask(type="move", tiles=list(first), n=0))["pairs_removed"] == 1
    assert (await ana.ask(type="move", tiles=list(second), n=1))["pairs_removed"] == 2
    assert (await ana.ask(type="move", tiles=list(first), n=0))["code"] == "stale"
    moves = await db(lambda: Move.objects.filter(kind=Move.Kind.PAIR).count())()
    assert moves == 2
    await close_all([ana])


async def test_no_move_is_taken_after_the_race_ends():
    room, players, (ana, bo) = await seated("Ana", "Bo")
    await ana.ask(type="start")
    position = position_from_json(await bo.go())
    await ana.go()
    await ana.ask(type="give_up")
    await bo.ask(type="give_up")
    await bo.next("race_finished")
    answer = await bo.ask(type="move", tiles=list(a_legal_pair(position)), n=0)
    assert answer["code"] == "no_race"
    assert await db(lambda: Move.objects.count())() == 0
    await close_all([ana, bo])
