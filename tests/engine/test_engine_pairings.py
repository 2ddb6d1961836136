"""The search over pairings (pairings.py) must agree with brute force, and its plans must
win; the solver falls back on it, so this is checked on its own as well."""

import random
from unittest.mock import patch

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mahjong.engine import (
    Position,
    Solver,
    full_set,
    layout_by_number,
    match_class,
    new_deal,
    solve,
)
from mahjong.engine import pairings as pairings_module
from mahjong.engine import solver as solver_module
from mahjong.engine.pairings import PairingRace, PairingSearch, matchings
from tests.engine.engine_helpers import assert_plan_wins
from tests.engine.test_engine_solver_oracle import brute_force_solvable, small_positions


def pairing_verdict(layout, faces, alive, search_class=PairingSearch, **options):
    solver = Solver(layout, faces)
    if solver.relaxed.grid is None or any((alive & m).bit_count() > 4 for m in solver.class_masks):
        return "skip", None  # the solver only uses the pairing search in these cases
    search = search_class(solver.relaxed.grid, solver.class_masks, alive, lambda: False, **options)
    if solver.is_hopeless(alive):
        return False, None
    plan = search.solve()
    return plan is not None, plan


def test_matchings_split_tiles_every_way():
    assert matchings([1, 2, 3, 4]) == [((1, 2), (3, 4)), ((1, 3), (2, 4)), ((1, 4), (2, 3))]
    assert len(matchings(list(range(6)))) == 15
    assert matchings([]) == [()]


@settings(max_examples=300, deadline=None)
@given(position=small_positions(classes=st.integers(0, 5)))
def test_it_agrees_with_brute_force(position):
    verdict, plan = pairing_verdict(position.layout, position.faces, position.alive)
    _agrees_with_brute_force(position, verdict, plan)


@settings(max_examples=300, deadline=None)
@given(position=small_positions(classes=st.integers(0, 5)))
def test_pruning_on_support_only_agrees_with_brute_force(position):
    verdict, plan = pairing_verdict(
        position.layout, position.faces, position.alive, support_only=True
    )
    _agrees_with_brute_force(position, verdict, plan)


@settings(max_examples=200, deadline=None)
@given(
    position=small_positions(classes=st.integers(0, 5)),
    race_after=st.integers(0, 4),
    restart_first=st.integers(1, 6),
)
def test_the_race_of_both_searches_agrees_with_brute_force(position, race_after, restart_first):
    # Small positions take a few trials: the support-only search must join early, and the
    # full search restart early, to count.
    with (
        patch.object(pairings_module, "RACE_AFTER", race_after),
        patch.object(pairings_module, "RESTART_FIRST", restart_first),
    ):
        verdict, plan = pairing_verdict(
            position.layout, position.faces, position.alive, search_class=PairingRace
        )
    _agrees_with_brute_force(position, verdict, plan)


@settings(max_examples=200, deadline=None)
@given(
    position=small_positions(classes=st.integers(0, 5)),
    order=st.randoms(use_true_random=False),
    search_class=st.sampled_from([PairingSearch, PairingRace]),
)
def test_a_phase_to_try_first_never_changes_the_verdict(position, order, search_class):
    # The solver passes the move search's deepest line; any line of pairs must do.
    tiles = sorted(range(len(position.faces)), key=lambda t: position.faces[t])
    pairs = [(tiles[k], tiles[k + 1]) for k in range(0, len(tiles) - 1, 2)]
    order.shuffle(pairs)
    with patch.object(pairings_module, "RACE_AFTER", 2):
        verdict, plan = pairing_verdict(
            position.layout, position.faces, position.alive, search_class, phase=pairs
        )
    _agrees_with_brute_force(position, verdict, plan)


def test_a_phase_names_for_each_open_class_the_matching_of_its_first_pair():
    layout = layout_by_number(0)
    faces = full_set()
    random.Random(19).shuffle(faces)
    solver = Solver(layout, faces)
    by_class: dict[int, list[int]] = {}
    for tile, face in enumerate(faces):  # each class's tiles in ascending order
        by_class.setdefault(match_class(face), []).append(tile)
    (a, b, c, d), (e, f, g, h) = list(by_class.values())[:2]
    phase = [(c, a), (f, e), (d, b)]  # (d, b): its class already has its matching
    search = PairingSearch(
        solver.relaxed.grid, solver.class_masks, layout.full, lambda: False, phase=phase
    )
    assert sorted(search.preferred.values()) == sorted([((a, c), (b, d)), ((e, f), (g, h))])


