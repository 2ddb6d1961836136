"""The two tile sprites (docs/TILES.md): every face of the game in both, nothing else, and
the files are what tools/make_tiles.py draws (nobody edited them by hand)."""

import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from mahjong.engine.tiles import FACES

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "mahjong" / "static" / "mahjong"
SVG = "{http://www.w3.org/2000/svg}"
SETS = ["tiles.svg", "tiles-clear.svg"]


def symbols(name: str) -> dict:
    tree = ElementTree.parse(STATIC / name)
    return {
        el.get("id"): el for el in tree.iter(f"{SVG}symbol") if el.get("id", "").startswith("tile-")
    }


@pytest.mark.parametrize("name", SETS)
def test_every_face_of_the_game_is_in_the_sprite(name):
    found = symbols(name)
    assert sorted(found) == sorted(f"tile-{face}" for face in FACES)
    for symbol in found.values():
        assert symbol.get("viewBox") == "0 0 60 80"
        assert len(symbol) > 0  # something is drawn


@pytest.mark.parametrize("name", SETS)
def test_every_shared_part_a_face_uses_is_in_the_sprite(name):
    tree = ElementTree.parse(STATIC / name)
    ids = {el.get("id") for el in tree.iter() if el.get("id")}
    refs = {
        el.get("href")[1:] for el in tree.iter(f"{SVG}use") if el.get("href", "").startswith("#")
    }
    assert refs and refs <= ids, refs - ids


def test_the_clear_sprite_stays_small():
    # The classic sprite's budget is 40 KB (docs/TILES.md §Size); Clear is simpler art.
    assert (STATIC / "tiles-clear.svg").stat().st_size < 20_000


def test_the_sprites_are_what_the_generator_draws(tmp_path):
    copy = tmp_path / "tools"
    copy.mkdir()
    for script in ("make_tiles.py", "make_tiles_clear.py", "tile_glyphs.py"):
        (copy / script).write_text((ROOT / "tools" / script).read_text())
    out = tmp_path / "mahjong" / "static" / "mahjong"
    out.mkdir(parents=True)
    subprocess.run([sys.executable, str(copy / "make_tiles.py")], check=True, capture_output=True)
    for name in [*SETS, "tiles-preview.html"]:
        assert (out / name).read_bytes() == (STATIC / name).read_bytes(), name
