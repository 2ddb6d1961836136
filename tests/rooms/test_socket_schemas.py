"""The room socket's message schemas (rooms/core/messages.py): docs/PROTOCOL.md's tables name
the same types and fields; every malformed message is refused in one place with the
documented code, its detail naming the field in the player's language, its id repeated,
and nothing changed."""

import asyncio
import json
import re
from pathlib import Path

import msgspec
import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from rooms import consumers
from rooms.core import messages
from rooms.models import RULE_FIELDS
from tests.rooms.rooms_helpers import (
    HOST,
    ORIGIN,
    Socket,
    close_all,
    cookie_for,
    db,
    room_with,
    seated,
    stored_state,
)

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"


# --- the doc and the schemas -------------------------------------------------------------
def table_rows(heading: str, columns: str) -> list[list[str]]:
    """The cells of the first table under `heading` whose header row is `columns`."""
    text = PROTOCOL.read_text()
    section = text[text.index(f"\n{heading}\n") :]
    header = section.index(f"\n{columns}\n")
    rows = []
    for line in section[header + len(columns) + 2 :].splitlines()[1:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return rows


def documented_messages() -> dict[str, list[str]]:
    """{type: [field, ...]} of the client → server table: a fields cell is "—" or
    "`field`: what it is" parts separated by "; "."""
    documented = {}
    rows = table_rows("## Client → server", "| type | fields | who | answer |")
    for kind, fields, *_rest in rows:
        names = []
        if fields != "—":
            for part in fields.split("; "):
                named = re.match(r"`(\w+)`: ", part)
                assert named, f"{kind}: a field is written `name`: what it is, not {part!r}"
                names.append(named.group(1))
        documented[kind.strip("`")] = names
    return documented


def test_the_protocol_doc_and_the_schemas_name_the_same_types_and_fields():
    schemas = {kind: messages.fields_of(schema) for kind, schema in messages.TYPES.items()}
    assert documented_messages() == schemas


def test_the_protocol_doc_and_the_rules_schema_name_the_same_rules_of_the_same_types():
    words = {"whole number": int, "true or false": bool, "text": str}
    documented = {
        rule.strip("`"): words[re.match(r"[a-z ]+[a-z]", value).group()]
        for rule, value in table_rows("## Client → server", "| rule | value |")
    }
    schema = {  # each rule's type, besides "not given"
        f.name: next(t for t in f.type.__args__ if t is not msgspec.UnsetType)
        for f in msgspec.structs.fields(messages.RuleChanges)
    }
    assert documented == schema
    assert list(documented) == list(RULE_FIELDS), "the room's rules, in the model's order"


def test_every_message_type_has_one_handler_and_only_snapshot_and_ping_need_no_seat():
    assert consumers.HANDLERS.keys() == messages.TYPES.keys()
    assert sorted(consumers.SEATLESS) == ["ping", "snapshot"]


# --- what the schemas refuse, without a socket ---------------------------------------------
REFUSED = [
    # (message, code, a word its detail names)
    ({"type": "move", "tiles": ["a", 2], "n": 0}, "bad_message", "tiles"),
    ({"type": "move", "tiles": [True, 2], "n": 0}, "bad_message", "tiles"),
    ({"type": "move", "tiles": [1.0, 2], "n": 0}, "bad_message", "tiles"),
    ({"type": "move", "tiles": [1, 2, 3], "n": 0}, "bad_message", "tiles"),
    ({"type": "move", "tiles": list(range(400)), "n": 0}, "bad_message", "tiles"),
    ({"type": "move", "tiles": [-1, 2], "n": 0}, "bad_message", "tiles"),
    ({"type": "move", "tiles": [1, 2**40], "n": 0}, "bad_message", "tiles"),
    ({"type": "move", "tiles": [1, 2]}, "bad_message", "n"),
    ({"type": "move", "tiles": [1, 2], "n": -1}, "bad_message", "n"),
    ({"type": "move", "tiles": [1, 2], "n": 32768}, "bad_message", "32767"),
    ({"type": "move", "tiles": [1, 2], "n": "0"}, "bad_message", "'0'"),
    ({"type": "move", "tiles": [1, 2], "n": 0, "seat": 3}, "bad_message", "seat"),
    ({"type": "hint", "pair": [1, 2]}, "bad_message", "pair"),
    ({"type": "ping", "t": "noon"}, "bad_message", "noon"),
    ({"type": "public", "public": 1}, "bad_message", "true or false"),
    ({"type": "public"}, "bad_message", "true or false"),
    ({"type": "remove_seat", "seat": "x"}, "bad_message", "seat"),
    ({"type": "remove_seat", "seat": 0}, "bad_message", "seat"),
    ({"type": "remove_seat", "seat": 2**64}, "bad_message", "seat"),
    ({"type": "add_cpu", "level": 3}, "bad_cpu", "level"),
    ({"type": "add_cpu"}, "bad_cpu", "level"),
    ({"type": "rules", "rules": {}}, "bad_rules", "rules"),
    ({"type": "rules", "rules": [["hints", 1]]}, "bad_rules", "rules"),
    ({"type": "rules", "rules": {"colour": "red"}}, "bad_rules", "colour"),
    ({"type": "rules", "rules": {"hints": True}}, "bad_rules", "hints"),
    ({"type": "rules", "rules": {"flowers": 1}}, "bad_rules", "flowers"),
    ({"type": "rules", "rules": {"level": None}}, "bad_rules", "level"),
    ({"type": "teleport"}, "unknown_type", "teleport"),
    ({"type": 3}, "bad_message", "type"),
]


@pytest.mark.parametrize(("message", "code", "word"), REFUSED)
def test_the_schema_refuses_a_malformed_message_with_its_code_naming_the_fault(message, code, word):
    refused = messages.parse(json.dumps({**message, "id": "m1"}))
    assert isinstance(refused, messages.Refused)
    assert (refused.code, refused.id) == (code, "m1")
    assert word in refused.text % refused.params


def test_the_schema_gives_the_handlers_typed_values():
    move = messages.parse('{"type": "move", "tiles": [9, 4], "n": 3, "id": [1]}')
    assert (type(move), move.tiles, move.n, move.id) == (messages.Move, (9, 4), 3, [1])
    rules = messages.parse('{"type": "rules", "rules": {"hints": 2, "flowers": true}}')
    assert rules.rules.changes() == {"hints": 2, "flowers": True}
    assert messages.parse('{"type": "ping"}').t is None


def test_text_that_is_not_a_json_object_is_refused_with_the_id_when_one_can_be_read():
    for text, request_id in [
        ("{not json", None),
        ("[" * 4000, None),
        ('{"type": "ping", "t": NaN, "id": 5}', 5),  # Python reads NaN; JSON has none
        ("[1, 2]", None),
        ('{"id": 6}', 6),
        ('{"type": "ping", "id": 1e999}', None),  # Python reads inf; no JSON repeats it
    ]:
        refused = messages.parse(text)
        assert (refused.code, refused.id) == ("bad_message", request_id), text


# --- over a socket: refused in one place, nothing changed ------------------------------------
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("short_countdown")
@pytest.mark.countdown(0.3)
async def test_every_malformed_message_in_a_race_is_refused_and_changes_nothing():
    room, players, (ana, bo) = await seated("Ana", "Bo")
    await ana.ask(type="start")
    await ana.go()
    await bo.go()
    before = await db(stored_state)()
    for number, (message, code, word) in enumerate(REFUSED):
        await asyncio.sleep(1 / consumers.RATE_PER_SECOND)  # under the rate limit
        answer = await ana.ask(**message, id=f"r{number}")
        assert (answer["type"], answer["code"]) == ("error", code), message
        assert word in answer["message"], (message, answer)
    assert await db(stored_state)() == before, "no refusal changed a row"
    assert (await bo.ask(type="ping", t=1))["type"] == "pong", "the other socket undisturbed"
    await close_all([ana, bo])


@pytest.mark.django_db(transaction=True)
async def test_a_socket_without_a_seat_is_told_no_seat_even_for_a_malformed_action():
    room, players = await db(room_with)("Ana")
    watcher = Socket(room.code)
    await watcher.open()
    for message in [
        {"type": "move", "tiles": "x"},
        {"type": "rules", "rules": {"colour": 1}},
        {"type": "remove_seat"},
        {"type": "give_up", "why": "bored"},
    ]:
        assert (await watcher.ask(**message))["code"] == "no_seat", message
    assert (await watcher.ask(type="ping", t="x"))["code"] == "bad_message"  # anyone's
    assert (await watcher.ask(type="teleport"))["code"] == "unknown_type"
    await watcher.close()


@pytest.mark.django_db(transaction=True)
async def test_a_refusal_is_worded_in_the_sockets_language():
    room, (ana,) = await db(room_with)("Ana")
    headers = [ORIGIN, HOST, (b"cookie", cookie_for(ana).encode())]
    headers.append((b"accept-language", b"es-ES,es;q=0.9"))
    socket = WebsocketCommunicator(application, f"/ws/rooms/{room.code}/", headers=headers)
    assert (await socket.connect())[0]
    await socket.send_to(text_data='{"type": "move", "tiles": [1], "n": 0, "id": 1}')
    while (answer := await socket.receive_json_from(timeout=5)).get("id") != 1:
        pass
    assert answer["code"] == "bad_message"
    assert answer["message"] == "envía las dos fichas de la pareja como 'tiles': [i, j]"
    await socket.send_to(text_data='{"type": "hint", "pair": 1, "id": 2}')
    while (answer := await socket.receive_json_from(timeout=5)).get("id") != 2:
        pass
    assert answer["message"] == "un mensaje hint no tiene el campo pair"
    await socket.disconnect()