def a_win_one_class_off(seed: int):
    """A random turtle deal, its solver, and the solver's plan with one class paired the
    other way (its two pairs (a, b), (c, d) turned into (a, c), (b, d))."""
    layout = layout_by_number(0)
    faces = full_set()
    random.Random(seed).shuffle(faces)
    solver = Solver(layout, faces)
    plan = solver.solve().plan
    by_class: dict[int, list] = {}
    for a, b in plan:
        by_class.setdefault(match_class(faces[a]), []).append((a, b))
    (a, b), (c, d) = next(pairs for pairs in by_class.values() if len(pairs) == 2)
    line = [(a, c), (b, d), *(p for p in plan if p not in ((a, b), (c, d)))]
    return layout, faces, solver, line


def pairing_search(solver, line, **options) -> PairingSearch:
    grid, layout = solver.relaxed.grid, solver.layout
    return PairingSearch(
        grid, solver.class_masks, layout.full, lambda: False, phase=line, **options
    )


def test_a_phase_one_class_off_a_win_is_repaired_at_the_root():
    layout, faces, solver, line = a_win_one_class_off(19)
    checks = {}
    for steps in (0, 10):
        search = pairing_search(solver, line, repair_steps=steps)
        assert_plan_wins(layout, faces, search.solve())
        checks[steps] = search.checks
    # The root's pruning tries each class's pairings (~100 trials), then a few passes.
    assert checks[10] < 200 < checks[0]


def test_the_line_the_move_search_reached_is_repaired_without_any_search():
    layout, faces, solver, line = a_win_one_class_off(19)
    line = line[:50]  # a line that stopped part way
    search = pairing_search(solver, line, repair_steps=4)
    assert_plan_wins(layout, faces, search.repair_phase())
    assert search.checks < 100  # a few passes, where the search prunes ~100 trials a level
    assert pairing_search(solver, line).repair_phase() is None  # as it is, it does not win


@settings(max_examples=200, deadline=None)
@given(position=small_positions(classes=st.integers(0, 5)), steps=st.integers(0, 4))
def test_a_repaired_line_tried_before_the_move_rounds_never_gives_a_wrong_answer(position, steps):
    with (
        patch.object(solver_module, "REPAIR_ROUND", 0),
        patch.object(solver_module, "EARLY_REPAIR_STEPS", steps),
    ):
        result = solve(position.layout, position.faces)
    assert result.solvable == brute_force_solvable(position)
    if result.solvable:
        assert_plan_wins(position.layout, position.faces, result.plan)


def test_it_decides_random_turtle_deals_the_move_search_finds_hard():
    layout = layout_by_number(0)
    for seed, expected in ((19, True), (48, False)):
        faces = full_set()
        random.Random(seed).shuffle(faces)
        for options in ({}, {"support_only": True}, {"search_class": PairingRace}):
            with patch.object(pairings_module, "RACE_AFTER", 100):
                verdict, plan = pairing_verdict(layout, faces, layout.full, **options)
            assert verdict is expected
            if plan:
                assert_plan_wins(layout, faces, plan)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), played=st.integers(0, 60))
def test_it_solves_positions_part_way_through_generated_deals(seed, played):
    # Classes already down to their last pair are fixed pairs from the start.
    layout = layout_by_number(0)
    deal = new_deal(layout, seed)
    position = Position.start(layout, deal.faces).play(deal.plan[:played])
    for options in ({}, {"support_only": True}):
        verdict, plan = pairing_verdict(layout, deal.faces, position.alive, **options)
        assert verdict is True
        assert_plan_wins(layout, deal.faces, plan, alive=position.alive)


