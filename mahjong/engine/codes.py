"""Game codes: `MJ1-L<layout number, 2 digits>-<seed, 7 letters A-Z>` for a built-in
layout, `MJ1-U<stored layout id, 1-9 digits>-<seed>` for a layout stored by the site.

The seed is a base-26 number written with A=0 ... Z=25, most significant letter first,
so `MJ1-L00-AAAAABL` is layout 00 with seed 1*26 + 11 = 37. The U form was added later
(docs/LAYOUTS.md §Codes): it leaves every L code as it was, and `parse_code` still reads
L codes only, so callers that know nothing of stored layouts refuse U codes plainly.
"""

from __future__ import annotations

import re
import secrets

VERSION = "MJ1"
# MJ2 names U codes on stored layouts of 138-142 places, whose faces MJ1 drew with some
# face six times; under MJ2 they get the real set (docs/ENGINE.md §Game codes). MJ1 codes
# keep dealing what they always dealt. Every L code is MJ1.
REAL_SET_VERSION = "MJ2"
SEED_LETTERS = 7
SEED_LIMIT = 26**SEED_LETTERS
CODE_RE = re.compile(r"^MJ(\d+)-L(\d{2})-([A-Z]{7})$")
STORED_CODE_RE = re.compile(r"^MJ(\d+)-U([1-9]\d{0,8})-([A-Z]{7})$")
STORED_ID_LIMIT = 10**9  # ids have 1 to 9 digits
EXAMPLE = "MJ1-L00-AAAAABL"


class CodeError(ValueError):
    """A malformed game code, or one naming a layout or version this engine does not know."""


def seed_to_letters(seed: int) -> str:
    if not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise CodeError(f"seed must be an integer from 0 to {SEED_LIMIT - 1}, got {seed!r}")
    letters = []
    for _ in range(SEED_LETTERS):
        seed, digit = divmod(seed, 26)
        letters.append(chr(ord("A") + digit))
    return "".join(reversed(letters))


def letters_to_seed(letters: str) -> int:
    seed = 0
    for ch in letters:
        seed = seed * 26 + ord(ch) - ord("A")
    return seed


def make_code(layout_number: int, seed: int) -> str:
    if not isinstance(layout_number, int) or not 0 <= layout_number <= 99:
        raise CodeError(f"layout number must be 0..99, got {layout_number!r}")
    return f"{VERSION}-L{layout_number:02d}-{seed_to_letters(seed)}"


def make_stored_code(layout_id: int, seed: int, version: str = VERSION) -> str:
    """The code of a deal on the stored layout `layout_id` (1 .. 999,999,999)."""
    if not isinstance(layout_id, int) or not 0 < layout_id < STORED_ID_LIMIT:
        raise CodeError(f"stored layout id must be 1..{STORED_ID_LIMIT - 1}, got {layout_id!r}")
    if version not in (VERSION, REAL_SET_VERSION):
        raise CodeError(f"unknown game code version {version!r}")
    return f"{version}-U{layout_id}-{seed_to_letters(seed)}"


def parse_code(code: str) -> tuple[int, int]:
    """(layout number, seed) of a well-formed L code; CodeError otherwise (U codes too).

    Whether the layout number exists is checked by the deal functions, which know the
    catalogue. Lower-case letters and surrounding spaces are accepted (people type codes).
    """
    kind, number, seed = parse_any_code(code)
    if kind != "L":  # as before U codes existed: callers that only know L codes refuse them
        raise CodeError(f"malformed game code {code!r}: expected like {EXAMPLE}")
    return number, seed


def parse_any_code(code: str) -> tuple[str, int, int]:
    """("L", layout number, seed) or ("U", stored layout id, seed); CodeError otherwise."""
    return parse_versioned_code(code)[1:]


def parse_versioned_code(code: str) -> tuple[str, str, int, int]:
    """(version, kind, number or id, seed): `parse_any_code` with the version first."""
    if not isinstance(code, str):
        raise CodeError(f"a game code is a string, got {type(code).__name__}")
    text = code.strip().upper()
    match = CODE_RE.match(text)
    kind = "L"
    if not match:
        match, kind = STORED_CODE_RE.match(text), "U"
    if not match:
        # One example only: mahjong/reasons.py translates this sentence by its shape.
        raise CodeError(f"malformed game code {code!r}: expected like {EXAMPLE}")
    version = f"MJ{match.group(1)}"
    if version != VERSION and not (version == REAL_SET_VERSION and kind == "U"):
        raise CodeError(f"unknown game code version {version} in {code!r}")
    return version, kind, int(match.group(2)), letters_to_seed(match.group(3))


def random_seed() -> int:
    return secrets.randbelow(SEED_LIMIT)
