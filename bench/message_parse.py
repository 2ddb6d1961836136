"""Benchmark: the cost of parsing one incoming socket message into a typed value, for the
two schema libraries considered for rooms/core/messages.py (docs/PROTOCOL.md §Client → server),
and for the hand checks they replace. Not a test.

    .venv/bin/pip install pydantic   # only for this comparison: the site does not use it
    .venv/bin/python bench/message_parse.py [--batches 3000]

Each library parses the same tagged union of the room socket's thirteen message types
(strict: no bool for a number, no unknown field), from the text of the frame, as the
consumer gets it. Cases: a valid pair (`move`) and a bad one (a tile that is a string).
A batch parses one message 100 times; per parse is the batch's CPU time (this thread's:
the other processes of a busy machine do not count) / 100, and the table shows the
median and p99 over the batches, in microseconds.
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Annotated, Any, Literal, Union

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PER_BATCH = 100
VALID = '{"type": "move", "tiles": [17, 42], "n": 12, "id": 31}'
BAD = '{"type": "move", "tiles": ["a", 42], "n": 12, "id": 31}'
TYPES_WITHOUT_FIELDS = ["snapshot", "hint", "shuffle", "give_up", "start", "offer", "ready"]


# --- msgspec ---------------------------------------------------------------------------
def msgspec_parser():
    Tile = Annotated[int, msgspec.Meta(ge=0, le=9999)]
    Count = Annotated[int, msgspec.Meta(ge=0, le=9999)]

    class Base(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
        id: Any = None

    class Move(Base, tag="move"):
        tiles: tuple[Tile, Tile]
        n: Count

    class Rules(Base, tag="rules"):
        rules: dict[str, int | str | bool]

    class AddCpu(Base, tag="add_cpu"):
        level: str

    class RemoveSeat(Base, tag="remove_seat"):
        seat: int

    class Public(Base, tag="public"):
        public: bool

    class Ping(Base, tag="ping"):
        t: Any = None

    bare = [msgspec.defstruct(name, [], bases=(Base,), tag=name) for name in TYPES_WITHOUT_FIELDS]
    union = Move | Rules | AddCpu | RemoveSeat | Public | Ping
    for struct in bare:
        union = union | struct
    decoder = msgspec.json.Decoder(union)

    def parse(text):
        try:
            return decoder.decode(text)
        except msgspec.ValidationError as refused:
            return refused

    return parse


# --- pydantic v2 -----------------------------------------------------------------------
def pydantic_parser():
    import pydantic
    from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model

    Tile = Annotated[int, Field(ge=0, le=9999)]

    class Base(BaseModel):
        model_config = ConfigDict(strict=True, extra="forbid")
        id: Any = None

    class Move(Base):
        type: Literal["move"]
        tiles: tuple[Tile, Tile]
        n: Tile

    class Rules(Base):
        type: Literal["rules"]
        rules: dict[str, int | str | bool]

    class AddCpu(Base):
        type: Literal["add_cpu"]
        level: str

    class RemoveSeat(Base):
        type: Literal["remove_seat"]
        seat: int

    class Public(Base):
        type: Literal["public"]
        public: bool

    class Ping(Base):
        type: Literal["ping"]
        t: Any = None

    bare = [
        create_model(name, __base__=Base, type=(Literal[name], ...))
        for name in TYPES_WITHOUT_FIELDS
    ]
    models = (Move, Rules, AddCpu, RemoveSeat, Public, Ping, *bare)
    adapter = TypeAdapter(Annotated[Union[models], Field(discriminator="type")])  # noqa: UP007

    def parse(text):
        try:
            return adapter.validate_json(text)
        except pydantic.ValidationError as refused:
            return refused

    return parse


# --- today's hand checks (rooms/consumers.py + rooms/race/actions.py before the schemas) -------
def hand_parser():
    def whole_number(value):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"must be a whole number, not {value!r}")
        return value

    def parse(text):
        try:
            content = json.loads(text)
            if not isinstance(content, dict) or not isinstance(content.get("type"), str):
                raise ValueError("a message is an object with a type")
            tiles, n = content.get("tiles"), content.get("n")
            if not isinstance(tiles, list) or len(tiles) != 2:
                raise ValueError("send the two tiles")
            i, j = (whole_number(t) for t in tiles)
            return content, min(i, j), max(i, j), whole_number(n)
        except ValueError as refused:
            return refused

    return parse


def per_parse_us(parse, text, batches) -> list[float]:
    for _ in range(1000):  # warm up
        parse(text)
    times = []
    for _ in range(batches):
        start = time.thread_time_ns()
        for _ in range(PER_BATCH):
            parse(text)
        times.append((time.thread_time_ns() - start) / PER_BATCH / 1000)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=3000)
    args = parser.parse_args()
    parsers = {"msgspec": msgspec_parser(), "hand checks": hand_parser()}
    try:
        import pydantic

        parsers["pydantic"] = pydantic_parser()
        versions = f"msgspec {msgspec.__version__}, pydantic {pydantic.VERSION}"
    except ImportError:
        versions = f"msgspec {msgspec.__version__} (pydantic not installed)"
    try:
        from rooms.core import messages

        parsers["rooms.core.messages.parse"] = messages.parse
    except ImportError:
        pass
    print(f"# CPU per parse, µs ({args.batches} batches of {PER_BATCH}; {versions};")
    print(f"# Python {sys.version.split()[0]})")
    print(f"| parser | case | median | p99 |\n|{'---|' * 4}")
    # Interleaved: each round times every parser once, so load on the machine hits all.
    results = {(name, case): [] for name in parsers for case in ("valid pair", "bad pair")}
    rounds = 5
    for _ in range(rounds):
        for name, parse in parsers.items():
            for case, text in (("valid pair", VALID), ("bad pair", BAD)):
                results[name, case] += per_parse_us(parse, text, args.batches // rounds)
    for (name, case), times in results.items():
        times.sort()
        p99 = times[int(len(times) * 0.99)]
        print(f"| {name} | {case} | {statistics.median(times):.2f} | {p99:.2f} |")


if __name__ == "__main__":
    main()
