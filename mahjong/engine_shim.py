"""TEMPORARY stand-in for the engine's stored-layout interface (issue 23, branch w/elay).

The engine half of issue 23 adds stored-layout codes (`MJ1-U<id>-<seed>`), deals on a
stored layout and a lenient reader that reports warnings. Until it lands, this module
gives the same names with the same signatures; each one is taken from the engine as
soon as the engine has it, so the merge needs no change here, and this file is deleted
once every name below comes from the engine.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from mahjong.engine import codes as _codes
from mahjong.engine import deal as _deal
from mahjong.engine import layout as _layout
from mahjong.engine.layout import Layout, LayoutError
from mahjong.engine.prng import Prng

_STORED_RE = re.compile(r"^MJ(\d+)-U(\d{1,9})-([A-Z]{7})$")
_STORED_STRIDE = 1_000  # keeps a stored layout's PRNG seeds apart from the L numbers'


def _shim_make_stored_code(layout_id: int, seed: int) -> str:
    if not isinstance(layout_id, int) or not 0 < layout_id < 10**9:
        raise _codes.CodeError(f"stored layout id must be 1..999999999, got {layout_id!r}")
    return f"{_codes.VERSION}-U{layout_id}-{_codes.seed_to_letters(seed)}"


def _shim_parse_any_code(code: str) -> tuple[str, int, int]:
    text = code.strip().upper() if isinstance(code, str) else code
    match = _STORED_RE.match(text) if isinstance(text, str) else None
    if match is None:
        number, seed = _codes.parse_code(code)
        return "L", number, seed
    if f"MJ{match.group(1)}" != _codes.VERSION:
        raise _codes.CodeError(f"unknown game code version MJ{match.group(1)} in {code!r}")
    return "U", int(match.group(2)), _codes.letters_to_seed(match.group(3))


def _shim_deal_from_code(code: str, stored: Callable[[int], Layout] | None = None):
    kind, number, seed = _shim_parse_any_code(code)
    if kind == "L":
        return _deal.deal_from_code(code)
    if stored is None:
        raise _codes.CodeError(f"stored layouts are not available for game code {code!r}")
    try:
        layout = stored(number)
    except LayoutError:
        raise _codes.CodeError(f"unknown layout U{number} in game code {code!r}") from None
    rng = Prng((_STORED_STRIDE + number) * _deal.SEED_STRIDE + seed)
    faces, plan = _deal.generate(layout, rng, layout.flowers)
    return _deal.Deal(layout, faces, plan, _shim_make_stored_code(number, seed))


def _shim_playable_report(layout: Layout) -> str | None:
    try:
        plan = _deal.removal_order(layout, layout.full, Prng(1), node_limit=200_000)
    except _deal.NoSolvableDeal:
        plan = None
    if plan is None:
        return (
            f"no solvable deal: its {len(layout)} tiles can never all be removed in pairs "
            "of free tiles, whatever the faces"
        )
    return None


@dataclass(frozen=True)
class _Warning:
    line: int | None
    message: str


def _shim_parse_layout_report(text: str) -> tuple[Layout, list]:
    return _layout.parse_layout(text), []


make_stored_code = getattr(_codes, "make_stored_code", _shim_make_stored_code)
parse_any_code = getattr(_codes, "parse_any_code", _shim_parse_any_code)
deal_from_code = (
    _deal.deal_from_code
    if "stored" in getattr(_deal.deal_from_code, "__code__", _deal.deal_from_code).co_varnames
    else _shim_deal_from_code
)
playable_report = getattr(_deal, "playable_report", _shim_playable_report)
parse_layout_report = getattr(_layout, "parse_layout_report", _shim_parse_layout_report)
layout_to_text = _layout.layout_to_text
