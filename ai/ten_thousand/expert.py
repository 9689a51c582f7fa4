"""The ``expert`` computer: it plays to win.

Two seats, not the last round, a target of ``exact_tables.TARGETS``: the set-aside (any of
``keep_options``) and bank-or-throw of greatest exact chance to win (``exact``). Otherwise, in
units of 50 points (``a`` its total, ``b`` the leader's of the others, ``t`` the turn points), it
weighs each ``rolls.choices`` set-aside by the worth of the state it reaches, then banks or throws
on, whichever is worth more:

1. Alone at the table (or a target above ``winmodel.MAX_MODEL_UNITS``): the most points on
   average (``tables.score_table``).
2. Last round: the best chance to end strictly above the leader, a tie half
   (``tables.reach_table(0.5)``): it never banks short of the leader while it can throw.
3. If some set-aside brings ``a + t`` to the target: only those, each worth its exact chance to win
   from there (``winmodel.finish``), a lost turn worth the model's ``1 - win[b, a]``.
4. Otherwise the two-seat model's ``u[x]`` (``winmodel.win_model``: its chance if the turn banks
   ``x``): a set-aside reaching ``t'`` with ``n`` dice is worth the best of banking (``u[t']``)
   and of throwing on under any plan of the menu, each the mean of ``u`` over the plan's final
   points from ``(t', n)`` (``tables.score_outcome``, ``tables.overshoot``); it banks unless
   throwing on is worth more by ``PREFER_BANK``. Re-choosing the plan at every throw is one step
   of policy improvement over the best fixed plan, which the model assumes of both seats.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

import numpy as np

from ai.ten_thousand import exact_tables
from ai.ten_thousand.rolls import MAX_UNITS, UNIT, Choice, choices
from ai.ten_thousand.tables import (
    OFFSET,
    REACH,
    Array,
    lazy,
    overshoot,
    pick_first,
    reach_table,
    score_outcome,
    score_table,
)
from ai.ten_thousand.winmodel import (
    MAX_MODEL_UNITS,
    PLANS,
    PREFER_BANK,
    finish,
    win_model,
)
from games.rules.ten_thousand_scoring import DICE, keep_options

#: Worths closer than this tie (float rounding): more points, and banking, are preferred.
EXACT_TIE = 1e-12


@lazy
def _plan_paths(_: None) -> Array:
    """``paths[i, n]``: (lost, then ends ``i + e`` for each ``e``) for "play for i units"."""
    over = overshoot(None)
    return np.concatenate([1.0 - over.sum(axis=2, keepdims=True), over], axis=2)


Move = tuple[tuple[int, ...], bool]


def _score_move(options: Sequence[Choice], t: int) -> Move:
    table = score_table(None)
    span = len(table.after)
    worth = [table.after[min(t + c.units, span - 1), c.left] for c in options]
    best = options[pick_first(worth, options)]
    return best.faces, table.banks(t + best.units, best.left)


def _reach_move(options: Sequence[Choice], need: int, tie: float) -> Move:
    """Best chance to gain ``need`` more units (a tie, one unit short, worth ``tie``)."""
    table = reach_table(tie)
    rows = [min(max(need - c.units, 0), REACH) + OFFSET for c in options]
    worth = [table.after[row, c.left] for row, c in zip(rows, options, strict=True)]
    best = options[pick_first(worth, options)]
    rest = need - best.units
    bank = rest <= 0 or (rest == 1 and tie >= float(table.cont[rest + OFFSET, best.left]))
    return best.faces, bank


def _finish_move(options: Sequence[Choice], lead: int, lost: float) -> Move:
    table = finish(lost, lead)
    worth = [table.worth(lead + c.units, c.left) for c in options]
    best = options[pick_first(worth, options)]
    return best.faces, table.banks(lead + best.units, best.left)


_KS = PLANS[1:]
_NEEDS = np.array(_KS)
#: ``u[_ENDS[j]]``: the worth of each end of plan ``j + 1`` (lost, then ``k + e`` units).
_ENDS = np.array([[0, *range(k, k + MAX_UNITS)] for k in _KS])


def _plan_move(options: Sequence[Choice], t: int, u: Array) -> Move:
    """Each set-aside is worth the best of banking and of throwing on under any plan of the menu;
    ``u[x]``: the chance to win if the turn banks ``x`` units (``u[0]``: lost)."""
    score_paths, plan_paths = score_outcome(None), _plan_paths(None)
    worth, banks = [], []
    for c in options:
        now, left = t + c.units, c.left
        go_on = float(score_paths[now, left] @ u)
        first = bisect_right(_KS, now)  # plans already met would bank now
        if first < len(_KS):
            spread = plan_paths[_NEEDS[first:] - now, left]
            plans = np.einsum("ij,ij->i", spread, u[_ENDS[first:]])
            go_on = max(go_on, float(plans.max()))
        bank_now = float(u[now])
        worth.append(max(bank_now, go_on))
        banks.append(bank_now >= go_on - PREFER_BANK)
    i = pick_first(worth, options)
    return options[i].faces, banks[i]


def _exact_move(key: tuple[int, ...], t: int, a: int, b: int, target: int) -> Move | None:
    turn = exact_tables.turn(target, a, b)
    if turn is None:
        return None
    u = a + t
    options = [(turn.worth(u + p // UNIT, len(key) - len(f) or DICE), p, f, len(key) - len(f))
               for f, p in keep_options(key)]  # fmt: skip
    top = max(worth for worth, *_ in options)
    _, points, faces, left = max(o for o in options if o[0] >= top - EXACT_TIE)
    now, dice = u + points // UNIT, left or DICE
    bank = turn.worth(now, dice, banks=True) >= turn.worth(now, dice, banks=False) - EXACT_TIE
    return faces, bank


def expert_move(
    key: tuple[int, ...],
    turn_points: int,
    totals: Sequence[int],
    me: int,
    target: int,
    last_round: bool,
) -> Move:
    """``best_move`` for ``expert``, the throw given as sorted faces with a scoring die."""
    if len(totals) == 2 and not last_round:
        units = -(-target // UNIT)
        a, b = totals[me] // UNIT, totals[1 - me] // UNIT
        if a < units and b < units:
            move = _exact_move(key, turn_points // UNIT, a, b, target)
            if move is not None:
                return move
    return model_move(key, turn_points, totals, me, target, last_round)


def model_move(
    key: tuple[int, ...],
    turn_points: int,
    totals: Sequence[int],
    me: int,
    target: int,
    last_round: bool,
) -> Move:
    """The expert's move from the single-turn tables and the two-seat model (see above)."""
    options = choices(key)
    t = turn_points // UNIT
    a = totals[me] // UNIT
    others = [total for seat, total in enumerate(totals) if seat != me]
    units = -(-target // UNIT)
    if not others or (units > MAX_MODEL_UNITS and not last_round):
        return _score_move(options, t)
    b = max(others) // UNIT
    if last_round:
        return _reach_move(options, b - a - t + 1, 0.5)
    model = win_model(units)
    a, b = min(a, units - 1), min(b, units - 1)
    crossing = [c for c in options if a + t + c.units >= units]
    if crossing:
        return _finish_move(crossing, a + t - b, 1.0 - float(model.win[b, a]))
    return _plan_move(options, t, model.utility(a, b))
