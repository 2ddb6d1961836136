"""Bad input on every arena form, action and socket message (docs/PROTOCOL.md §Arenas)
gets a clear error and changes nothing: a wrong type, a player not joined, an arena
over, another's arena, a duration out of range."""

import asyncio
from datetime import timedelta

import pytest
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from accounts.models import Player
from arenas import actions
from arenas.models import Arena
from config.asgi import application
from tests.arenas.arena_helpers import joined, new_arena, paired, refused
from tests.rooms.rooms_helpers import HOST, ORIGIN, cookie_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("field", "value", "code", "words"),
    [
        ("minutes", 9, "bad_duration", "from 10 to 120 minutes"),
        ("minutes", 121, "bad_duration", "from 10 to 120 minutes"),
        ("minutes", "half an hour", "bad_form", "whole number"),
        ("minutes", True, "bad_form", "whole number"),
        ("level", "impossible", "bad_level", "choose a level"),
        ("name", "   ", "bad_form", "name"),
        ("name", "x" * 61, "bad_form", "name"),
        ("name", "Sprint\u202eevil", "bad_form", "invisible"),  # a text-direction override
        ("name", "Sprint\x00", "bad_form", "invisible"),
        ("time_limit_minutes", 7, "bad_form", "time limit"),
        ("starts_in_minutes", -1, "bad_start", "starts in"),
        ("starts_in_minutes", 60 * 24 * 8, "bad_start", "starts in"),
        ("layout", "no-such-layout", "bad_form", "layout"),
        ("public", "yes", "bad_form", "public"),
    ],
)
def test_a_bad_arena_form_is_refused_and_makes_no_arena(field, value, code, words):
    creator = Player.objects.create()
    form = {"name": "Sprint", "level": "easy", "minutes": 30, field: value}
    message = refused(code, actions.create_arena, creator, **form)
    assert words in message
    assert not Arena.objects.exists()


def test_no_arena_code_and_a_finished_arena_refuse_joining():
    player = Player.objects.create()
    assert "no arena" in refused("no_arena", actions.join, player, "NOPE\x00", "Ana")
    arena = new_arena(minutes=10)
    late = arena.ends_at + timedelta(seconds=1)
    assert "over" in refused("arena_over", actions.join, player, arena.code, "Ana", now=late)


def test_a_bad_nickname_is_refused():
    arena = new_arena()
    player = Player.objects.create()
    refused("bad_nickname", actions.join, player, arena.code, "")


def test_ready_pause_and_all_in_need_a_joined_player():
    arena = new_arena()
    stranger = Player.objects.create()
    for call, args in (
        (actions.ready, ()),
        (actions.pause, ()),
        (actions.set_all_in, (True,)),
    ):
        assert "join the arena first" in refused("not_joined", call, stranger, arena.code, *args)


def test_all_in_takes_true_or_false_only():
    arena = new_arena()
    (ana,) = joined(arena, "Ana")
    refused("bad_message", actions.set_all_in, ana, arena.code, "yes")


def test_a_racing_player_cannot_say_ready_again():
    arena = new_arena()
    ana, bo = joined(arena, "Ana", "Bo")
    now = timezone.now()
    paired(arena, [ana, bo], now)
    assert "finish your race" in refused("racing", actions.ready, ana, arena.code, now=now)


def test_a_player_cannot_cancel_anothers_arena_nor_one_that_started():
    arena = new_arena(starts_in=30)
    other = Player.objects.create()
    assert "creator" in refused("not_creator", actions.cancel, other, arena.code)
    running = new_arena(creator=arena.creator)
    refused("started", actions.cancel, arena.creator, running.code)
    actions.cancel(arena.creator, arena.code)
    assert not Arena.objects.filter(pk=arena.pk).exists()


def test_the_create_form_says_what_is_wrong_and_is_rate_limited(client, settings):
    response = client.post("/arenas/new", {"name": "Sprint", "level": "easy", "minutes": "500"})
    assert response.status_code == 400
    assert "duration: from 10 to 120 minutes" in response.content.decode()
    assert not Arena.objects.exists()
    settings.ARENA_CREATE_PER_DEVICE = 1
    form = {"name": "Sprint", "level": "easy", "minutes": "30"}
    assert client.post("/arenas/new", form).status_code == 429  # the bad one counted
    assert not Arena.objects.exists()


def test_a_refused_create_form_comes_back_with_every_choice_kept(client):
    form = {"name": "Sprint", "level": "hard", "minutes": "500", "starts_in": "15"}
    form |= {"time_limit": "15", "public": "on"}
    page = client.post("/arenas/new", form).content.decode()
    assert 'value="Sprint"' in page and 'value="500"' in page and 'value="15"' in page
    assert '<option value="hard" selected>' in page
    assert '<option value="15" selected>15 min</option>' in page  # not back to 5 min
    assert '<option value="5" selected>' not in page
    assert 'id="arena-public" checked' in page
    fresh = client.get("/arenas/").content.decode()
    assert '<option value="5" selected>5 min</option>' in fresh  # the default


def test_the_create_form_makes_an_arena_and_its_page_shows_it(client):
    form = {"name": "Sprint", "level": "easy", "minutes": "30", "public": "on"}
    response = client.post("/arenas/new", form)
    arena = Arena.objects.get()
    assert response.status_code == 302 and response.url == f"/arenas/{arena.code}/"
    assert arena.public and arena.status == "running" and arena.creator is not None
    page = client.get(response.url).content.decode()
    assert "Sprint" in page and "Join the arena" in page
    assert "Sprint" in client.get("/arenas/").content.decode()
    assert "Sprint" in client.get("/").content.decode()  # the home page's next arena


