"""Which faces a layout that is no race level deals (docs/LAYOUTS.md §Faces)."""

import hashlib
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong.engine import (
    CodeError,
    deal_from_code,
    layout_from_positions,
    load_layout,
    new_deal,
    parse_any_code,
    parse_layout,
    stored_deal,
)
from mahjong.engine.catalog import LAYOUT_DIR
from mahjong.engine.deal import draw_pair_faces
from mahjong.engine.layout import flowers_by_count, layout_to_text
from mahjong.engine.prng import Prng
from mahjong.engine.tiles import faces_match
from tests.engine.engine_helpers import assert_plan_wins


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


# --- under a full set: the real set, never a face six times ------------------------------

TURTLE = parse_layout((LAYOUT_DIR / "turtle.layout").read_text(), "turtle")


def _turtle_less(drop: int):
    """The turtle without its `drop` highest places: a KMahjongg-like file of 144 - drop."""
    return layout_from_positions(list(TURTLE.positions[:-drop]), f"turtle-{144 - drop}")


def _assert_a_real_pairing_set(pairs, tiles):
    faces = Counter(face for pair in pairs for face in pair)
    assert sum(faces.values()) == tiles
    assert all(faces_match(a, b) for a, b in pairs)
    assert max(faces.values()) <= 4, faces.most_common(3)
    assert all(faces[bonus] <= 1 for bonus in range(34, 42))  # flowers and seasons: once


@settings(max_examples=300, deadline=None, database=None)
@given(pairs=st.integers(1, 72), seed=st.integers(0, 2**63 - 1), asked=st.booleans())
def test_up_to_a_full_set_no_face_comes_more_than_four_times(pairs, seed, asked):
    flowers = flowers_by_count(2 * pairs) or (asked and pairs >= 4)
    drawn = draw_pair_faces(pairs, flowers, Prng(seed))
    _assert_a_real_pairing_set(drawn, 2 * pairs)
    faces = Counter(face for pair in drawn for face in pair)
    regular = sum(n for face, n in faces.items() if face < 34)
    # Regular faces first: flowers and seasons only when asked for or past 136 tiles.
    assert regular == (2 * pairs - 8 if flowers else min(2 * pairs, 136))


@pytest.mark.parametrize("drop", [2, 4, 6])
def test_a_138_to_142_tile_file_deals_every_regular_tile_once_then_flowers_and_seasons(drop):
    layout = _turtle_less(drop)
    assert not layout.flowers
    for seed in range(4):
        deal = new_deal(layout, seed)
        counts = Counter(deal.faces)
        assert [counts[face] for face in range(34)] == [4] * 34
        flowers = [face for face in deal.faces if 34 <= face < 38]
        seasons = [face for face in deal.faces if face >= 38]
        assert len(set(flowers)) == len(flowers) == min(4, 8 - drop)  # flowers first
        assert len(set(seasons)) == len(seasons) == max(0, 4 - drop)
        assert_plan_wins(layout, deal.faces, deal.plan)


@pytest.mark.parametrize("drop", [2, 4, 6])
def test_a_new_code_on_a_stored_138_to_142_layout_is_mj2_and_deals_the_real_set(drop):
    layout = _turtle_less(drop)
    deal = stored_deal(layout, 9, 37)
    assert deal.code == "MJ2-U9-AAAAABL"
    assert max(Counter(deal.faces).values()) == 4
    assert deal_from_code(deal.code, lambda _id: layout).faces == deal.faces
    assert_plan_wins(deal.layout, deal.faces, deal.plan)


# MJ1 codes on such layouts were dealt before MJ2 existed (faces drawn from regular faces
# only): games and replays made then must keep their boards (docs/ENGINE.md §Game codes).
# Digests of (faces, plan) of MJ1-U9-AAAAABL, computed with the engine before the change.
MJ1_DIGESTS = {2: "fb68ccd208c6b8b7", 4: "fc2b814b10ae6e33", 6: "e101b1d9f01c4013"}


@pytest.mark.parametrize("drop", sorted(MJ1_DIGESTS))
def test_an_old_mj1_code_on_a_stored_138_to_142_layout_keeps_its_deal(drop):
    layout = _turtle_less(drop)
    deal = deal_from_code("MJ1-U9-AAAAABL", lambda _id: layout)
    digest = hashlib.sha256(repr((deal.faces, deal.plan)).encode()).hexdigest()[:16]
    assert digest == MJ1_DIGESTS[drop]
    assert deal.code == "MJ1-U9-AAAAABL"
    assert_plan_wins(deal.layout, deal.faces, deal.plan)


def test_mj2_names_stored_layouts_only():
    assert parse_any_code("mj2-u9-aaaaabl") == ("U", 9, 37)
    with pytest.raises(CodeError, match="unknown game code version MJ2"):
        parse_any_code("MJ2-L00-AAAAABL")
