"""The rules of the games, as a pure library: no Django import anywhere below this package.

Each game module (one per kind) exposes the same functions, so the server drives every game
through one path: ``start(seats, options, fairness=None)`` (the opening events; ``fairness``: the
fair dice's ``Commitment``), ``decide(state, command, roller)`` (a command's events, or
``RuleError``), ``apply(state, event)`` (``state`` None for the first event), ``replay(events)``
(a game is exactly the fold of its events), ``dice_thrown(event)`` (the dice a roll threw, in
order, for ``fairness``; None for no roll), and ``command_from_wire``, ``event_from_wire``,
``state_from_wire``, ``options_from_wire`` (the JSON forms, written by ``base.WireForm``; stored
data the engine never wrote raises ``WireError``).
"""

from games.rules.base import DiceRoller, RuleError, secure_roller

__all__ = ["DiceRoller", "RuleError", "secure_roller"]
