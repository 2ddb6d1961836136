import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mahjong.engine import FACES, CodeError, deal_from_code, make_code, parse_code
from mahjong.engine.codes import SEED_LIMIT
from mahjong.engine.prng import Prng

GOLDEN = json.loads((Path(__file__).parent / "data" / "engine_golden_codes.json").read_text())


def test_at_least_twenty_codes_are_pinned():
    assert len(GOLDEN) >= 20


@pytest.mark.parametrize("code", sorted(GOLDEN))
def test_a_pinned_code_gives_exactly_its_deal(code):
    deal = deal_from_code(code)
    assert " ".join(FACES[f] for f in deal.faces) == GOLDEN[code]["faces"]
    assert [list(p) for p in deal.plan] == GOLDEN[code]["plan"]
    assert deal.code == code


def test_the_prng_is_pinned():
    rng = Prng(0)
    assert [rng.next64() for _ in range(3)] == [
        16294208416658607535,
        7960286522194355700,
        487617019471545679,
    ]


def test_the_seed_is_seven_letters_base_26():
    assert make_code(0, 37) == "MJ1-L00-AAAAABL"
    assert parse_code("MJ1-L00-AAAAABL") == (0, 37)
    assert make_code(13, SEED_LIMIT - 1) == "MJ1-L13-ZZZZZZZ"


@given(number=st.integers(0, 99), seed=st.integers(0, SEED_LIMIT - 1))
def test_codes_round_trip(number, seed):
    assert parse_code(make_code(number, seed)) == (number, seed)


def test_people_may_type_codes_in_lower_case():
    assert parse_code(" mj1-l02-abcdefg ") == (2, parse_code("MJ1-L02-ABCDEFG")[1])


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("MJ1-L00-AAAAAB", "malformed"),
        ("MJ1-L0-AAAAAAB", "malformed"),
        ("MJ1-L00-AAAAA1B", "malformed"),
        ("MJ2-L00-AAAAAAB", "unknown game code version"),
        ("MJ1-L99-AAAAAAB", "unknown layout number L99"),
        ("", "malformed"),
    ],
)
def test_it_rejects_malformed_and_unknown_codes(code, message):
    with pytest.raises(CodeError, match=message):
        deal_from_code(code)


def test_a_seed_out_of_range_is_refused():
    with pytest.raises(CodeError):
        make_code(0, SEED_LIMIT)
