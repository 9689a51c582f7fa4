"""The rules of the games, as a pure library: no Django import anywhere below this package.

Each game module (``yatzy``, ``ten_thousand``) exposes the same functions, so the server drives
every game through one path:

``start(seats, options) -> list[Event]``
    the events that open a game (validates the options);
``decide(state, command, roller) -> list[Event]``
    what happens when a seat issues a command; raises ``RuleError`` for an illegal one;
``apply(state, event) -> State``
    folds one event into the state (``state`` is ``None`` for the first event);
``command_from_wire(data, seat) -> Command``, ``event_from_wire(data) -> Event``,
``state_from_wire(data) -> State``, ``options_from_wire(data) -> Options``
    decode the JSON forms (``Event.to_wire()`` / ``State.to_wire()`` encode); stored data this
    engine never wrote raises ``WireError``.

A game is the replay of its events: ``replay(module, events)`` rebuilds the state exactly.
"""

from games.rules.base import DiceRoller, RuleError, replay, secure_roller

__all__ = ["DiceRoller", "RuleError", "replay", "secure_roller"]
