"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system"). Pure Python, no Django. A
multi-seat game is one rating period in which every seat played every other, scored by placement.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Glicko-2 scale: mu = (rating - 1500) / SCALE, phi = deviation / SCALE.
SCALE = 173.7178
BASE = 1500.0
#: Convergence tolerance of the volatility iteration.
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def update(player: Rating, results: Sequence[tuple[Rating, float]], *, tau: float = 0.5) -> Rating:
    """The player's rating after one period with ``results`` (opponent, score 1 / 0.5 / 0)."""
    if tau <= 0:
        raise ValueError("tau must be positive")
    mu = (player.rating - BASE) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:  # only step 6: the deviation grows
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)

    # Steps 3 and 4: estimated variance and improvement.
    terms = []
    for opponent, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError("scores are between 0 and 1")
        g_j = _g(opponent.deviation / SCALE)
        e_j = _expected(mu, (opponent.rating - BASE) / SCALE, g_j)
        terms.append((g_j, e_j, score))
    v = 1.0 / sum(g_j * g_j * e_j * (1.0 - e_j) for g_j, e_j, _ in terms)
    gain = sum(g_j * (score - e_j) for g_j, e_j, score in terms)
    delta = v * gain

    # Step 5: new volatility, by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)

    # Steps 6 to 8: pre-period deviation, new deviation and rating, back to the Glicko scale.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gain
    return Rating(SCALE * new_mu + BASE, SCALE * new_phi, new_sigma)


def pairwise_results(places: Sequence[int]) -> list[list[float]]:
    """``[i][j]``: seat i's score against seat j, 1 if it placed ahead, 0.5 level, 0 behind."""
    return [[1.0 if a < b else 0.5 if a == b else 0.0 for b in places] for a in places]


def update_table(
    ratings: Sequence[Rating], places: Sequence[int], *, tau: float = 0.5
) -> list[Rating]:
    """Every seat's new rating after one game, each against every other (one rating period)."""
    if len(ratings) != len(places):
        raise ValueError("one place per rating")
    scores = pairwise_results(places)
    return [
        update(
            mine,
            [(theirs, scores[i][j]) for j, theirs in enumerate(ratings) if j != i],
            tau=tau,
        )
        for i, mine in enumerate(ratings)
    ]
