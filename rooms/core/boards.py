"""A seat's board in a race, between the database row and the engine's Position."""

from mahjong.deals import deal_for
from mahjong.engine.layout import bits, layout_from_positions
from mahjong.engine.position import Position
from mahjong.engine.tiles import FACES
from rooms.models import Entry


def position_of(entry: Entry) -> Position:
    layout = deal_for(entry.code).layout
    if entry.positions is not None:
        layout = layout_from_positions([tuple(p) for p in entry.positions], name=layout.name)
    return Position(layout, tuple(entry.faces), int(entry.alive, 16))


def store_position(entry: Entry, position: Position) -> None:
    entry.faces = list(position.faces)
    entry.alive = format(position.alive, "x")


def board_json(entry: Entry, with_faces: bool) -> dict:
    """The tiles as the browser draws them; faces only once the race has gone."""
    position = position_of(entry)
    tiles = []
    for index, (x, y, z) in enumerate(position.layout.positions):
        tile = {"x": x, "y": y, "z": z}
        if with_faces:
            tile["face"] = FACES[position.faces[index]]
        tiles.append(tile)
    return {"tiles": tiles, "alive": bits(position.alive)}


def has_raced(player, code: str) -> bool:
    """Whether the player had a board of this deal in a race (mahjong.sightings)."""
    return Entry.objects.filter(seat__player=player, code=code).exists()
