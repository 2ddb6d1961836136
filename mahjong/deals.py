"""The deal a game code names, cached per process: solo games and race boards both
recompute their position from the code on every action, and a code's deal never changes."""

from functools import lru_cache

from mahjong.engine.deal import Deal, deal_from_code


@lru_cache(maxsize=512)
def deal_for(code: str) -> Deal:
    return deal_from_code(code)
