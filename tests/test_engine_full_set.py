"""Which faces a layout that is no race level deals (docs/LAYOUTS.md §Faces)."""

from collections import Counter

from engine_helpers import assert_plan_wins

from mahjong.engine import layout_from_positions, load_layout, new_deal, parse_layout
from mahjong.engine.catalog import LAYOUT_DIR
from mahjong.engine.layout import layout_to_text


def _row_layout(pairs_of_tiles: int, name: str):
    """A flat block of tiles, 12 to a row, `2 * pairs_of_tiles` in all."""
    places = [(2 * (k % 12), 2 * (k // 12), 0) for k in range(2 * pairs_of_tiles)]
    return layout_from_positions(places, name)


def test_a_144_tile_kmahjongg_file_deals_the_full_set(tmp_path):
    # The turtle's positions written as a plain KMahjongg v1.0-style file of our own:
    # not the built-in entry, so its 144 places alone decide the flowers.
    path = tmp_path / "my-turtle.layout"
    path.write_text(layout_to_text(parse_layout((LAYOUT_DIR / "turtle.layout").read_text())))
    layout = load_layout(str(path))
    assert len(layout) == 144 and layout.flowers
    for seed in range(5):
        deal = new_deal(layout, seed)
        counts = Counter(deal.faces)
        assert [counts[face] for face in range(34)] == [4] * 34
        assert sorted(face for face in deal.faces if face >= 34) == list(range(34, 42))
        assert_plan_wins(layout, deal.faces, deal.plan)


def test_a_smaller_file_deals_regular_faces_in_pairs():
    layout = _row_layout(60, "flat-120")
    assert not layout.flowers
    counts = Counter(new_deal(layout, 3).faces)
    assert max(counts) < 34 and set(counts.values()) <= {2, 4}


def test_past_144_faces_are_reused_in_whole_pairs_spread_over_many_faces():
    layout = _row_layout(90, "flat-180")  # 36 tiles past a full set
    assert layout.flowers
    for seed in range(10):
        counts = Counter(new_deal(layout, seed).faces)
        regular = [counts[face] for face in range(34)]
        assert all(n in (4, 6) for n in regular)  # 18 extra pairs on 18 different faces
        assert regular.count(6) == 18
        assert sorted(face for face in counts if face >= 34) == list(range(34, 42))


def test_far_past_a_full_set_no_face_gets_two_extra_pairs_before_all_got_one():
    layout = _row_layout(120, "flat-240")  # 4 bonus + 68 + 34 + 14 pairs
    counts = Counter(new_deal(layout, 1).faces)
    regular = sorted(counts[face] for face in range(34))
    assert regular == [6] * 20 + [8] * 14
