"""Words for a win's place among the player's own wins, in the player's language."""

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st… (Spanish: 1.º, 2.º…): each form is its own
    message, so a language picks its own suffixes."""
    if n % 100 in (11, 12, 13):
        pattern = pgettext("ordinal 11, 12, 13", "%(n)sth")
    elif n % 10 == 1:
        pattern = pgettext("ordinal 1", "%(n)sst")
    elif n % 10 == 2:
        pattern = pgettext("ordinal 2", "%(n)snd")
    elif n % 10 == 3:
        pattern = pgettext("ordinal 3", "%(n)srd")
    else:
        pattern = pgettext("ordinal 0, 4-9", "%(n)sth")
    return pattern % {"n": n}


def not_a_record(game) -> str:
    """Why a win is practice only (docs/RULES.md §Records and boards)."""
    if game.pace_flagged:
        return _(
            "practice: played faster than people play, so it is not a record until we have "
            "looked at it"
        )
    if game.ghost:
        return _("a ghost race: the deal was seen in its replay, so it is not a record")
    if game.played_offline:
        return _("practice: played offline, so its pace could not be checked")
    if game.seen_before:
        return _(
            "practice: you had seen this deal before (in practice or a race), so it is not a record"
        )
    return _("practice: hints used, so it is not a record")


def rank_text(rank: int) -> str:
    """ "your best!" for a first place, else "your 3rd best"."""
    if rank == 1:
        return _("your best!")
    # Translators: %(ordinal)s is "2nd", "3rd"… (the ordinal messages).
    return _("your %(ordinal)s best") % {"ordinal": ordinal(rank)}
