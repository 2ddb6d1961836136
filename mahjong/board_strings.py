"""The board's words in the player's language, shared by practice, races and the tutorial
(the pages carry them as JSON for mahjong/static/mahjong/board.js)."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# Lazy: these are read per request, in the language of that request.
SUIT_NAMES = {
    "B": gettext_lazy("bamboo"),
    "C": gettext_lazy("characters"),
    "D": gettext_lazy("dots"),
}
HONOUR_NAMES = {
    "N": gettext_lazy("North wind"),
    "S": gettext_lazy("South wind"),
    "E": gettext_lazy("East wind"),
    "W": gettext_lazy("West wind"),
    "R": gettext_lazy("Red dragon"),
    "G": gettext_lazy("Green dragon"),
    "Wh": gettext_lazy("White dragon"),
    "F1": gettext_lazy("Plum (flower)"),
    "F2": gettext_lazy("Orchid (flower)"),
    "F3": gettext_lazy("Chrysanthemum (flower)"),
    "F4": gettext_lazy("Bamboo (flower)"),
    "S1": gettext_lazy("Spring (season)"),
    "S2": gettext_lazy("Summer (season)"),
    "S3": gettext_lazy("Autumn (season)"),
    "S4": gettext_lazy("Winter (season)"),
}


def face_names() -> dict:
    names = {face: str(name) for face, name in HONOUR_NAMES.items()}
    for suit, suit_name in SUIT_NAMES.items():
        for rank in range(1, 10):
            names[f"{rank}{suit}"] = _("%(rank)s of %(suit)s") % {"rank": rank, "suit": suit_name}
    return names


def strings() -> dict:
    """The board's words, translated on the server (the page carries them as JSON)."""
    return {
        "faces": face_names(),
        "free": _("free"),
        "blocked": _("blocked"),
        "covered_one": _("covered by 1 tile"),
        "covered_many": _("covered by {n} tiles"),
        "both_sides": _("blocked on both sides"),
        "and": _(" and "),
        "no_moves": _("No more moves."),
        "hint_winning": _("Hint: this pair keeps a winning line."),
        "hint_playable": _("Hint: no winning line is left from here; this pair can be played."),
        "new_record": _("New personal record!"),
        "your_record": _("Your record on this level: {time}"),
        "offline": _("The server cannot be reached; try again."),
        "face_down": _("face down"),
        **view_strings(),
        **help_strings(),
    }


def view_strings() -> dict:
    """The tile's accessible name, the open-pairs count and the view controls."""
    return {
        # Read by screen readers for each tile: "5 of bamboo, free, layer 3 of 5".
        "tile_label": _("{face}, {state}, layer {layer} of {layers}"),
        "pairs_open_none": _("No pairs open."),
        "pairs_open_one": _("1 pair open."),
        "pairs_open_many": _("{n} pairs open."),
        "view_controls": _("Board view"),
        "zoom_in": _("Zoom in"),
        "zoom_out": _("Zoom out"),
        "zoom_fit": _("Fit the board"),
        "full_screen": _("Full screen"),
        "exit_full_screen": _("Exit full screen"),
        # Shown on an upright phone when the board is much wider than tall, its tiles small.
        "turn_hint": _(
            "Small tiles? Double-tap an empty spot to zoom in, or turn your phone sideways."
        ),
        "turn_hint_close": _("Hide this tip"),
    }


def help_strings() -> dict:
    """The board's keyboard help (`?`)."""
    return {
        "help_title": _("Keyboard"),
        "help_close": _("Close"),
        "key_enter": _("Enter Space"),
        "key_escape": _("Esc"),
        "help_arrows": _("move between free tiles"),
        "help_select": _("select the tile"),
        "help_escape": _("clear the selection"),
        "help_pairs": _("say how many pairs are open"),
        "help_zoom": _("zoom in, zoom out, fit the board"),
        "help_hint": _("hint"),
        "help_undo": _("undo"),
        "help_pause": _("pause"),
        "help_help": _("this help"),
    }
