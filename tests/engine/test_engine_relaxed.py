"""The relaxed-game dead-end test: its bit-parallel grid form must agree with the plain
per-tile form (and with the layout's own free test), and a failing pass must be a proof:
brute force finds no win from such a position."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong.engine import (
    Position,
    Solver,
    face_id,
    full_set,
    layout_by_number,
    layout_from_positions,
)
from mahjong.engine.layout import bits
from mahjong.engine.relaxed import Relaxed
from mahjong.engine.tiles import match_class
from tests.engine.test_engine_solver_oracle import brute_force_solvable, small_positions


def relaxed_for(layout, faces) -> Relaxed:
    by_class: dict[int, int] = {}
    for i, face in enumerate(faces):
        by_class[match_class(face)] = by_class.get(match_class(face), 0) | 1 << i
    return Relaxed(layout, tuple(by_class[match_class(f)] for f in faces))


def random_play(layout, rng, steps) -> int:
    """Remove `steps` random free tiles one by one (any parity: only freeness matters)."""
    alive = layout.full
    for _ in range(steps):
        free = bits(layout.free_mask(alive))
        if not free:
            break
        alive &= ~(1 << rng.choice(free))
    return alive


@settings(max_examples=60, deadline=None)
@given(number=st.sampled_from([0, 1, 2, 3, 4, 11, 12, 13]), seed=st.integers(0, 10**6))
def test_grid_and_tile_forms_agree_on_built_in_layouts(number, seed):
    layout = layout_by_number(number)
    rng = random.Random(seed)
    faces = (full_set() * 2)[: len(layout)]
    rng.shuffle(faces)
    relaxed = relaxed_for(layout, faces)
    assert relaxed.grid is not None
    alive = random_play(layout, rng, rng.randrange(len(layout)))
    free = layout.free_mask(alive)
    cells = relaxed.cells(alive)
    assert relaxed.grid.free(cells) == relaxed.cells(free)
    assert relaxed.grid.greedy(cells, cells) == relaxed._greedy(alive, free, alive)
    for pair in (m for m in set(relaxed.class_of_tile) if (m & alive).bit_count() == 2):
        goal = relaxed.cells(pair & alive)
        want = relaxed._greedy(alive, free, pair & alive)
        assert relaxed.grid.greedy(cells, goal) == want


@settings(max_examples=300, deadline=None)
@given(position=small_positions())
def test_a_failing_pass_proves_the_position_dead(position):
    relaxed = relaxed_for(position.layout, position.faces)
    cells = relaxed.cells(position.alive)
    free = position.layout.free_mask(position.alive)
    verdict = relaxed.passes(position.alive, free)
    assert verdict == relaxed._greedy(position.alive, free, position.alive)
    if relaxed.grid is not None:
        assert relaxed.grid.greedy(cells, cells) == verdict
    if not verdict:
        assert not brute_force_solvable(position)


def test_a_cycle_of_stacks_fails_the_pass():
    # 1B on 2B and 2B on 1B in two towers (the locked-pair case), seen by the relaxed pass.
    layout = layout_from_positions([(0, 0, 0), (0, 0, 1), (4, 0, 0), (4, 0, 1)])
    faces = [face_id(f) for f in ("2B", "1B", "1B", "2B")]
    position = Position.start(layout, faces)
    assert not Solver(layout, faces).relaxed.passes(layout.full, position.free_mask())


@settings(max_examples=60, deadline=None)
@given(number=st.sampled_from([0, 1, 2, 3, 4, 11, 12, 13]), seed=st.integers(0, 10**6))
def test_grid_free_cells_agree_with_the_tile_rule_on_any_set_of_tiles(number, seed):
    # Not only positions reached by play: any subset of the layout, floating tiles included.
    layout = layout_by_number(number)
    rng = random.Random(seed)
    faces = (full_set() * 2)[: len(layout)]
    relaxed = relaxed_for(layout, faces)
    alive = rng.getrandbits(len(layout)) & rng.getrandbits(len(layout)) | rng.getrandbits(8)
    alive &= layout.full
    assert relaxed.grid.free(relaxed.cells(alive)) == relaxed.cells(layout.free_mask(alive))


@settings(max_examples=60, deadline=None)
@given(number=st.sampled_from([0, 1, 2, 3, 4, 11, 12, 13]), seed=st.integers(0, 10**6))
def test_the_one_layer_free_test_agrees_with_the_tile_rule_on_positions_reached_by_play(
    number, seed
):
    # Every built-in layout is stacked, and play keeps every tile under a live tile alive,
    # so the pass may look one layer up only; its free test must still be the rule's.
    layout = layout_by_number(number)
    rng = random.Random(seed)
    relaxed = relaxed_for(layout, (full_set() * 2)[: len(layout)])
    alive = random_play(layout, rng, rng.randrange(len(layout)))
    cells = relaxed.cells(alive)
    assert relaxed.grid.stacked and relaxed.grid.spans_for(cells) == ()
    assert relaxed.grid.free(cells, ()) == relaxed.cells(layout.free_mask(alive))


def test_a_table_with_a_tile_missing_under_another_keeps_every_layer_shift():
    layout = layout_by_number(0)
    relaxed = relaxed_for(layout, full_set())
    top = max(range(len(layout)), key=lambda i: layout.positions[i][2])
    under = layout.under_all[top] & -layout.under_all[top]  # one tile it holds down
    cells = relaxed.cells(layout.full & ~under)
    assert relaxed.grid.spans_for(cells) == relaxed.grid.spans != ()
    assert relaxed.grid.spans_for(relaxed.cells(layout.full)) == ()


def test_a_tile_over_a_gap_two_layers_up_makes_a_layout_not_stacked():
    # A bridge on the second layer over the gap between two ground tiles, and on the third
    # layer a tile over the bridge and the left ground tile, with nothing between those.
    places = [(0, 0, 0), (4, 0, 0), (2, 0, 1), (1, 0, 2), (8, 0, 0), (10, 0, 0)]
    layout = layout_from_positions(places)
    relaxed = relaxed_for(layout, [0] * 6)
    cells = relaxed.cells(layout.full)
    assert not relaxed.grid.stacked
    assert relaxed.grid.spans_for(cells) == relaxed.grid.spans != ()
    assert not layout.is_free(0, layout.full)
    assert relaxed.grid.free(cells) == relaxed.cells(layout.free_mask(layout.full))
    assert relaxed.grid.free(cells, ()) != relaxed.grid.free(cells)  # why it must not
