"""Tournament standings with tie-breaks. Pure Python, no Django. Points per game are placement
points (``pairing.placement_points``).

* ``swiss``: 1 point per bye. Ranked by points, then Buchholz (the sum, over every game, of each
  table-mate's points; a bye adds nothing), then Sonneborn-Berger (each table-mate's points times
  your pairwise score against them: 1 ahead, 1/2 level, 0 behind), then the game score (the sum
  of your score totals).
* ``round_robin``: a bye is worth nothing (everyone sits out once). Ranked by points, then
  Sonneborn-Berger, then game score (Buchholz reported too).
* ``knockout``: points are the rounds won (decisive wins plus byes), so the furthest round reached
  ranks first; ties (the losers of one round) by seed, read back from round 1. A tied, replayed
  game is a draw in the counts but worth nothing.

Entrants equal on every criterion share a rank (1, 1, 3), then keep the order of ``entrants``.
Table-mates not in ``entrants`` (who withdrew) still count for the tie-breaks.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.tournaments.pairing import (
    Bye,
    EntrantId,
    Result,
    Round,
    bracket_order,
    bracket_slots,
    pairwise_score,
    placement_points,
)

FORMATS = ("swiss", "round_robin", "knockout")


@dataclass(frozen=True)
class Standing:
    entrant: EntrantId
    rank: int
    points: float
    buchholz: float
    sonneborn_berger: float
    game_score: int
    played: int
    wins: int
    draws: int
    losses: int
    byes: int


def standings(
    entrants: Sequence[EntrantId],
    rounds: Sequence[Round],
    results: Sequence[Result],
    *,
    format: str,
) -> list[Standing]:
    """One row per entrant, best first."""
    if format not in FORMATS:
        raise ValueError(f"unknown tournament format {format!r}")
    byes = Counter(bye.entrant for round_ in rounds for bye in round_.byes)
    points: defaultdict[EntrantId, Fraction] = defaultdict(Fraction)
    played: Counter[EntrantId] = Counter()
    wins: Counter[EntrantId] = Counter()
    draws: Counter[EntrantId] = Counter()
    game_score: Counter[EntrantId] = Counter()

    for result in results:
        best = min(result.places)
        first = result.places.count(best)
        shares = placement_points(result.places)
        for entrant, place, total, share in zip(
            result.entrants, result.places, result.totals, shares, strict=True
        ):
            played[entrant] += 1
            game_score[entrant] += total
            won = place == best and first == 1
            if won:
                wins[entrant] += 1
            elif place == best:
                draws[entrant] += 1
            # A knockout counts the games won (a tie is replayed); the other formats, placements.
            points[entrant] += int(won) if format == "knockout" else share

    bye_value = 0 if format == "round_robin" else 1
    for entrant, count in byes.items():
        points[entrant] += bye_value * count

    buchholz: defaultdict[EntrantId, Fraction] = defaultdict(Fraction)
    berger: defaultdict[EntrantId, Fraction] = defaultdict(Fraction)
    for result in results:
        seats = list(zip(result.entrants, result.places, strict=True))
        for entrant, place in seats:
            for mate, mate_place in seats:
                if mate != entrant:
                    buchholz[entrant] += points[mate]
                    berger[entrant] += points[mate] * pairwise_score(place, mate_place)

    seeds = _knockout_seeds(rounds) if format == "knockout" else {}
    unseeded = len(seeds) + 1

    def key(e: EntrantId) -> tuple[Fraction | int, ...]:
        if format == "knockout":
            return (-points[e], seeds.get(e, unseeded))
        if format == "round_robin":
            return (-points[e], -berger[e], -game_score[e])
        return (-points[e], -buchholz[e], -berger[e], -game_score[e])

    ordered = sorted(enumerate(dict.fromkeys(entrants)), key=lambda pair: (key(pair[1]), pair[0]))
    rows: list[Standing] = []
    for position, (_, e) in enumerate(ordered):
        shared = rows and key(rows[-1].entrant) == key(e)
        rows.append(
            Standing(
                entrant=e,
                rank=rows[-1].rank if shared else position + 1,
                points=float(points[e]),
                buchholz=float(buchholz[e]),
                sonneborn_berger=float(berger[e]),
                game_score=game_score[e],
                played=played[e],
                wins=wins[e],
                draws=draws[e],
                losses=played[e] - wins[e] - draws[e],
                byes=byes[e],
            )
        )
    return rows


def _knockout_seeds(rounds: Sequence[Round]) -> dict[EntrantId, int]:
    """Seeds read back from round 1 of a bracket made by ``pairing.knockout_bracket``."""
    if not rounds:
        return {}
    try:
        slots = bracket_slots(min(rounds, key=lambda round_: round_.number))
        order = bracket_order(2 * len(slots))
    except ValueError:
        return {}
    seeds: dict[EntrantId, int] = {}
    for slot, high, low in zip(slots, order[::2], order[1::2], strict=True):
        if isinstance(slot, Bye):
            seeds[slot.entrant] = high
        else:
            seeds[slot.entrants[0]], seeds[slot.entrants[1]] = high, low
    return seeds
