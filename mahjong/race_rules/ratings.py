"""Rating maths for ranked races (docs/RULES.md §Ranked play and ratings, docs/ACCOUNTS.md
§Ratings): Glicko-2, as lichess keeps ratings, over a final ranking in groups.

Pure Python, no Django: the write path (`accounts.actions.record_rated_result`) loads
ratings, calls `race_updates`, and stores what it returns.

A rating is a mean (shown, on the familiar 1500 scale), a deviation (how unsure the site
still is of it) and a volatility (how erratic the player's results have been). Every
pair of human players in a race is one game, scored 1 for the better place, 0 for the
worse and 0.5 for a tie (same place group), against the opponent's rating *before* the
race. Each race is one Glicko-2 rating period in which a player meets the other N - 1
humans, every game weighted 1 / (N - 1): a race counts as much as one ordinary game
however many took part, as the Elo it replaced did. Without the weight a 20-player race
would count as 19 independent games of one performance (docs/ACCOUNTS.md §Ratings has
the measurements that ruled out openskill's full-pairing model for the same reason).

A new player starts at 1500 ± 350; a deviation above PROVISIONAL_DEVIATION (110, the
line lichess uses) shows the rating with a "?". Idle time widens the deviation again,
one rating period per IDLE_PERIOD_DAYS without a rated race, never past the start.
The formulas and names follow Glickman, "Example of the Glicko-2 system" (2012).
"""

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
TAU = 0.5  # how fast volatility may change: Glickman suggests 0.3 to 1.2
PROVISIONAL_DEVIATION = 110.0
IDLE_PERIOD_DAYS = 7
SCALE = 173.7178  # Glicko-2's internal unit, in rating points
CONVERGENCE = 1e-6

WIN, TIE, LOSS = 1.0, 0.5, 0.0


@dataclass(frozen=True)
class Glicko:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return is_provisional(self.deviation)


def is_provisional(deviation: float) -> bool:
    return deviation > PROVISIONAL_DEVIATION


def pair_score(place: int, other_place: int) -> float:
    """A lower place number is a better place; equal places are a tie."""
    if place < other_place:
        return WIN
    return TIE if place == other_place else LOSS


def after_idle(state: Glicko, idle_days: float) -> Glicko:
    """The rating as it stands after `idle_days` without a rated race: less sure."""
    periods = max(0, int(idle_days // IDLE_PERIOD_DAYS))
    if periods == 0:
        return state
    phi = math.sqrt((state.deviation / SCALE) ** 2 + periods * state.volatility**2)
    return Glicko(state.rating, min(phi * SCALE, START_DEVIATION), state.volatility)


def race_updates(standings: Sequence[tuple[Hashable, Glicko, int]]) -> dict:
    """{player: new Glicko} for standings of (player, rating before the race, place group).

    Place groups are compared only by order (1, 1, 3 and 0, 0, 1 mean the same). Fewer
    than two players: nobody changes.
    """
    players = [player for player, _, _ in standings]
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice in the standings")
    if len(standings) < 2:
        return {player: state for player, state, _ in standings}
    weight = 1.0 / (len(standings) - 1)
    return {
        player: update(
            state,
            [
                (other, pair_score(place, other_place))
                for q, other, other_place in standings
                if q != player
            ],
            weight,
        )
        for player, state, place in standings
    }


def update(state: Glicko, games: Sequence[tuple[Glicko, float]], weight: float = 1.0) -> Glicko:
    """One Glicko-2 rating period: `games` are (opponent before the period, score), each
    counted `weight` times. Sums use math.fsum, exact whatever the order, so two players
    with the same rating, deviation and results get the very same new rating."""
    mu, phi = (state.rating - START_RATING) / SCALE, state.deviation / SCALE
    if not games:
        return after_idle(state, IDLE_PERIOD_DAYS)
    terms = [_game_terms(mu, opponent, score) for opponent, score in games]
    v = 1.0 / (weight * math.fsum(g * g * e * (1.0 - e) for g, e, _ in terms))
    gain = weight * math.fsum(g * (score - e) for g, e, score in terms)
    delta = v * gain
    volatility = _new_volatility(phi, state.volatility, v, delta)
    phi_star = math.sqrt(phi * phi + volatility * volatility)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gain
    return Glicko(SCALE * new_mu + START_RATING, SCALE * new_phi, volatility)


def _game_terms(mu: float, opponent: Glicko, score: float) -> tuple[float, float, float]:
    """(g of the opponent's deviation, expected score against them, actual score)."""
    phi_j = opponent.deviation / SCALE
    g = 1.0 / math.sqrt(1.0 + 3.0 * phi_j * phi_j / (math.pi * math.pi))
    mu_j = (opponent.rating - START_RATING) / SCALE
    return g, 1.0 / (1.0 + math.exp(-g * (mu - mu_j))), score


def _new_volatility(phi: float, sigma: float, v: float, delta: float) -> float:
    """Step 5 of Glickman's example: the Illinois method on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        return top / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (TAU * TAU)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        high = a - k * TAU
    f_low, f_high = f(low), f(high)
    while abs(high - low) > CONVERGENCE:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high < 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)
