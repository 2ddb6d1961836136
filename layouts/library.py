"""What a player can choose to play or race on (read only): the built-in catalog, the
layouts admins promoted, the player's own and everyone's shared ones
(docs/LAYOUTS.md §The picker).

A choice is named by a *key*: a built-in layout's catalog name ("turtle") or a stored
layout's "U<id>". Practice's New game and a room's rules send keys; `new_code` turns one
into a game code with a fresh seed.
"""

import re
from dataclasses import dataclass

from django.db.models import Q
from django.urls import reverse

from layouts.models import CatalogOverride, StoredLayout
from mahjong.deals import new_stored_code
from mahjong.engine.catalog import BY_NAME, CATALOG
from mahjong.engine.codes import make_code, random_seed
from mahjong.rules import Level, layout_label

STORED_KEY = re.compile(r"^U([1-9]\d{0,6})$")  # ids below 10**7 keep a code in 20 characters
SHARED_SHOWN = 60  # other players' layouts listed, newest first


@dataclass(frozen=True)
class Choice:
    key: str
    title: str
    tiles: int
    difficulty: str
    preview: str
    group: str  # "library", "own" or "shared"
    level: str = ""  # a race level's own layout: the level choice covers it


def builtin_title(entry, language: str, override: CatalogOverride | None = None) -> str:
    """A catalog entry's name: an admin's override, the level's label for a level's
    layout, else its title in the language."""
    if override is not None:
        named = override.title_es if language.startswith("es") else ""
        if named or override.title_en:
            return named or override.title_en
    if entry.level:  # a race level's layout is named by its level ("Easy + flowers")
        return layout_label(entry.number)
    return entry.title(language)


def difficulty_label(difficulty: str) -> str:
    """A measured difficulty in the page's language: the catalog grades layouts on the
    levels' scale (docs/LAYOUTS.md), so its words are the levels'."""
    return str(Level(difficulty).label) if difficulty in Level.values else difficulty


def _builtin_choices(language: str) -> list[Choice]:
    overrides = {o.number: o for o in CatalogOverride.objects.all()}
    return [
        Choice(
            key=e.name,
            title=builtin_title(e, language, overrides.get(e.number)),
            tiles=e.tiles,
            difficulty=difficulty_label(e.difficulty),
            preview=reverse("play-layout-preview", args=[e.name]),
            group="library",
            level=e.level,
        )
        for e in CATALOG
        if not getattr(overrides.get(e.number), "hidden", False)
    ]


def _stored_choice(row: StoredLayout, language: str, group: str) -> Choice:
    return Choice(
        key=f"U{row.pk}",
        title=row.title(language),
        tiles=row.tiles,
        difficulty="",
        preview=reverse("layouts-preview", args=[row.pk]),
        group=group,
    )


def choices(player, language: str, include: str = "") -> list[Choice]:
    """Every layout the picker offers, built-in library first (the catalog, then
    promoted layouts), then the player's own, then other players' shared ones; a stored
    layout `include` names (a room's choice) is listed even when it would not be."""
    visible = StoredLayout.objects.filter(hidden=False).only(
        "pk", "title_en", "title_es", "tiles", "owner_id", "built_in"
    )
    promoted = [_stored_choice(r, language, "library") for r in visible.filter(built_in=True)]
    own = []
    if player is not None:
        own = [
            _stored_choice(r, language, "own") for r in visible.filter(owner=player, built_in=False)
        ]
    others = visible.filter(built_in=False).exclude(Q(owner=player) if player else Q(pk=None))
    shared = [_stored_choice(r, language, "shared") for r in others[:SHARED_SHOWN]]
    listed = _builtin_choices(language) + promoted + own + shared
    extra = stored_id(include)
    if extra is not None and all(c.key != include for c in listed):
        listed += [_stored_choice(r, language, "shared") for r in visible.filter(pk=extra)]
    return listed


def stored_id(key: str) -> int | None:
    match = STORED_KEY.match(key) if isinstance(key, str) else None
    return int(match.group(1)) if match else None


def is_known(key: str) -> bool:
    """A key that names a built-in layout or a stored one (hidden ones too: a room that
    chose it before it was hidden keeps racing on it)."""
    if isinstance(key, str) and key in BY_NAME:
        return True
    layout_id = stored_id(key)
    return layout_id is not None and StoredLayout.objects.filter(pk=layout_id).exists()


def new_code(key: str, seed: int | None = None) -> str:
    """A game code on the layout `key` names (a fresh random seed unless given)."""
    seed = random_seed() if seed is None else seed
    layout_id = stored_id(key)
    if layout_id is not None:
        return new_stored_code(layout_id, seed)
    return make_code(BY_NAME[key].number, seed)


def title_of(key: str, language: str) -> str:
    """The display name of a key ("" when it names nothing)."""
    if key in BY_NAME:
        entry = BY_NAME[key]
        return builtin_title(
            entry, language, CatalogOverride.objects.filter(number=entry.number).first()
        )
    layout_id = stored_id(key)
    row = StoredLayout.objects.filter(pk=layout_id).first() if layout_id else None
    return row.title(language) if row else ""


def is_offered(key: str) -> bool:
    """A key the picker offers now: a built-in layout, or a stored one not hidden."""
    if isinstance(key, str) and key in BY_NAME:
        return True
    layout_id = stored_id(key)
    shown = StoredLayout.objects.filter(pk=layout_id, hidden=False)
    return layout_id is not None and shown.exists()


def stored_text(layout_id: int) -> str | None:
    """A stored layout's text, hidden or not (its codes stay valid forever): how
    mahjong/deals.py reads one (registered in layouts/apps.py)."""
    return StoredLayout.objects.filter(pk=layout_id).values_list("text", flat=True).first()
