"""The places a ranked race rates (docs/RULES.md §Ranked play and ratings): every human
whose result counts (docs/RULES.md §Fair play), ranked among the humans only, a board
mostly played by a stand-in counted as given up where its human left it. Read by the
race's end (rooms/race/end.py) and by an admin's clearing of a pace flag
(rooms/ranked/fair_play.py), so both rate by one rule."""

from fractions import Fraction

from mahjong.race_rules import ranking
from mahjong.rules import time_limit_ms
from rooms.models import Entry, Race


def rated_places(race: Race, entries: list[Entry], counts) -> list[tuple[Entry, int]]:
    """(entry, place among the rated humans) for the human entries `counts` accepts."""
    humans = {e.pk: e for e in entries if e.seat.player_id is not None and counts(e)}
    standings = [rated_standing(e) for e in humans.values()]
    places = ranking.rank(standings, time_limit_ms(race.rules))
    return [(humans[r.key], r.place) for r in places]


def rated_standing(entry: Entry) -> ranking.Standing:
    """What a rating counts of a board: the player's own play. A stand-in that made more
    than half its pairs makes it a give-up at the human's progress (docs/RULES.md
    §Leaving)."""
    if entry.cpu_pairs * 2 <= entry.pairs_removed:
        return entry.standing()
    own = Fraction((entry.pairs_removed - entry.cpu_pairs) * 2, entry.tile_count)
    return ranking.Standing(entry.pk, Entry.Status.GAVE_UP, own)
