from collections import Counter

from mahjong.engine import FACES, face_id, faces_match, full_set


def test_the_set_has_144_tiles_of_42_faces():
    tiles = full_set()
    assert len(tiles) == 144
    assert len(FACES) == 42
    counts = Counter(FACES[f] for f in tiles)
    assert counts["5B"] == counts["Wh"] == counts["N"] == 4
    assert counts["F1"] == counts["S4"] == 1


def test_labels_are_those_the_rules_list():
    """The "Numbers" labels of docs/RULES.md §Tiles."""
    for label in ["1B", "9B", "1C", "9C", "1D", "9D", "N", "S", "E", "W", "R", "G", "Wh"]:
        assert label in FACES
    assert [f"F{i}" in FACES and f"S{i}" in FACES for i in range(1, 5)] == [True] * 4


def test_flowers_match_flowers_and_seasons_match_seasons():
    assert faces_match(face_id("F1"), face_id("F4"))
    assert faces_match(face_id("S2"), face_id("S3"))
    assert not faces_match(face_id("F1"), face_id("S1"))
    assert faces_match(face_id("5B"), face_id("5B"))
    assert not faces_match(face_id("5B"), face_id("5C"))


def test_it_rejects_an_unknown_face():
    try:
        face_id("10B")
    except ValueError as exc:
        assert "10B" in str(exc)
    else:
        raise AssertionError("no error")