def test_an_unknown_arena_page_is_not_found(client):
    assert client.get("/arenas/NOSUCH/").status_code == 404


async def _socket(code, player=None):
    headers = [ORIGIN, HOST]
    if player is not None:
        headers.append((b"cookie", cookie_for(player).encode()))
    socket = WebsocketCommunicator(application, f"/ws/arenas/{code}/", headers=headers)
    connected, _ = await socket.connect()
    assert connected
    return socket


@pytest.mark.django_db(transaction=True)
async def test_the_socket_refuses_bad_messages_with_a_clear_error_and_changes_nothing():
    from asgiref.sync import sync_to_async

    arena = await sync_to_async(new_arena)()
    (ana,) = await sync_to_async(joined)(arena, "Ana")
    socket = await _socket(arena.code, ana)
    state = await socket.receive_json_from(timeout=5)
    assert state["type"] == "state" and state["you"]["name"] == "Ana"
    nested = "[" * 1000  # within the 1 KB limit, deeper than Python's json could follow
    for text in ("not json", "[1, 2]", '{"type": "fly"}', "x" * 2000, nested):
        await socket.send_to(text_data=text)
        error = await socket.receive_json_from(timeout=5)
        assert error["type"] == "error" and error["code"] == "bad_message", error
    await socket.send_json_to({"type": "all_in", "on": "yes"})
    error = await socket.receive_json_from(timeout=5)
    assert (error["code"], error["for"]) == ("bad_message", "all_in")
    await socket.send_json_to({"type": "all_in", "on": True})
    assert (await socket.receive_json_from(timeout=5))["type"] == "ack"
    state = await socket.receive_json_from(timeout=5)
    assert state["you"]["all_in"] is True
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_spectator_socket_gets_the_table_and_is_told_to_join_before_acting():
    from asgiref.sync import sync_to_async

    arena = await sync_to_async(new_arena)()
    await sync_to_async(joined)(arena, "Ana")
    socket = await _socket(arena.code)
    state = await socket.receive_json_from(timeout=5)
    assert state["you"] is None and [r["name"] for r in state["table"]] == ["Ana"]
    await socket.send_json_to({"type": "ready"})
    error = await socket.receive_json_from(timeout=5)
    assert (error["code"], error["message"]) == ("not_joined", "join the arena first")
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_an_over_arena_refuses_ready_on_the_socket_and_no_code_is_closed():
    from asgiref.sync import sync_to_async

    arena = await sync_to_async(new_arena)()
    (ana,) = await sync_to_async(joined)(arena, "Ana")
    await sync_to_async(Arena.objects.filter(pk=arena.pk).update)(
        starts_at=timezone.now() - timedelta(hours=2)
    )
    socket = await _socket(arena.code, ana)
    await socket.receive_json_from(timeout=5)
    await socket.send_json_to({"type": "ready"})
    error = await socket.receive_json_from(timeout=5)
    assert error["code"] == "arena_over"
    await socket.disconnect()
    nowhere = await _socket("NOSUCH")
    error = await nowhere.receive_json_from(timeout=5)
    assert error["code"] == "no_arena"
    await nowhere.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_change_reaches_every_socket_once_with_its_own_line_from_one_read(monkeypatch):
    """Two players and a spectator watch; a third player joins. Each socket gets the new
    table with its own line ("you"), and the process read the state once for all three
    (it read it once a socket before, which starved the database threads under load)."""
    from asgiref.sync import sync_to_async

    from arenas import queries

    arena = await sync_to_async(new_arena)()
    ana, bo = await sync_to_async(joined)(arena, "Ana", "Bo")
    sockets = [await _socket(arena.code, ana), await _socket(arena.code, bo)]
    sockets.append(await _socket(arena.code))
    for socket in sockets:
        await socket.receive_json_from(timeout=5)  # the state on connect
    reads = []
    real = queries.state_parts
    monkeypatch.setattr(queries, "state_parts", lambda *a, **k: reads.append(1) or real(*a, **k))
    await sync_to_async(joined)(arena, "Cy")
    states = [await socket.receive_json_from(timeout=5) for socket in sockets]
    assert [[row["name"] for row in s["table"]] for s in states] == [["Ana", "Bo", "Cy"]] * 3
    assert [s["you"] and s["you"]["name"] for s in states] == ["Ana", "Bo", None]
    assert len(reads) == 1
    for socket in sockets:
        assert await socket.receive_nothing(timeout=0.5)  # one state a change, no more
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_states_are_paced_and_the_last_holds_every_change():
    """Players joining one after another 0.15 s apart: the watching socket's states are
    at least STATE_EVERY_SECONDS apart (docs/PROTOCOL.md §Arenas), the first soon after
    the first change, fewer states than changes, and the last lists everyone."""
    import time

    from asgiref.sync import sync_to_async

    from arenas.consumers import STATE_EVERY_SECONDS

    arena = await sync_to_async(new_arena)()
    socket = await _socket(arena.code)
    await socket.receive_json_from(timeout=5)
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]

    async def join_one_by_one():
        for name in names:
            await sync_to_async(joined)(arena, name)
            await asyncio.sleep(0.15)

    started = time.monotonic()
    joining = asyncio.ensure_future(join_one_by_one())
    arrivals, state = [], None
    while state is None or len(state["table"]) < len(names):
        state = await socket.receive_json_from(timeout=3)
        arrivals.append(time.monotonic())
    await joining
    assert arrivals[0] - started < 1.0
    gaps = [b - a for a, b in zip(arrivals, arrivals[1:], strict=False)]
    assert all(gap >= STATE_EVERY_SECONDS - 0.05 for gap in gaps), gaps
    assert len(arrivals) < len(names)  # fewer states than changes
    await socket.disconnect()
