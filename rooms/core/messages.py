"""The room socket's incoming messages: one schema per type, a tagged union on `type`
(docs/PROTOCOL.md §Client → server), parsed straight from the frame's text by msgspec.

`parse` turns a frame into a typed message, or into a `Refused` that says why, with the
documented error code (docs/PROTOCOL.md §Error codes) and a detail for the player. This
module knows no Django: its details are English text marked for translation
(`gettext_noop`), which the consumer translates (rooms/core/errors.py `refused_error`).

msgspec and not pydantic: it parses a pair about six times faster (bench/message_parse.py,
docs/PERFORMANCE.md §Parsing a message).
"""

import functools
import json
import operator
import re
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar

import msgspec
from msgspec import UNSET, UnsetType


def gettext_noop(text: str) -> str:
    """Marks `text` for makemessages (its keyword); the consumer translates it."""
    return text


# A tile or a count of pairs: no deal has more tiles than this; whether a tile is on
# *this* board is the engine's to say (`illegal`).
MAX_INDEX = 32767
Index = Annotated[int, msgspec.Meta(ge=0, le=MAX_INDEX)]
RowId = Annotated[int, msgspec.Meta(ge=1, le=2**63 - 1)]  # a database id: a seat

COUNT = gettext_noop("n must be a whole number from 0 to %(most)d, not %(value)r")
NOT_JSON = gettext_noop("the message is not valid JSON")
NO_TYPE = gettext_noop("a message is an object with a type")
BAD_ID = gettext_noop("the message's id cannot be read")
UNKNOWN_TYPE = gettext_noop("unknown type %(type)r")
UNKNOWN_FIELD = gettext_noop("a %(type)s message has no field %(field)s")
NO_RULES = gettext_noop("send the rules to change as an object")
UNKNOWN_RULE = gettext_noop("unknown rule %(rules)s")
RULE_TYPE = gettext_noop("%(rule)s: wrong type of value %(value)r")
TRUE_OR_FALSE = gettext_noop("send public as true or false")  # rooms/lobby/actions.py says it too