@settings(max_examples=200, deadline=None)
@given(position=small_positions(classes=st.integers(0, 5)))
def test_the_solver_agrees_with_brute_force_when_it_goes_straight_to_pairings(position):
    with patch.object(solver_module, "RESTART_BUDGETS", ()):
        result = solve(position.layout, position.faces)
    assert result.solvable == brute_force_solvable(position)
    if result.solvable:
        assert_plan_wins(position.layout, position.faces, result.plan)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    picks=st.lists(st.integers(0, 2), max_size=12),
    played=st.integers(0, 30),
)
def test_a_trial_is_the_relaxed_game_played_from_the_start(seed, picks, played):
    # A trial starts part way through the current pass (or is not run at all when it would
    # be that pass): its answer must be the one of the relaxed game with the class paired,
    # played from the start, under any passing choice.
    search = search_part_way(seed, played)
    assume(search._rounds(search.table) is not None)
    classes = list(search.options)
    chosen = set()
    for k, pick in zip(classes, picks, strict=False):
        matching = search.options[k][pick]
        search._apply(k, matching)
        if search._rounds(search.table) is None:
            search._undo(k, matching)
        else:
            chosen.add(k)
    for k in classes:
        if k in chosen:
            continue
        for matching in search.options[k]:
            got = search._try(k, matching)
            search._apply(k, matching)
            want = search._rounds(search.table, search.class_cells[k])
            search._undo(k, matching)
            assert got == want


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), played=st.integers(0, 30))
def test_a_trial_no_tile_of_a_class_left_in_holds_once_that_class_is_paired(seed, played):
    # The pruning keeps a trial after a choice when no tile of the class chosen left in it
    # (PairingSearch._choose): run again under that choice, it must give the same answer.
    search = search_part_way(seed, played)
    assume(search._rounds(search.table) is not None)
    kept = 0
    for c, c_matchings in search.options.items():
        for c_matching in c_matchings:
            rounds = search._try(c, c_matching)
            end = search.trial_end
            if rounds is None:
                continue
            for j, j_matchings in search.options.items():
                cells = search.class_cells[j]
                if j == c or end & cells != cells:
                    continue
                for j_matching in j_matchings:
                    if search._try(j, j_matching) is None:
                        continue  # never chosen: the full pass must stay passing
                    search._apply(j, j_matching)
                    assert search._try(c, c_matching) == rounds
                    search._undo(j, j_matching)
                    kept += 1
    assume(kept)  # (Unsatisfiable if no example ever keeps a trial)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    picks=st.lists(st.integers(0, 2), min_size=36, max_size=36),
    played=st.integers(0, 30),
)
def test_a_repair_candidate_started_part_way_is_the_pass_from_the_start(seed, picks, played):
    # A repair tries changing one class's pairing in a pass that stalled, starting from the
    # round where that class could first behave differently (PairingSearch._changed_pass):
    # where it stalls and how long it takes must be those of the pass from the start.
    search = search_part_way(seed, played)
    pick = {k: options[p] for (k, options), p in zip(search.options.items(), picks, strict=False)}
    for k, matching in pick.items():
        search._apply(k, matching)
    snaps: list = []
    stall: list = []
    seen = [0] * len(search.group_cells)
    assume(search._run(search.table, search.table, 0, 0, seen, 0, snaps, stall) is None)
    for k, matching in pick.items():
        for other in search.options[k]:
            if other == matching:
                continue
            got_stall: list = []
            got = search._changed_pass(k, matching, other, snaps, got_stall)
            search._apply(k, other)
            want_stall: list = []
            want = search._rounds(search.table, stall=want_stall)
            search._apply(k, matching)
            assert (got, got_stall) == (want, want_stall)


def search_part_way(seed: int, played: int) -> PairingSearch:
    """A pairing search from `position_part_way(seed, played)`."""
    position = position_part_way(seed, played)
    solver = Solver(position.layout, position.faces)
    return PairingSearch(solver.relaxed.grid, solver.class_masks, position.alive, lambda: False)


def position_part_way(seed: int, played: int) -> Position:
    """Random turtle deal `seed` after up to `played` random playable pairs."""
    faces = full_set()
    random.Random(seed).shuffle(faces)
    rng = random.Random(seed)
    position = Position.start(layout_by_number(0), faces)
    for _ in range(played):
        pairs = position.playable_pairs()
        if not pairs:
            break
        position = position.remove(*rng.choice(pairs))
    return position


def _agrees_with_brute_force(position, verdict, plan):
    assume(verdict != "skip")
    assert verdict == brute_force_solvable(position)
    if verdict:
        assert_plan_wins(position.layout, position.faces, plan)
