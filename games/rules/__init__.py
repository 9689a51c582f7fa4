"""The rules of the games, as a pure library: no Django import anywhere below this package.

Each game module (one per kind) exposes the same functions, so the server drives
every game through one path:

``start(seats, options, fairness=None) -> list[Event]``
    the events that open a game (validates the options; ``fairness``: the fair dice's commitment,
    ``fairness.Commitment``, published in the started event);
``decide(state, command, roller) -> list[Event]``
    what happens when a seat issues a command; raises ``RuleError`` for an illegal one;
``apply(state, event) -> State``
    folds one event into the state (``state`` is ``None`` for the first event);
``dice_thrown(event) -> tuple[int, ...] | None``
    the dice a roll threw, in order (None for an event that is no roll): what the fair dice
    drew (``fairness``);
``replay(events) -> State``
    folds a game's events from nothing: a game is exactly the replay of its events;
``command_from_wire(data, seat) -> Command``, ``event_from_wire(data) -> Event``,
``state_from_wire(data) -> State``, ``options_from_wire(data) -> Options``
    decode the JSON forms (``Event.to_wire()`` / ``State.to_wire()`` encode; ``base.WireForm``
    writes both ways for every class from its fields); stored data this engine never wrote raises
    ``WireError``.
"""

from games.rules.base import DiceRoller, RuleError, secure_roller

__all__ = ["DiceRoller", "RuleError", "secure_roller"]
