"""Game codes: `MJ1-L<layout number, 2 digits>-<seed, 7 letters A-Z>`.

The seed is a base-26 number written with A=0 ... Z=25, most significant letter first,
so `MJ1-L00-AAAAABL` is layout 00 with seed 1*26 + 11 = 37.
"""

from __future__ import annotations

import re
import secrets

VERSION = "MJ1"
SEED_LETTERS = 7
SEED_LIMIT = 26**SEED_LETTERS
CODE_RE = re.compile(r"^MJ(\d+)-L(\d{2})-([A-Z]{7})$")


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


def parse_code(code: str) -> tuple[int, int]:
    """(layout number, seed) of a well-formed code; CodeError otherwise.

    Whether the layout number exists is checked by the deal functions, which know the
    catalogue. Lower-case letters and surrounding spaces are accepted (people type codes).
    """
    if not isinstance(code, str):
        raise CodeError(f"a game code is a string, got {type(code).__name__}")
    text = code.strip().upper()
    match = CODE_RE.match(text)
    if not match:
        raise CodeError(f"malformed game code {code!r}: expected like MJ1-L00-AAAAABL")
    if f"MJ{match.group(1)}" != VERSION:
        raise CodeError(f"unknown game code version MJ{match.group(1)} in {code!r}")
    return int(match.group(2)), letters_to_seed(match.group(3))


def random_seed() -> int:
    return secrets.randbelow(SEED_LIMIT)
