"""A two-seat model of the chance to win Dés 10 000, for the expert at a table of three or more
seats (two seats play the exact game: ``exact``). Units of 50 points: ``a`` is the total of the
seat to play, ``b`` its opponent's (the leader of the others), ``T`` the target.

The turn menu: plans whose distribution of banked points ``D(x)`` (``x = 0``: lost) is exact
(``tables``): "score" (the most points on average) and "play for k" (50 to 6000 points: the best
chance to reach ``k``, then bank), from the safe plays of a leader to the gambles of a seat behind.
Banking ``a + x >= T`` leaves the opponent one turn to beat the lead ``L = a + x - b`` (a tie is
worth half), with chance ``last_chance(L)`` (``reach_table(0.5)``). ``win[a, b]``, both seats
choosing the plan best for them::

    win[a, b] = max over plans of  D(0) * (1 - win[b, a])  +  sum over x >= 1 of D(x) * u(x)
    u(x) = 1 - win[b, a + x]         if a + x < T
         = 1 - last_chance(a + x - b) otherwise

A lost turn keeps both totals, so ``win[a, b]`` and ``win[b, a]`` depend on each other and on
larger sums ``a + b`` only: filled by decreasing sum, each pair a 2x2 linear system per pair of
plans, plans re-chosen until stable (0.3 s for 10 000, 0.6 s for 15 000). Past the target the
seat may throw on to widen its lead: ``finish``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ai.ten_thousand.rolls import ALL_OUTCOMES, DICE, MAX_UNITS, OUTCOMES
from ai.ten_thousand.tables import (
    SPREAD,
    Array,
    lazy,
    overshoot,
    reach_table,
    score_outcome,
)

#: The turn plans: 0 is "score", ``k > 0`` is "play for k units".
PLANS: tuple[int, ...] = (0, *range(1, 21), *range(22, 61, 2), *range(65, 121, 5))
#: Banked points from this on (units) are one in the menu: 20 000 points in one turn.
_X = SPREAD
#: Targets above this (units) get no win table (the expert then plays for points): 15 000.
MAX_MODEL_UNITS = 300
#: Leads (units) from which banking is certain enough: 15 000 points.
_FINISH_CAP = 300
#: What throwing on must gain over banking: when both are near certain, the expert banks.
PREFER_BANK = 1e-7


def last_chance(lead: int) -> float:
    """The best chance (a tie counting half) to end one last turn above a lead of ``lead`` units."""
    return reach_table(0.5).chance(lead + 1, DICE)


@lazy
def menu(_: None) -> Array:
    """``dist[j, x]``: chance that plan ``PLANS[j]`` banks ``x`` units in a fresh turn."""
    over = overshoot(None)
    dist = np.zeros((len(PLANS), _X))
    dist[0] = score_outcome(None)[0, DICE]
    for j, k in enumerate(PLANS[1:], start=1):
        dist[j, k : k + MAX_UNITS] = over[k, DICE]
        dist[j, 0] = 1.0 - dist[j, 1:].sum()
    return dist


@dataclass(frozen=True)
class WinModel:
    units: int
    #: ``win[a, b]`` for ``0 <= a, b < units``.
    win: Array
    #: ``plan[a, b]``: index into ``PLANS`` of the best plan at the start of the turn.
    plan: npt.NDArray[np.int64]
    #: ``wide[b, c]``: ``win[b, c]``, and for ``c >= units`` the last-turn chance of ``b``.
    wide: Array

    def utility(self, a: int, b: int) -> Array:
        """``u[x]``: the chance to win of the seat with ``a`` to play if its turn banks ``x``
        (``u[0]``, a lost turn: ``1 - win[b, a]``), ``x`` up to ``SPREAD - 1``."""
        return 1.0 - self.wide[b, a : a + _X]


@lazy
def win_model(units: int) -> WinModel:
    """The win table for a target of ``units`` (see the module docstring)."""
    dist = menu(None)
    lost, gains = dist[:, 0], dist[:, 1:].T
    x = np.arange(1, _X)
    lead_chance = np.array([last_chance(lead) for lead in range(units + _X + 1)])
    # wide[b, c]: chance of the seat with b to play against c; for c >= T, b plays its last turn.
    wide = np.zeros((units, units + _X))
    for seat in range(units):
        wide[seat, units:] = lead_chance[units - seat : units - seat + _X]
    win = np.zeros((units, units))
    plan = np.zeros((units, units), dtype=np.int64)
    for total in range(2 * units - 2, -1, -1):
        a = np.arange(max(0, total - units + 1), min(total, units - 1) + 1)
        b = total - a
        rev = np.arange(len(a))[::-1]  # the pair (b, a) of each pair (a, b)
        gain = (1.0 - wide[b[:, None], a[:, None] + x]) @ gains
        w = np.full(len(a), 0.5)
        rows = np.arange(len(a))
        for _ in range(50):
            j = np.argmax(lost * (1.0 - w[rev])[:, None] + gain, axis=1)
            p, g = lost[j], gain[rows, j]
            new = (p * (1.0 - p[rev] - g[rev]) + g) / (1.0 - p * p[rev])
            done = np.allclose(new, w, rtol=0.0, atol=1e-12)
            w = new
            if done:
                break
        win[a, b] = w
        plan[a, b] = j
        wide[a, b] = w
    return WinModel(units, win, plan, wide)


@lazy
def _bank_worth(_: None) -> Array:
    """``1 - last_chance(L)`` for leads up to ``_FINISH_CAP + MAX_UNITS``."""
    return 1.0 - np.array([last_chance(lead) for lead in range(_FINISH_CAP + MAX_UNITS + 1)])


@dataclass(frozen=True)
class Finish:
    """Chances to win past the target, for leads above ``lead`` (see ``finish``)."""

    lead: int
    #: From this lead on, banking is best (within ``PREFER_BANK``) whatever the dice.
    top: int
    bank: Array
    #: ``cont[L - lead, n]``: throwing ``n`` dice on at lead ``L < top``.
    cont: Array

    def banked(self, lead: int) -> float:
        return float(self.bank[min(lead, len(self.bank) - 1)])

    def worth(self, lead: int, n: int) -> float:
        """The chance to win at ``lead`` with ``n`` dice to throw, banking or not."""
        if lead >= self.top:
            return self.banked(lead)
        return max(self.banked(lead), float(self.cont[lead - self.lead, n]))

    def banks(self, lead: int, n: int) -> bool:
        return lead >= self.top or (
            self.banked(lead) >= float(self.cont[lead - self.lead, n]) - PREFER_BANK
        )


@functools.lru_cache(maxsize=64)
def finish(lost: float, lead: int) -> Finish:
    """The seat's chance to win from any lead above ``lead`` (units) past the target, banking or
    throwing on; a lost turn is worth ``lost``. Throwing on gains at most ``last_chance(L)`` and
    loses at least the six-dice farkle chance times ``1 - lost``: from the first lead ``top`` where
    that settles it everything banks, so only leads up to ``top`` are computed (a millisecond)."""
    bank = _bank_worth(None)
    floor = OUTCOMES[DICE].farkle * (1.0 - lost) + PREFER_BANK
    settled = np.flatnonzero(1.0 - bank[lead + 1 : _FINISH_CAP] <= floor)
    top = lead + 1 + int(settled[0]) if len(settled) else max(_FINISH_CAP, lead + 1)
    if top <= lead + 1:
        return Finish(lead, lead + 1, bank, np.zeros((0, DICE + 1)))
    leads = np.arange(lead, top + MAX_UNITS + 1)
    after = np.repeat(bank[leads, None], DICE + 1, axis=1)
    cont = after.copy()
    flat, o = after.reshape(-1), ALL_OUTCOMES
    cells = o.units * (DICE + 1) + o.left  # after[at + units, left] is flat[at * 7 + cells]
    for at in range(top - 1 - lead, 0, -1):
        best = np.take(flat, cells + at * (DICE + 1)).max(axis=1)
        cont[at, 1:] = np.add.reduceat(o.prob * best, o.starts) + o.farkle * lost
        after[at, 1:] = np.maximum(cont[at, 1:], bank[lead + at])
    return Finish(lead, top, bank, cont)
