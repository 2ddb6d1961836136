"""The deal a game code names, cached per process: solo games and race boards both
recompute their position from the code on every action, and a code's deal never changes.

A code is `MJ1-Lnn-…` on a built-in layout or `MJ1-U<id>-…` on a stored one
(docs/LAYOUTS.md §Stored layouts; `MJ2-U<id>-…` on one of 138-142 places, docs/ENGINE.md
§Game codes). A stored layout's text never changes once stored
(layouts/actions.py writes it once), so its deals can be cached like the built-ins'.
The layouts app sits above this module (pyproject.toml [tool.importlinter]), so it
registers how a stored layout's text is read when it starts (layouts/apps.py, as apps
register their checks with mahjong/sightings.py): an arrow up the layers made visible.
"""

from collections.abc import Callable
from functools import lru_cache

from mahjong.engine.codes import make_stored_code, parse_any_code
from mahjong.engine.deal import Deal, deal_from_code, stored_code_version
from mahjong.engine.layout import Layout, parse_layout

__all__ = ["deal_for", "new_stored_code", "parse_any_code", "stored_layout"]


StoredText = Callable[[int], str | None]  # a stored layout's id -> its text (None: none)
_stored_text: list[StoredText] = []  # the one reader, registered by the layouts app


def register_stored_layouts(read_text: StoredText) -> None:
    """Called once by the layouts app when it starts: how a stored layout's text is read."""
    _stored_text[:] = [read_text]


@lru_cache(maxsize=512)
def deal_for(code: str) -> Deal:
    return deal_from_code(code, stored=stored_layout)


@lru_cache(maxsize=256)
def stored_layout(layout_id: int) -> Layout:
    """The layout stored as U<layout_id>, hidden or not (its codes stay valid forever);
    LookupError when there is none (the engine's deal_from_code then refuses the code).
    A miss is not cached: the row may come later."""
    if not _stored_text:
        raise LookupError("no app stores layouts (layouts is not installed)")
    text = _stored_text[0](layout_id)
    if text is None:
        raise LookupError(f"unknown stored layout U{layout_id}")
    read = parse_layout(text, f"U{layout_id}")
    return Layout(name=f"U{layout_id}", positions=read.positions)


def new_stored_code(layout_id: int, seed: int) -> str:
    """A code on the stored layout U<layout_id>, in the version its tile count deals with
    (MJ2 on 138-142 places); LookupError when there is no such layout."""
    version = stored_code_version(len(stored_layout(layout_id).positions))
    return make_stored_code(layout_id, seed, version)
