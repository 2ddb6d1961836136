from mahjong.engine import IllegalMove, Position, face_id, layout_by_number, layout_from_positions
from tests.engine.engine_helpers import small_layout


def position_of(layout, labels):
    return Position.start(layout, [face_id(label) for label in labels])


def test_a_row_has_free_ends_only():
    row = small_layout("12121212\n43434343")
    assert row.free_mask(row.full) == 0b1001


def test_a_tile_covered_by_half_a_tile_is_not_free():
    layout = small_layout("12121212\n43434343", "..1212..\n..4343..")
    # Layer 1 tiles cover (2,0) and (4,0) completely... and the ends stay free.
    free = layout.free_mask(layout.full)
    assert free >> 0 & 1 and free >> 3 & 1
    assert not free >> 1 & 1 and not free >> 2 & 1


def test_a_tile_under_a_bridge_on_a_higher_layer_is_not_free():
    # Tile 0 on layer 0; a tile on layer 2 overlaps it with nothing between them.
    layout = layout_from_positions([(0, 0, 0), (1, 1, 2)])
    assert layout.covers[0] == 0b10
    assert not layout.is_free(0, layout.full)


def test_top_and_bottom_neighbours_never_block():
    places = [(0, 0, 0), (0, 2, 0), (0, 4, 0), (2, 2, 0), (-2, 2, 0), (10, 10, 0)]
    layout = layout_from_positions(places)
    assert layout.free_mask(layout.full) == 0b111101  # only the middle of the cross is held
    assert layout.left[1] == 0b10000 and layout.right[1] == 0b1000
    assert layout.left[0] == layout.right[0] == 0


def test_why_blocked_names_covering_tiles_and_closed_sides():
    layout = layout_by_number(0)
    position = Position.start(layout, [0] * 144)
    top = len(layout) - 1  # the single tile of layer 4
    under = [i for i in range(144) if layout.covers[i] >> top & 1]
    why = position.why_blocked(under[0])
    assert top in why.covered_by and "covered by" in why.describe()
    assert position.why_blocked(top) is None
    middle = layout.positions.index((13, 0, 0))
    why = position.why_blocked(middle)
    assert why.both_sides and why.covered_by == () and why.describe() == "blocked on both sides"


def test_it_rejects_a_blocked_tile():
    row = small_layout("12121212\n43434343")
    position = position_of(row, ["1B", "1B", "1B", "1B"])
    ok, reason = position.can_remove(0, 1)
    assert not ok and "not free" in reason and "both sides" in reason
    try:
        position.remove(0, 1)
    except IllegalMove as exc:
        assert "tile 1" in str(exc)
    else:
        raise AssertionError("a blocked tile was removed")
