"""A game's fair dice (``games.rules.fairness``): the seed drawn when the game is made, the seats'
client seeds, each move's roller, the reveal at the end, the game answer's account of them, and a
check of a whole game.

Version 2 (new games): the seed is drawn in ``game_create`` (``commit``), so its hash shows from
the moment the game exists; each seat rolls by its own client seed, which it may change until its
first roll, whose event records it. Version 1 (older games, to their end): drawn at the start, one
client seed of the seats' joined. The server seed leaves ``Game.server_seed`` only through
``revealed_seed``, once the game is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Protocol, TypedDict, cast

from django.conf import settings

from config.vocabulary.refusals import Refusal
from games.fairness.dice import dice_roller
from games.kinds import WireEvent, kind_for
from games.models import Game, GameStatus, Seat
from games.rules import DiceRoller
from games.rules import fairness as rules
from games.rules.base import Doc

#: The setting's production value: with it, games that committed to a seed roll by the seed; a
#: test that sets a roller of its own (``tests/doubles.py``) rolls that instead.
PRODUCTION_ROLLER = "games.rules.secure_roller"
#: The fairness version of the games made now.
VERSION = 2
ALGORITHMS = {1: rules.ALGORITHM_V1, 2: rules.ALGORITHM_V2}


class RollEvent(WireEvent, Protocol):
    """A ``dice_rolled`` event of either kind (``engine.dice_thrown`` is not None for it)."""

    seat: int
    client_seed: str | None


def fair_dice_on() -> bool:
    """The server rolls by the seeds: always, but where a test rolls dice of its own."""
    return settings.GAMES_DICE_ROLLER == PRODUCTION_ROLLER


def commit(game: Game, seats: int) -> None:
    """A new game's seed (version 2), drawn before its row is first saved; none where a test
    rolls its own dice (the game commits to nothing, as before fair dice)."""
    game.fairness_version = VERSION
    game.seat_rolls = [0] * seats
    if not fair_dice_on():
        return
    seed = rules.new_server_seed()
    game.server_seed = seed.hex()
    game.server_seed_hash = rules.seed_hash(seed)


def start_commitment(game: Game, seats: Sequence[Seat]) -> rules.Commitment | None:
    """The commitment the game's started event publishes. A version 1 game (made before version
    2, started after) draws its seed and joins its seats' client seeds now, as it then did."""
    if game.fairness_version == 1:
        if not fair_dice_on():
            return None
        seed = rules.new_server_seed()
        game.server_seed = seed.hex()
        game.server_seed_hash = rules.seed_hash(seed)
        game.client_seed = rules.game_client_seed([seat.client_seed for seat in seats])
        return rules.Commitment(
            server_seed_hash=game.server_seed_hash, client_seed=game.client_seed
        )
    if not game.server_seed_hash:
        return None
    return rules.Commitment(server_seed_hash=game.server_seed_hash, algorithm=rules.ALGORITHM_V2)


#: The game row's columns ``start_commitment`` may set (beside ``dice_rolls`` and
#: ``seat_rolls``, which every move saves).
COMMITTED_FIELDS = ("server_seed", "server_seed_hash", "client_seed")


def seat_rolls(game: Game, seat: int) -> int:
    """Version 2: the rolls ``seat`` has made, its next roll's nonce."""
    rolls: list[int] = game.seat_rolls
    return rolls[seat] if seat < len(rolls) else 0


def seed_fixed(game: Game, seat: int) -> bool:
    """Whether ``seat``'s client seed can no longer change: once it has rolled (version 1: once
    the game has started, when the seats' seeds were joined)."""
    if game.fairness_version == 1:
        return game.status != GameStatus.OPEN
    return seat_rolls(game, seat) > 0


def seat_seed_give(game: Game, seat: int, client_seed: object) -> None:
    """The seat's client seed, given with a command (the game and its seats locked): until the
    seat's first roll it replaces the one it had; after it, only the same seed is taken (as a
    repeat), another is refused (``client_seed_fixed``)."""
    if not rules.is_client_seed(client_seed):
        raise Refusal.INVALID_CLIENT_SEED.error(field="client_seed")
    assert isinstance(client_seed, str)
    row = game.seats.all()[seat]
    if row.client_seed == client_seed:
        return
    if seed_fixed(game, seat):
        raise Refusal.CLIENT_SEED_FIXED.error(field="client_seed")
    row.client_seed = client_seed
    row.save(update_fields=["client_seed"])


def roller_for(game: Game, seat: int) -> DiceRoller:
    """The dice of the game's next move, ``seat``'s: its seed's, unless a test set a roller of
    its own or the game has no seed (started before fair dice: the CSPRNG)."""
    if not (fair_dice_on() and game.server_seed):
        return dice_roller()
    seed = bytes.fromhex(game.server_seed)
    if game.fairness_version == 1:
        return rules.FairDice(seed, game.client_seed, game.dice_rolls)
    client_seed = game.seats.all()[seat].client_seed
    return rules.SeatDice(seed, client_seed, seat, seat_rolls(game, seat))