class Message(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    """Any message may carry an `id`, any JSON value: its answer repeats it."""

    id: Any = None
    # Per field: the error code and the detail its refusal carries (%(value)r: what came).
    refusals: ClassVar[dict[str, tuple[str, str]]] = {}


class Snapshot(Message, tag="snapshot"):
    pass


class Ping(Message, tag="ping"):
    t: int | float | None = None  # the client's clock, in ms: echoed in the pong
    refusals = {"t": ("bad_message", gettext_noop("send t as your clock in ms, not %(value)r"))}


class RuleChanges(msgspec.Struct, forbid_unknown_fields=True):
    """The local rules to change, of docs/RULES.md §Local rules and site defaults: their
    types here; the values each allows are the room's model's (rooms/lobby/actions.py)."""

    level: str | UnsetType = UNSET
    flowers: bool | UnsetType = UNSET
    layout: str | UnsetType = UNSET
    shuffles: int | UnsetType = UNSET
    shuffle_penalty_seconds: int | UnsetType = UNSET
    hints: int | UnsetType = UNSET
    handicap: bool | UnsetType = UNSET
    show_matches: bool | UnsetType = UNSET
    time_limit_minutes: int | UnsetType = UNSET
    idle_limit_seconds: int | UnsetType = UNSET

    def __post_init__(self):
        if not self.changes():
            raise ValueError("no rule")

    def changes(self) -> dict:
        """{rule: value} of the rules given."""
        return {
            name: value
            for name in self.__struct_fields__
            if (value := getattr(self, name)) is not UNSET
        }


class Rules(Message, tag="rules"):
    rules: RuleChanges
    refusals = {"rules": ("bad_rules", NO_RULES)}


class AddCpu(Message, tag="add_cpu"):
    level: str  # one of the CPU levels: the lobby says which (`bad_cpu`)
    refusals = {"level": ("bad_cpu", gettext_noop("send the CPU's level as its name"))}


class RemoveSeat(Message, tag="remove_seat"):
    seat: RowId
    refusals = {"seat": ("bad_message", gettext_noop("send the seat's id, not %(value)r"))}


class Public(Message, tag="public"):
    public: bool
    refusals = {"public": ("bad_message", TRUE_OR_FALSE)}


class Start(Message, tag="start"):
    pass


class Offer(Message, tag="offer"):
    pass


class Ready(Message, tag="ready"):
    pass


class Move(Message, tag="move"):
    """A pair: its two tiles (either order) and the pairs this client has seen removed."""

    tiles: tuple[Index, Index]
    n: Index
    refusals = {
        "tiles": ("bad_message", gettext_noop("send the two tiles of the pair as 'tiles': [i, j]")),
        "n": ("bad_message", COUNT),
    }


class Hint(Message, tag="hint"):
    pass


class Shuffle(Message, tag="shuffle"):
    pass


class GiveUp(Message, tag="give_up"):
    pass


SCHEMAS = (
    Snapshot, Ping, Rules, AddCpu, RemoveSeat, Public, Start, Offer, Ready, Move, Hint,
    Shuffle, GiveUp,
)  # fmt: skip
TYPES: dict[str, type[Message]] = {schema.__struct_config__.tag: schema for schema in SCHEMAS}
_DECODER = msgspec.json.Decoder(functools.reduce(operator.or_, SCHEMAS))  # the tagged union


def type_of(message: Message) -> str:
    return message.__struct_config__.tag


def fields_of(schema: type[Message]) -> list[str]:
    """The fields a message of this type has besides `type` and `id`."""
    return [f.name for f in msgspec.structs.fields(schema) if f.name != "id"]


@dataclass(frozen=True)
class Refused:
    """A message refused before it reaches any action: nothing was changed."""

    code: str
    text: str  # English, marked for translation; `params` fill it in
    params: dict = field(default_factory=dict)
    id: Any = None  # the message's id, when it could be read
    type: str | None = None  # the message's type, when it is one the socket knows


def parse(text: str) -> Message | Refused:
    """The frame's message, typed, or why it is refused."""
    try:
        return _DECODER.decode(text)
    except msgspec.ValidationError as error:
        return _explain(text, str(error))
    except (msgspec.DecodeError, RecursionError):  # 4 KB of "[" nests deeper than allowed
        return _explain(text, None)


def _explain(text: str, error: str | None) -> Refused:
    """Why msgspec refused the frame, said in the words of docs/PROTOCOL.md. Refusals are
    rare, so reading the frame again (for its id and the values to quote) costs little."""
    try:
        content = json.loads(text)
    except (ValueError, RecursionError):
        return Refused("bad_message", NOT_JSON)
    if not isinstance(content, dict):
        return Refused("bad_message", NO_TYPE)
    request_id, kind = content.get("id"), content.get("type")
    if error is None:  # JSON to Python, not to msgspec: NaN, say
        return Refused("bad_message", NOT_JSON, id=request_id)
    if not isinstance(kind, str):
        return Refused("bad_message", NO_TYPE, id=request_id)
    schema = TYPES.get(kind)
    if schema is None:
        return Refused("unknown_type", UNKNOWN_TYPE, {"type": kind}, request_id)
    if error.endswith(" - at `$.id`"):  # a number past what JSON can hold: not repeated
        return Refused("bad_message", BAD_ID, type=kind)
    code, detail, params = _detail(schema, content, error)
    return Refused(code, detail, params, request_id, kind)


# msgspec's messages end with where the fault is ("... - at `$.rules.hints`") and name an
# unknown or missing field in backquotes.
_WHERE = re.compile(r" - at `\$((?:\.\w+|\[\d+\])*)`$")
_NAMED = re.compile(r"(unknown|missing required) field `([^`]*)`")


def _detail(schema: type[Message], content: dict, error: str) -> tuple[str, str, dict]:
    where = _WHERE.search(error)
    path = re.findall(r"\.(\w+)", where.group(1)) if where else []
    named = _NAMED.search(error)
    if named:  # the field itself is unknown or missing, at the path's end
        path.append(named.group(2))
    kind = schema.__struct_config__.tag
    if not path or (path[0] not in schema.refusals and named and named.group(1) == "unknown"):
        return "bad_message", UNKNOWN_FIELD, {"type": kind, "field": path[-1] if path else "?"}
    name, value = path[0], content.get(path[0])
    code, detail = schema.refusals.get(name, ("bad_message", UNKNOWN_FIELD))
    if schema is Rules and len(path) > 1 and isinstance(value, dict):
        rule = path[1]
        if rule not in RuleChanges.__struct_fields__:
            return code, UNKNOWN_RULE, {"rules": rule}
        return code, RULE_TYPE, {"rule": rule, "value": value.get(rule)}
    return code, detail, {"value": value, "most": MAX_INDEX, "type": kind, "field": name}


def rule_changes(changes) -> dict | Refused:
    """{rule: value} of a rules change given as a mapping (lobby's callers other than the
    socket), checked by the `rules` message's schema: the same refusals."""
    try:
        return msgspec.convert(changes, RuleChanges).changes()
    except msgspec.ValidationError as error:
        code, detail, params = _detail(Rules, {"rules": changes}, _under_rules(str(error)))
        return Refused(code, detail, params)


def _under_rules(error: str) -> str:
    """A convert error's path, as if the mapping were the `rules` field of a message."""
    if _WHERE.search(error):
        return error.replace(" - at `$", " - at `$.rules", 1)
    return f"{error} - at `$.rules`"
