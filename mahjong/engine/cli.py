"""`python -m mahjong.engine`: the engine on the command line (see docs/ENGINE.md).

JSON in on stdin, JSON out on stdout; bad input exits 2 with a one-line message on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys

from .catalog import load_layout
from .codes import SEED_LIMIT, random_seed
from .deal import NoSolvableDeal, deal_from_code, new_deal, random_faces
from .hint import DEFAULT_TIME_LIMIT as HINT_TIME_LIMIT
from .hint import hint
from .layout import Layout, LayoutError, layout_from_positions
from .position import Position
from .shuffle import ShuffleError, shuffle
from .solver import solve
from .tiles import FACES, face_id


class CliError(Exception):
    """Bad input: reported as one line on stderr, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, not argparse's usage block
        raise CliError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m mahjong.engine", description="Mahjong solitaire engine")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    deal = sub.add_parser("deal", help="a solvable deal, from a code or a layout")
    source = deal.add_mutually_exclusive_group(required=True)
    source.add_argument("--code")
    source.add_argument("--layout")
    deal.add_argument("--flowers", action="store_true")
    deal.add_argument("--seed", type=_seed)
    rnd = sub.add_parser("random", help="a layout filled at random (may be unsolvable)")
    rnd.add_argument("--layout", required=True)
    rnd.add_argument("--flowers", action="store_true")
    rnd.add_argument("--seed", type=_seed, required=True)
    for name in ("solve", "hint"):
        cmd = sub.add_parser(name, help=f"{name} the position read from stdin")
        cmd.add_argument("--limit", type=_seconds, default=None)
    sub.add_parser("free", help="the free tiles of the position read from stdin")
    shuf = sub.add_parser("shuffle", help="a solvable rearrangement of a blocked position")
    shuf.add_argument("--seed", type=_seed, required=True)
    return parser


def _seed(text: str) -> int:
    if not text.isdigit() or int(text) >= SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"seed must be an integer from 0 to {SEED_LIMIT - 1}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError("--limit needs a positive number of seconds")
    return value


def tiles_json(layout: Layout, faces, alive: int | None = None) -> list[dict]:
    return [
        {"x": x, "y": y, "z": z, "face": FACES[faces[i]]}
        for i, (x, y, z) in enumerate(layout.positions)
        if alive is None or alive >> i & 1
    ]


def read_position(text: str) -> Position:
    """A position from its JSON: every listed tile is on the table."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"bad JSON on stdin: {exc.msg} at line {exc.lineno}") from None
    tiles = doc.get("tiles") if isinstance(doc, dict) else None
    if not isinstance(tiles, list) or not tiles:
        raise CliError('expected {"tiles": [{"x":…, "y":…, "z":…, "face":…}, …]} on stdin')
    places, faces = [], []
    for k, tile in enumerate(tiles):
        if not isinstance(tile, dict):
            raise CliError(f"tile {k} is not an object")
        coords = [tile.get(key) for key in ("x", "y", "z")]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in coords):
            raise CliError(f"tile {k} needs integer x, y and z")
        if coords[2] < 0:
            raise CliError(f"tile {k} has a negative z")
        try:
            faces.append(face_id(tile.get("face")))
        except (ValueError, TypeError):
            raise CliError(f"tile {k} has an unknown face {tile.get('face')!r}") from None
        places.append(tuple(coords))
    try:
        layout = layout_from_positions(places)
    except LayoutError as exc:
        raise CliError(f"impossible position: {exc}") from None
    return Position.start(layout, faces)


def run(argv: list[str], stdin) -> dict:
    args = build_parser().parse_args(argv)
    if args.command == "deal":
        if args.code:
            if args.seed is not None or args.flowers:
                raise CliError("--code already names the layout and seed")
            deal = deal_from_code(args.code)
        else:
            layout = load_layout(args.layout, args.flowers)
            deal = new_deal(layout, args.seed if args.seed is not None else random_seed())
        return {
            "code": deal.code,
            "layout": deal.layout.name,
            "tiles": tiles_json(deal.layout, deal.faces),
            "plan": [list(p) for p in deal.plan],
        }
    if args.command == "random":
        layout = load_layout(args.layout, args.flowers)
        return {"layout": layout.name, "tiles": tiles_json(layout, random_faces(layout, args.seed))}
    position = read_position(stdin.read())
    if args.command == "free":
        return {"free": position.free_tiles()}
    if args.command == "solve":
        result = solve(position.layout, position.faces, position.alive, args.limit)
        plan = None if result.plan is None else [list(p) for p in result.plan]
        return {
            "solvable": result.solvable,
            "plan": plan,
            "nodes": result.nodes,
            "seconds": round(result.seconds, 6),
        }
    if args.command == "hint":
        found = hint(position, args.limit if args.limit is not None else HINT_TIME_LIMIT)
        return {"pair": None if found.pair is None else list(found.pair), "winning": found.winning}
    shuffled = shuffle(position, args.seed)
    return {
        "tiles": tiles_json(shuffled.position.layout, shuffled.position.faces),
        "plan": [list(p) for p in shuffled.plan],
    }


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        out = run(argv, sys.stdin)
    except (CliError, LayoutError, NoSolvableDeal, ShuffleError, ValueError) as exc:
        message = " ".join(str(exc).split()) or type(exc).__name__
        print(f"error: {message}", file=sys.stderr)
        return 2
    json.dump(out, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0