def after_decision(game: Game, roller: DiceRoller, events: Sequence[WireEvent]) -> list[Any]:
    """The move's events as stored: the seed revealed in a finished event; in version 2 a
    seat's first roll names its client seed. Counts the rolls."""
    engine = kind_for(game.kind).engine
    stored: list[Any] = []
    rolls = 0
    for event in events:
        if engine.dice_thrown(event) is not None:
            rolls += 1
            roll = cast(RollEvent, event)
            if isinstance(roller, rules.SeatDice):  # the roll is the seat's it was drawn for
                assert roll.seat == roller.seat, (roll.seat, roller.seat)
            if game.fairness_version != 1:
                event = _seat_roll(game, roll)
        stored.append(event)
    if isinstance(roller, rules.FairDice | rules.SeatDice):
        # Each engine throws at most once per move, so the roller's one call is the move's roll.
        assert roller.calls <= rolls <= 1, (roller.calls, rolls)
    game.dice_rolls += rolls
    if game.server_seed:
        return rules.revealed(stored, bytes.fromhex(game.server_seed))
    return stored


def _seat_roll(game: Game, event: RollEvent) -> RollEvent:
    """Version 2: one more roll of the event's seat; its first names the seat's client seed
    (in a game with a seed: one without records nothing of fair dice)."""
    seat = event.seat
    counts = list(game.seat_rolls)
    counts += [0] * (seat + 1 - len(counts))
    first = counts[seat] == 0
    counts[seat] += 1
    game.seat_rolls = counts
    if first and game.server_seed:
        return rules.seeded(event, game.seats.all()[seat].client_seed)
    return event


#: The statuses of a game that is over: its seed is revealed.
OVER = frozenset({GameStatus.FINISHED, GameStatus.ABORTED})


def revealed_seed(game: Game) -> str | None:
    """The server seed, once the game is over (finished or aborted); None before."""
    if game.status in OVER and game.server_seed:
        return game.server_seed
    return None


class FairSeat(TypedDict):
    seat: int
    client_seed: Annotated[str, Doc("The seat's client seed; empty if it gave none")]
    fixed: Annotated[bool, Doc("The seat has rolled: its client seed can no longer change")]


class Fairness(TypedDict):
    """A game's fair dice (README, "Fair dice"); null for a game of version 1 before its start
    (it draws its seed then)."""

    version: Annotated[int | None, Doc("The rolls' formula, 1 or 2 (null: a game without a seed)")]
    verifiable: Annotated[bool, Doc("False for a game from before fair dice: not checkable")]
    algorithm: str | None
    server_seed_hash: Annotated[str | None, Doc("SHA-256 of the server seed, shown once drawn")]
    client_seed: Annotated[str | None, Doc("Version 1: the seats' client seeds joined; else null")]
    seats: Annotated[list[FairSeat] | None, Doc("Version 2: each seat's client seed; else null")]
    server_seed: Annotated[str | None, Doc("The server seed (hex), once the game is over")]


def fairness_body(game: Game) -> Fairness | None:
    """The game answer's ``fairness`` (see ``Fairness``)."""
    if game.fairness_version == 1 and game.status == GameStatus.OPEN:
        return None
    if not game.server_seed_hash:
        return {
            "version": None,
            "verifiable": False,
            "algorithm": None,
            "server_seed_hash": None,
            "client_seed": None,
            "seats": None,
            "server_seed": None,
        }
    version = game.fairness_version
    seats: list[FairSeat] | None = None
    if version != 1:
        seats = [
            {
                "seat": seat.index,
                "client_seed": seat.client_seed,
                "fixed": seat_rolls(game, seat.index) > 0,
            }
            for seat in game.seats.all()
        ]
    return {
        "version": version,
        "verifiable": True,
        "algorithm": ALGORITHMS[version],
        "server_seed_hash": game.server_seed_hash,
        "client_seed": game.client_seed if version == 1 else None,
        "seats": seats,
        "server_seed": revealed_seed(game),
    }


@dataclass(frozen=True)
class Check:
    verifiable: bool
    #: The fairness version the log's commitment names.
    version: int | None = None
    #: The seed's hash is the one published at the start.
    commitment_holds: bool = False
    #: The seed was revealed (the game is over); else it was read from the game row.
    revealed: bool = False
    rolls: int = 0
    #: Version 2: each seat's client seed, as its first roll names it (seats that rolled).
    seat_seeds: tuple[tuple[int, str], ...] = ()
    #: The rolls that differ, with the seq of their event.
    mismatches: tuple[tuple[int, rules.Mismatch], ...] = ()

    @property
    def ok(self) -> bool:
        return self.verifiable and self.commitment_holds and not self.mismatches


def verify_game(game: Game) -> Check:
    """Recompute every roll of ``game`` from its log: the commitment of its started event, the
    client seeds (version 1: the commitment's; version 2: each seat's first roll's), the seed
    of its finished event (or, before the end, of its row)."""
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
        (row.seq, cast(RollEvent, event), thrown)
        for row, event in zip(rows, events, strict=True)
        if (thrown := engine.dice_thrown(event)) is not None
    ]
    seat_seeds: dict[int, str] = {}
    if commitment.version == 1:
        assert commitment.client_seed is not None
        wrong = rules.verify(seed, commitment.client_seed, (thrown for _, _, thrown in rolls))
    else:
        read = [rules.SeatRoll(event.seat, thrown, event.client_seed) for _, event, thrown in rolls]
        for roll in read:
            seat_seeds.setdefault(roll.seat, roll.client_seed or "")
        wrong = rules.verify_seats(seed, read)
    return Check(
        verifiable=True,
        version=commitment.version,
        commitment_holds=rules.commitment_holds(seed, commitment.server_seed_hash),
        revealed=revealed is not None,
        rolls=len(rolls),
        seat_seeds=tuple(sorted(seat_seeds.items())),
        mismatches=tuple((rolls[m.roll][0], m) for m in wrong),
    )
