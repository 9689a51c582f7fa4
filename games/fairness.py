"""A game's fair dice (``games.rules.fairness``): the commitment at the start, the roller of each
move, the reveal at the end, what the game answer says of them, and a check of a whole game.

The server seed lives in ``Game.server_seed`` alone, and leaves it only through ``revealed_seed``,
which gives it once the game is over: in the finished event, the game answer, the admin.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from games.dice import dice_roller
from games.kinds import WireEvent, kind_for
from games.models import Game, GameStatus, Seat
from games.rules import DiceRoller
from games.rules import fairness as rules

#: The setting's production value: with it, games that committed to a seed roll by the seed; a
#: test that sets a roller of its own (``tests/doubles.py``) rolls that instead.
PRODUCTION_ROLLER = "games.rules.secure_roller"


def fair_dice_on() -> bool:
    """The server rolls by the seeds: always, but where a test rolls dice of its own."""
    return settings.GAMES_DICE_ROLLER == PRODUCTION_ROLLER


def commit(game: Game, seats: Sequence[Seat]) -> rules.Commitment | None:
    """Draw the game's seed and fix its client seed (at the start): the commitment to publish.
    None where a test rolls its own dice: the game then commits to nothing, as before fair dice."""
    if not fair_dice_on():
        return None
    seed = rules.new_server_seed()
    game.server_seed = seed.hex()
    game.server_seed_hash = rules.seed_hash(seed)
    game.client_seed = rules.game_client_seed([seat.client_seed for seat in seats])
    game.dice_rolls = 0
    return rules.Commitment(server_seed_hash=game.server_seed_hash, client_seed=game.client_seed)


#: The game row's columns ``commit`` sets (beside ``dice_rolls``, which every move saves).
COMMITTED_FIELDS = ("server_seed", "server_seed_hash", "client_seed")


def roller_for(game: Game) -> DiceRoller:
    """The dice of the game's next move: its seed's (from the next nonce), unless a test set a
    roller of its own or the game has no seed (started before fair dice: the CSPRNG)."""
    if fair_dice_on() and game.server_seed:
        return rules.FairDice(bytes.fromhex(game.server_seed), game.client_seed, game.dice_rolls)
    return dice_roller()


def after_decision(game: Game, roller: DiceRoller, events: Sequence[WireEvent]) -> list[Any]:
    """The move's events as stored: the seed revealed in a finished event; counts its rolls."""
    engine = kind_for(game.kind).engine
    rolls = sum(engine.dice_thrown(event) is not None for event in events)
    if isinstance(roller, rules.FairDice):
        # Each engine throws at most once per move, so the roller's one call is the move's roll.
        assert roller.calls <= rolls <= 1, (roller.calls, rolls)
    game.dice_rolls += rolls
    if game.server_seed:
        return rules.revealed(events, bytes.fromhex(game.server_seed))
    return list(events)


#: The statuses of a game that is over: its seed is revealed.
OVER = frozenset({GameStatus.FINISHED, GameStatus.ABORTED})


def revealed_seed(game: Game) -> str | None:
    """The server seed, once the game is over (finished or aborted); None before (and for a game
    without one)."""
    if game.status in OVER and game.server_seed:
        return game.server_seed
    return None


def fairness_body(game: Game) -> dict[str, Any] | None:
    """The game answer's ``fairness``: None until the game starts."""
    if game.status == GameStatus.OPEN:
        return None
    committed = bool(game.server_seed_hash)
    return {
        "verifiable": committed,
        "algorithm": rules.ALGORITHM if committed else None,
        "server_seed_hash": game.server_seed_hash or None,
        "client_seed": game.client_seed if committed else None,
        "server_seed": revealed_seed(game),
    }


# --- checking a game from its log ---------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """What ``verify_game`` found."""

    verifiable: bool
    #: The seed's hash is the one published at the start.
    commitment_holds: bool = False
    #: The seed was revealed (the game is over); else it was read from the game row.
    revealed: bool = False
    rolls: int = 0
    #: The rolls that differ, with the seq of their event.
    mismatches: tuple[tuple[int, rules.Mismatch], ...] = ()

    @property
    def ok(self) -> bool:
        return self.verifiable and self.commitment_holds and not self.mismatches


def verify_game(game: Game) -> Check:
    """Recompute every roll of ``game`` from its log: the commitment and client seed of its
    started event, the seed of its finished event (or, before the end, of its row)."""
    engine = kind_for(game.kind).engine
    rows = list(game.events.order_by("seq"))
    events = [engine.event_from_wire(row.data) for row in rows]
    commitment = rules.commitment_of(events[0]) if events else None
    if commitment is None:
        return Check(verifiable=False)
    revealed = next(
        (getattr(e, "server_seed", None) for e in events if e.type in rules.ENDINGS), None
    )
    seed = bytes.fromhex(revealed or game.server_seed)
    rolls = [
        (row.seq, thrown)
        for row, event in zip(rows, events, strict=True)
        if (thrown := engine.dice_thrown(event)) is not None
    ]
    wrong = rules.verify(seed, commitment.client_seed, (thrown for _, thrown in rolls))
    return Check(
        verifiable=True,
        commitment_holds=rules.commitment_holds(seed, commitment.server_seed_hash),
        revealed=revealed is not None,
        rolls=len(rolls),
        mismatches=tuple((rolls[m.nonce][0], m) for m in wrong),
    )
