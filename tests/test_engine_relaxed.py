"""The relaxed-game dead-end test: its bit-parallel grid form must agree with the plain
per-tile form (and with the layout's own free test), and a failing pass must be a proof:
brute force finds no win from such a position."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_solver_oracle import brute_force_solvable, small_positions

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
