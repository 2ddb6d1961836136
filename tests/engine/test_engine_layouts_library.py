"""The layout library (docs/LAYOUTS.md): every built-in layout reads, deals solvable, has
names in both languages and a measured difficulty, and draws its preview; pinned codes
keep the library's deals from ever changing."""

import importlib.util
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mahjong.engine import (
    CATALOG,
    FACES,
    deal_from_code,
    flowers_by_count,
    layout_by_number,
    new_deal,
    parse_layout_report,
)
from mahjong.engine.catalog import DIFFICULTY_BANDS, LAYOUT_DIR, LEVELS
from mahjong.layout_preview import preview_svg
from tests.engine.engine_helpers import assert_plan_wins

GOLDEN = json.loads(
    (Path(__file__).parent / "data" / "engine_golden_library_codes.json").read_text()
)
LIBRARY = [entry for entry in CATALOG if not entry.level]
TOOL = Path(__file__).resolve().parents[2] / "tools" / "make_layouts.py"
LABELS = {label for _upper, label in DIFFICULTY_BANDS}
SVG = "{http://www.w3.org/2000/svg}"


def test_the_library_has_thirty_layouts_of_every_size_from_34_tiles_past_144():
    assert len(LIBRARY) >= 30
    sizes = [entry.tiles for entry in LIBRARY]
    assert min(sizes) == 34 and max(sizes) > 144
    assert any(size == 144 for size in sizes)
    assert sum(size > 144 for size in sizes) >= 3
    assert all(20 <= entry.number <= 99 for entry in LIBRARY)


def test_numbers_and_names_are_unique_and_the_race_levels_keep_theirs():
    assert len({e.number for e in CATALOG}) == len(CATALOG)
    assert len({e.name for e in CATALOG}) == len(CATALOG)
    levels = {e.number: (e.name, e.level) for e in CATALOG if e.level}
    assert levels == {
        0: ("turtle", "hard"),
        1: ("beginner", "beginner"),
        2: ("easy", "easy"),
        3: ("medium", "medium"),
        4: ("hard", "hard"),
        11: ("beginner-flowers", "beginner"),
        12: ("easy-flowers", "easy"),
        13: ("medium-flowers", "medium"),
    }


@pytest.mark.parametrize("entry", CATALOG, ids=[e.name for e in CATALOG])
def test_every_built_in_layout_reads_cleanly_with_its_catalogue_facts(entry):
    text = (LAYOUT_DIR / f"{entry.name}.layout").read_text()
    layout, warnings = parse_layout_report(text, entry.name)
    assert warnings == []
    assert len(layout) == entry.tiles
    assert layout_by_number(entry.number).positions == layout.positions
    if not entry.level:
        assert entry.flowers == flowers_by_count(entry.tiles)
    assert entry.title_en and entry.title_es
    assert entry.title("es") == entry.title_es and entry.title("en") == entry.title_en
    assert entry.difficulty in LABELS and set(LEVELS) == LABELS


@pytest.mark.parametrize("entry", CATALOG, ids=[e.name for e in CATALOG])
def test_every_built_in_layout_deals_solvable_for_fifty_seeds(entry):
    layout = layout_by_number(entry.number)
    for seed in range(50):
        deal = new_deal(layout, seed)
        assert_plan_wins(layout, deal.faces, deal.plan)
        bonus = sum(face >= 34 for face in deal.faces)
        assert bonus == (8 if entry.flowers else 0)


@pytest.mark.parametrize("entry", CATALOG, ids=[e.name for e in CATALOG])
def test_every_built_in_layout_draws_its_preview_as_svg(entry):
    root = ET.fromstring(preview_svg(entry.number))
    assert root.tag == f"{SVG}svg"
    width, height = (float(v) for v in root.get("viewBox").split()[2:])
    assert 0 < width < 400 and 0 < height < 400
    layers = max(z for *_, z in layout_by_number(entry.number).positions) + 1
    paths = root.findall(f"{SVG}path")
    assert len(paths) == 2 * layers  # sides and faces per layer
    tiles = sum(p.get("d").count("M") for p in paths[1::2])
    assert tiles == entry.tiles


@pytest.mark.parametrize("code", sorted(GOLDEN))
def test_a_pinned_library_code_gives_exactly_its_deal(code):
    deal = deal_from_code(code)
    assert " ".join(FACES[f] for f in deal.faces) == GOLDEN[code]["faces"]
    assert [list(p) for p in deal.plan] == GOLDEN[code]["plan"]


def test_the_drawing_script_still_draws_every_shipped_library_file(monkeypatch):
    spec = importlib.util.spec_from_file_location("make_layouts", TOOL)
    tool = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "make_layouts", tool)  # dataclasses look it up
    spec.loader.exec_module(tool)
    assert [d.number for d in tool.DESIGNS] == [e.number for e in LIBRARY]
    for design, entry in zip(tool.DESIGNS, LIBRARY, strict=True):
        assert (design.name, design.title_en, design.title_es) == (
            entry.name,
            entry.title_en,
            entry.title_es,
        )
        assert tool._layout(design).positions == layout_by_number(entry.number).positions


def test_library_layouts_stay_within_20_by_11_tiles_so_phone_boards_stay_readable():
    # At 20 tiles across a 390 px phone and 11 down in 844x390 landscape the board still
    # draws tiles 18 px wide (tests/browser/test_board_fit.py measures it in the browser).
    for entry in LIBRARY:
        places = layout_by_number(entry.number).positions
        across = (max(x for x, _y, _z in places) - min(x for x, _y, _z in places) + 2) / 2
        down = (max(y for _x, y, _z in places) - min(y for _x, y, _z in places) + 2) / 2
        assert across <= 20 and down <= 11, entry.name
