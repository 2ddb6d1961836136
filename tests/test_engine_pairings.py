"""The search over pairings (pairings.py) must agree with brute force, and its plans must
win; the solver falls back on it, so this is checked on its own as well."""

import random

from engine_helpers import assert_plan_wins
from hypothesis import given, settings
from test_engine_solver_oracle import brute_force_solvable, small_positions

from mahjong.engine import Solver, full_set, layout_by_number
from mahjong.engine.pairings import PairingSearch, matchings


def pairing_verdict(layout, faces, alive):
    solver = Solver(layout, faces)
    if solver.relaxed.grid is None:
        return "skip", None
    search = PairingSearch(solver.relaxed.grid, solver.class_masks, alive, lambda: False)
    if solver.is_hopeless(alive):
        return False, None
    plan = search.solve()
    return plan is not None, plan


def test_matchings_split_tiles_every_way():
    assert matchings([1, 2, 3, 4]) == [((1, 2), (3, 4)), ((1, 3), (2, 4)), ((1, 4), (2, 3))]
    assert len(matchings(list(range(6)))) == 15
    assert matchings([]) == [()]


@settings(max_examples=300, deadline=None)
@given(position=small_positions())
def test_it_agrees_with_brute_force(position):
    verdict, plan = pairing_verdict(position.layout, position.faces, position.alive)
    if verdict == "skip":
        return
    assert verdict == brute_force_solvable(position)
    if verdict:
        assert_plan_wins(position.layout, position.faces, plan)


def test_it_decides_random_turtle_deals_the_move_search_finds_hard():
    layout = layout_by_number(0)
    for seed, expected in ((19, True), (48, False)):
        faces = full_set()
        random.Random(seed).shuffle(faces)
        verdict, plan = pairing_verdict(layout, faces, layout.full)
        assert verdict is expected
        if plan:
            assert_plan_wins(layout, faces, plan)
