"""The board's freeness rule in the browser (mahjong/static/mahjong/rules.js, run by Node)
says what the engine's says (mahjong/engine/layout.py): on the whole of every built-in
layout, on thousands of random positions of them, and on random layouts of odd shapes;
and its matching rule agrees with the engine's for every pair of faces. The page answers
a tap with its rule at once, the server with the engine's: they must never disagree."""

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from mahjong.engine import CATALOG, FACES, faces_match, layout_by_number, layout_from_positions
from mahjong.engine.layout import LayoutError, bits

NODE = shutil.which("node")
CLI = Path(__file__).resolve().parent.parent / "js" / "board_rules_cli.mjs"
RANDOM_POSITIONS = 80  # a layout: 43 layouts x 81 = 3,483 positions, plus the odd shapes

pytestmark = pytest.mark.skipif(NODE is None, reason="Node is needed (bin/test installs it)")


def js_rules(boards, faces=()):
    payload = json.dumps({"boards": boards, "faces": list(faces)})
    done = subprocess.run(
        [NODE, str(CLI)], input=payload, capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(done.stdout)


def board_of(layout, alive_masks):
    return {
        "tiles": [{"x": x, "y": y, "z": z} for x, y, z in layout.positions],
        "alive": [bits(mask) for mask in alive_masks],
    }


def random_masks(layout, rng, count):
    """Positions as play leaves them: some tiles gone, from none to nearly all."""
    n = len(layout)
    masks = []
    for _ in range(count):
        keep = rng.random()
        masks.append(sum(1 << i for i in range(n) if rng.random() < keep))
    return masks


def random_layout(rng):
    """A heap of tiles on up to 4 layers, placed at random on half-tile steps."""
    taken, positions = set(), []
    for _ in range(rng.randint(4, 60)):
        x, y, z = rng.randint(0, 14), rng.randint(0, 10), rng.choice([0, 0, 0, 1, 1, 2, 3])
        cells = {(x + dx, y + dy, z) for dx in (0, 1) for dy in (0, 1)}
        if cells & taken:
            continue
        taken |= cells
        positions.append((x, y, z))
    if len(positions) % 2:
        positions.pop()
    try:
        return layout_from_positions(positions)
    except LayoutError:
        return None


def assert_agree(layouts_and_masks):
    boards = [board_of(layout, masks) for layout, masks in layouts_and_masks]
    answer = js_rules(boards)["free"]
    checked = 0
    for (layout, masks), free_lists in zip(layouts_and_masks, answer, strict=True):
        for mask, js_free in zip(masks, free_lists, strict=True):
            assert js_free == bits(layout.free_mask(mask)), (layout.name, bits(mask))
            checked += 1
    return checked


def test_the_board_and_the_engine_agree_on_free_tiles_of_every_built_in_layout():
    rng = random.Random(30)
    cases = []
    for entry in CATALOG:
        layout = layout_by_number(entry.number)
        cases.append((layout, [layout.full, *random_masks(layout, rng, RANDOM_POSITIONS)]))
    checked = assert_agree(cases)
    assert len(cases) == len(CATALOG) and checked >= 3000


def test_the_board_and_the_engine_agree_on_free_tiles_of_random_shapes():
    rng = random.Random(4)
    cases = []
    while len(cases) < 200:
        layout = random_layout(rng)
        if layout is not None:
            cases.append((layout, [layout.full, *random_masks(layout, rng, 10)]))
    assert assert_agree(cases) == 200 * 11


def test_the_board_and_the_engine_agree_on_which_faces_match():
    matches = js_rules([], FACES)["matches"]
    for i, a in enumerate(FACES):
        for j, b in enumerate(FACES):
            assert matches[i][j] == faces_match(i, j), (a, b)
