import pytest

from mahjong.engine import (
    CATALOG,
    LayoutError,
    layout_by_number,
    level_layout,
    parse_layout,
    parse_layout_report,
    read_layout,
)
from mahjong.engine.catalog import LAYOUT_DIR
from mahjong.engine.layout import layout_to_text
from tests.engine.engine_helpers import layout_text, small_layout

# Golden: free tiles at the start of every built-in layout (the turtle's 35 is in
# docs/RULES.md §Layouts and levels).
FREE_AT_START = {
    "turtle": 35,
    "beginner": 14,
    "easy": 24,
    "medium": 22,
    "hard": 31,
    "beginner-flowers": 14,
    "easy-flowers": 20,
    "medium-flowers": 20,
}
TILES = {"beginner": 34, "easy": 68, "medium": 94, "hard": 136}


def test_free_tile_counts_at_the_start_are_pinned():
    for entry in (e for e in CATALOG if e.level):
        layout = layout_by_number(entry.number)
        assert layout.free_mask(layout.full).bit_count() == FREE_AT_START[entry.name]


def test_levels_have_the_spec_tile_counts_and_flowers_add_eight():
    for level, count in TILES.items():
        plain, with_flowers = level_layout(level), level_layout(level, flowers=True)
        assert len(plain) == count
        assert len(with_flowers) == count + 8
        assert set(plain.positions) <= set(with_flowers.positions)
    assert level_layout("hard", flowers=True).name == "turtle"


def test_more_layers_as_the_level_rises():
    depth = [max(z for *_, z in layout_by_number(n).positions) + 1 for n in (1, 2, 3, 4)]
    assert depth == sorted(depth) and len(set(depth)) == 4


def test_the_turtle_has_144_tiles():
    turtle = layout_by_number(0)
    assert len(turtle) == 144 and turtle.flowers and turtle.name == "turtle"


def test_it_reads_the_v10_format_with_its_fixed_size():
    grid = ["." * 32 for _ in range(16 * 5)]
    grid[0] = "1212" + "." * 28
    grid[1] = "4343" + "." * 28
    text = "kmahjongg-layout-v1.0\n# a comment\n" + "\n".join(grid) + "\n"
    layout = parse_layout(text)
    assert layout.positions == ((0, 0, 0), (2, 0, 0))


def test_built_in_files_round_trip_through_the_writer():
    for path in LAYOUT_DIR.glob("*.layout"):
        layout = read_layout(path)
        assert parse_layout(layout_to_text(layout)).positions == layout.positions


def test_tiles_on_upper_layers_may_straddle_two_below():
    layout = small_layout("12121212\n43434343", ".1212...\n.4343...")
    assert layout.positions == ((0, 0, 0), (2, 0, 0), (4, 0, 0), (6, 0, 0), (1, 0, 1), (3, 0, 1))


BROKEN = [
    ("odd tile count", layout_text("12..\n43.."), "odd tile count"),
    ("unknown character", layout_text("12x.\n43.."), "line 5: unknown character 'x'"),
    ("one tile and stray cells", layout_text("1243\n43.."), "odd tile count: 1 tiles"),
    ("overlap", layout_text("1121\n4343"), "line 5: overlapping tiles"),
    ("overlap below", layout_text("12..\n12..\n43.."), "line 6: overlapping tiles"),
    ("overlap askew", layout_text(".12.\n1212\n43.."), "line 6: overlapping tiles"),
    ("past the edge", layout_text("12.1\n43.."), "line 5: bad size: the tile at column 4"),
    ("short row", "kmahjongg-layout-v1.1\nw4\nh2\nd1\n121\n434\n", "line 5: bad size"),
    ("bad number", "kmahjongg-layout-v1.1\nwide\nh2\nd1\n1212\n4343\n", "line 2: bad size"),
    ("missing size", "kmahjongg-layout-v1.1\nw4\nd1\n1212\n4343\n", "bad size: missing the h"),
    ("too many rows", layout_text("1212\n4343") + "....\n....\n", "line 7: bad size"),
    ("wrong magic", "kmahjongg-layout-v9\n", "line 1: not a KMahjongg layout"),
    ("empty", layout_text("....\n...."), "no tiles"),
]


@pytest.mark.parametrize(("case", "text", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_it_rejects_a_malformed_file_naming_the_line_and_fault(case, text, message):
    with pytest.raises(LayoutError) as info:
        parse_layout(text)
    assert message in str(info.value), case


def test_a_missing_file_is_a_layout_error(tmp_path):
    with pytest.raises(LayoutError, match="cannot read"):
        read_layout(tmp_path / "nope.layout")


# KMahjongg takes each '1' as a tile's top-left cell and never looks at the other three
# cells; some of its own files (castle, crab) have blocks like the second one here, where
# a '2' stands where the '3' belongs. They load, and the oddity is reported with its line.
STRAY_TWO = layout_text("12121212\n43424343")


def test_a_tile_whose_block_has_a_stray_2_where_a_3_belongs_loads_with_a_warning():
    layout, warnings = parse_layout_report(STRAY_TWO)
    assert layout.positions == ((0, 0, 0), (2, 0, 0), (4, 0, 0), (6, 0, 0))
    assert [(w.line, w.message) for w in warnings] == [
        (
            6,
            "the tile at column 3 has '2' at column 4 where '3' belongs; read as a whole "
            "tile, as KMahjongg does",
        )
    ]
    assert str(warnings[0]).startswith("line 6: ")
    assert parse_layout(STRAY_TWO).positions == layout.positions


def test_cells_of_no_tile_and_missing_cells_are_warnings_not_errors():
    text = layout_text("12.1...2\n4..3....", "1212....\n4343....")
    layout, warnings = parse_layout_report(text)
    assert layout.positions == ((0, 0, 0), (3, 0, 0), (0, 0, 1), (2, 0, 1))
    lines = [w.line for w in warnings]
    assert lines == sorted(lines) and set(lines) <= {5, 6}
    messages = " / ".join(w.message for w in warnings)
    assert "'.' at column 5 where '2' belongs" in messages
    assert "'2' at column 8 belongs to no tile; ignored" in messages


def test_a_clean_file_has_no_warnings():
    for path in LAYOUT_DIR.glob("*.layout"):
        assert parse_layout_report(path.read_text())[1] == [], path.name


def test_a_lenient_read_still_refuses_overlaps_and_odd_counts_with_their_line():
    with pytest.raises(LayoutError, match="^line 6: overlapping tiles"):
        parse_layout(layout_text("12121...\n43412..."))
    with pytest.raises(
        LayoutError, match="^line 5: odd tile count: 3 tiles .* column 5 of layer 1"
    ):
        parse_layout(layout_text("121212..\n434243.."))
