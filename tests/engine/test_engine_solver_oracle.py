"""The solver's pruning is claimed safe: check its verdicts against plain brute force on
small random positions (stacks, rows, bridges), where exhaustive search is cheap."""

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong.engine import Position, layout_from_positions, match_class, solve
from tests.engine.engine_helpers import assert_plan_wins


def brute_force_solvable(position: Position) -> bool:
    layout, faces = position.layout, position.faces

    @cache
    def win(alive: int) -> bool:
        if not alive:
            return True
        free = [i for i in range(len(faces)) if alive >> i & 1 and layout.is_free(i, alive)]
        for k, a in enumerate(free):
            for b in free[k + 1 :]:
                if match_class(faces[a]) == match_class(faces[b]) and win(
                    alive & ~(1 << a | 1 << b)
                ):
                    return True
        return False

    return win(position.alive)


@st.composite
def small_positions(draw, classes=None):
    """Up to 14 tiles dropped on a small board, each resting on the layer it fits."""
    count = draw(st.integers(min_value=1, max_value=8)) * 2
    places: list[tuple[int, int, int]] = []
    for _ in range(count):
        x = draw(st.integers(0, 8))
        y = draw(st.integers(0, 3))
        z = 0
        while any(abs(px - x) < 2 and abs(py - y) < 2 and pz == z for px, py, pz in places):
            z += 1
        places.append((x, y, z))
    kinds = classes if classes is not None else st.integers(0, 3)
    drawn = draw(st.lists(kinds, min_size=count // 2, max_size=count // 2))
    faces = [face for c in drawn for face in (c, c)]
    order = draw(st.permutations(range(count)))
    faces = [faces[k] for k in order]
    return Position.start(layout_from_positions(places), faces)


@settings(max_examples=300, deadline=None)
@given(position=small_positions())
def test_the_solver_agrees_with_brute_force(position):
    result = solve(position.layout, position.faces)
    assert result.solvable == brute_force_solvable(position)
    if result.solvable:
        assert_plan_wins(position.layout, position.faces, result.plan)
