"""A board as a client receives it (the JSON of `rooms.core.boards.board_json`) back into an
engine Position: what a player's program can work out from what the server sent after
"go", and nothing more. The load generators here and the tests that play as a client
would (the cheating audit, the fault drills) play with it.

Imports only the engine, so it runs outside Django.
"""

from mahjong.engine.layout import layout_from_positions
from mahjong.engine.position import Position
from mahjong.engine.tiles import face_id


def position_from_json(board: dict) -> Position:
    layout = layout_from_positions([(t["x"], t["y"], t["z"]) for t in board["tiles"]])
    faces = tuple(face_id(t["face"]) for t in board["tiles"])
    alive = sum(1 << i for i in board["alive"])
    return Position(layout, faces, alive)


def a_legal_pair(position: Position) -> tuple[int, int] | None:
    """Any pair the engine allows now (not a planned one: a human's eye, not a solver)."""
    pairs = position.playable_pairs()
    return pairs[0] if pairs else None
