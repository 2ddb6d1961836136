"""Rating maths for ranked races (docs/RULES.md §Ranked play and ratings): pairwise Elo
over a final ranking in groups.

Pure Python, no Django: the write path (`accounts.actions.record_rated_result`) loads
ratings, calls `rating_changes`, and stores what it returns.

Every pair of human players in a race is one game, scored 1 for the better place, 0 for
the worse and 0.5 for a tie (same place group). With N players and expected score
E = 1 / (1 + 10 ** ((Rb - Ra) / 400)), a player's new rating is

    R' = R + K / (N - 1) * sum over the other players of (S - E)

so a race counts as much as one ordinary Elo game however many took part.

Choices this site made (docs/RULES.md §Ranked play and ratings):
- START_RATING = 1500, the usual Elo centre.
- K = 32, the usual K for club play; with the division by N - 1 one race moves a
  rating by at most 32 points.
- A rating is provisional for its first PROVISIONAL_GAMES = 10 rated races; the mark is
  shown only, the maths is the same for everyone, so rating changes always sum to zero.
"""

from collections.abc import Hashable, Mapping, Sequence

START_RATING = 1500.0
K = 32.0
PROVISIONAL_GAMES = 10

WIN, TIE, LOSS = 1.0, 0.5, 0.0


def expected_score(rating: float, opponent: float) -> float:
    """The score `rating` is expected to take from one game against `opponent`."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def pair_score(place: int, other_place: int) -> float:
    """A lower place number is a better place; equal places are a tie."""
    if place < other_place:
        return WIN
    return TIE if place == other_place else LOSS


def rating_changes(
    standings: Sequence[tuple[Hashable, float, int]], k: float | Mapping = K
) -> dict:
    """{player: rating change} for standings of (player, rating, place group).

    Place groups are compared only by order (1, 1, 3 and 0, 0, 1 mean the same). `k` is
    one number for everyone or a {player: K} mapping. Fewer than two players: no change.
    """
    players = [player for player, _, _ in standings]
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice in the standings")
    n = len(standings)
    if n < 2:
        return {player: 0.0 for player in players}
    return {
        player: _k_of(k, player) / (n - 1) * _score_minus_expected(rating, place, standings)
        for player, rating, place in standings
    }


def _score_minus_expected(rating, place, standings) -> float:
    # The player's own row is summed too: it adds exactly 0.5 - 0.5 = 0. Summing every
    # row in the same order makes two players of equal rating and place add the very
    # same floats, so they keep exactly equal ratings, not merely close ones
    # (docs/RULES.md §Ranked play and ratings).
    return sum(
        pair_score(place, other_place) - expected_score(rating, other_rating)
        for _, other_rating, other_place in standings
    )


def _k_of(k, player) -> float:
    return k[player] if isinstance(k, Mapping) else k


def is_provisional(rated_games: int) -> bool:
    return rated_games < PROVISIONAL_GAMES
