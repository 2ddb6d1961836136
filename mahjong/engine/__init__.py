"""The mahjong solitaire engine: pure Python, no Django. See docs/ENGINE.md."""

from .catalog import CATALOG, LEVELS, layout_by_name, layout_by_number, level_layout, load_layout
from .codes import CodeError, make_code, make_stored_code, parse_any_code, parse_code, random_seed
from .deal import (
    Deal,
    NoSolvableDeal,
    deal_from_code,
    new_deal,
    playable_report,
    random_faces,
    removal_order,
    stored_deal,
)
from .hint import Hint, hint
from .layout import (
    Layout,
    LayoutError,
    LayoutWarning,
    flowers_by_count,
    layout_from_positions,
    parse_layout,
    parse_layout_report,
    read_layout,
)
from .position import Blocked, IllegalMove, Position
from .prng import Prng
from .shuffle import Shuffled, ShuffleError, shuffle
from .solver import Solver, SolveResult, solve
from .tiles import FACES, face_id, face_label, faces_match, full_set, match_class

__all__ = [
    "CATALOG",
    "FACES",
    "LEVELS",
    "Blocked",
    "CodeError",
    "Deal",
    "Hint",
    "IllegalMove",
    "Layout",
    "LayoutError",
    "LayoutWarning",
    "NoSolvableDeal",
    "Position",
    "Prng",
    "ShuffleError",
    "Shuffled",
    "SolveResult",
    "Solver",
    "deal_from_code",
    "face_id",
    "face_label",
    "faces_match",
    "flowers_by_count",
    "full_set",
    "hint",
    "layout_by_name",
    "layout_by_number",
    "layout_from_positions",
    "level_layout",
    "load_layout",
    "make_code",
    "make_stored_code",
    "match_class",
    "new_deal",
    "parse_any_code",
    "parse_code",
    "parse_layout",
    "parse_layout_report",
    "playable_report",
    "random_faces",
    "random_seed",
    "read_layout",
    "removal_order",
    "shuffle",
    "solve",
    "stored_deal",
]
