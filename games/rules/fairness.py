"""Provably fair dice: commit, then reveal. Pure Python, no Django.

The server publishes only the SHA-256 of its 32-byte ``server_seed`` (``seed_hash``); the event
that ends the game (finished or aborted) carries the seed, and anyone can recompute every roll from
the log. Each die is a byte of HMAC-SHA256(key = the seed's bytes, UTF-8 message) for block = 0, 1,
2, ...: a byte ``b < 252`` gives ``b % 6 + 1``, others are skipped (252 is the largest multiple of
6 a byte holds: every face equally likely). A roll draws as many dice as it throws, in the order
of the positions it fills, and every roll takes a number, even one that throws none.

- version 1 (``hmac-sha256-v1``, games created before version 2): the seed is drawn at the start;
  the game's client seed is the seats' joined with ``","``; rolls are numbered from 0 across the
  game; message ``f"{client_seed}:{nonce}:{block}"`` (``dice``, ``FairDice``, ``verify``);
- version 2 (``hmac-sha256-v2``): the seed is drawn when the game is made, so its hash is shown
  before anyone gives a client seed; each seat gives its own until its first roll, whose event
  records it (``RollSeed``); a seat's rolls are numbered among its own; message
  ``f"{seat_client_seed}:{seat}:{nonce}:{block}"`` (``seat_dice``, ``SeatDice``, ``verify_seats``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, TypeVar

from games.rules.base import Wire, WireError, WireForm, one_of

SEED_BYTES = 32
MAX_CLIENT_SEED = 64
#: Bytes at or above this are skipped: 252 = 42 * 6.
BYTE_LIMIT = 252
ALGORITHM_V1 = "hmac-sha256-v1"
ALGORITHM_V2 = "hmac-sha256-v2"
#: Each algorithm's fairness version.
VERSIONS = {ALGORITHM_V1: 1, ALGORITHM_V2: 2}

_HEX_64 = re.compile(r"[0-9a-f]{64}")
_PRINTABLE = re.compile(rf"[\x20-\x7e]{{1,{MAX_CLIENT_SEED}}}")


def new_server_seed() -> bytes:
    """32 bytes from the operating system's cryptographic RNG."""
    return secrets.token_bytes(SEED_BYTES)


def seed_hash(server_seed: bytes) -> str:
    """The commitment: SHA-256 of the seed's bytes, lowercase hex."""
    return hashlib.sha256(server_seed).hexdigest()


def is_client_seed(value: object) -> bool:
    """1 to 64 printable ASCII characters (space to tilde)."""
    return isinstance(value, str) and _PRINTABLE.fullmatch(value) is not None


def game_client_seed(seat_seeds: Sequence[str]) -> str:
    """Version 1: the game's client seed, each seat's (empty if it gave none), in seat order,
    joined by commas."""
    return ",".join(seat_seeds)


def _faces(server_seed: bytes, prefix: str, count: int) -> tuple[int, ...]:
    """``count`` dice from the bytes of HMAC-SHA256(server seed, f"{prefix}:{block}")."""
    faces: list[int] = []
    block = 0
    while len(faces) < count:
        message = f"{prefix}:{block}".encode()
        for byte in hmac.new(server_seed, message, hashlib.sha256).digest():
            if byte < BYTE_LIMIT:
                faces.append(byte % 6 + 1)
                if len(faces) == count:
                    break
        block += 1
    return tuple(faces)


def dice(server_seed: bytes, client_seed: str, nonce: int, count: int) -> tuple[int, ...]:
    """Version 1: the ``count`` dice of the game's roll number ``nonce``."""
    return _faces(server_seed, f"{client_seed}:{nonce}", count)


def seat_dice(
    server_seed: bytes, client_seed: str, seat: int, nonce: int, count: int
) -> tuple[int, ...]:
    """Version 2: the ``count`` dice of ``seat``'s own roll number ``nonce``, by its client
    seed."""
    return _faces(server_seed, f"{client_seed}:{seat}:{nonce}", count)


class FairDice:
    """Version 1: a roller (``DiceRoller``) that draws by ``dice``, numbering its rolls from
    ``nonce``."""

    def __init__(self, server_seed: bytes, client_seed: str, nonce: int) -> None:
        self._seed = server_seed
        self.client_seed = client_seed
        self.nonce = nonce
        self.calls = 0

    def __call__(self, count: int) -> tuple[int, ...]:
        faces = self._draw(self.nonce + self.calls, count)
        self.calls += 1
        return faces

    def _draw(self, nonce: int, count: int) -> tuple[int, ...]:
        return dice(self._seed, self.client_seed, nonce, count)


class SeatDice(FairDice):
    """Version 2: a roller for ``seat``'s rolls, by ``seat_dice``, numbering them from
    ``nonce`` (the rolls the seat has made)."""

    def __init__(self, server_seed: bytes, client_seed: str, seat: int, nonce: int) -> None:
        super().__init__(server_seed, client_seed, nonce)
        self.seat = seat

    def _draw(self, nonce: int, count: int) -> tuple[int, ...]:
        return seat_dice(self._seed, self.client_seed, self.seat, nonce, count)


def _hex_64(value: str) -> str:
    if _HEX_64.fullmatch(value) is None:
        raise WireError(f"not 64 lowercase hex digits: {value!r}")
    return value


@dataclass(frozen=True)
class Commitment(WireForm):
    """What a game's ``game_started`` event publishes: the seed's hash, the algorithm, and in
    version 1 the game's client seed (version 2 records each seat's in its first roll)."""

    server_seed_hash: Annotated[str, Wire(check=_hex_64)]
    client_seed: Annotated[str | None, Wire(omitted_if_none=True)] = None
    algorithm: Annotated[str, one_of(tuple(VERSIONS), "fair dice algorithm")] = ALGORITHM_V1

    def __post_init__(self) -> None:
        if (self.client_seed is not None) != (self.version == 1):
            raise WireError("a version 1 commitment names the client seed, and only it does")

    @property
    def version(self) -> int:
        return VERSIONS[self.algorithm]


def _seed_hex(value: str | None) -> str | None:
    return None if value is None else _hex_64(value)


def _roll_seed(value: str | None) -> str | None:
    if value is None or value == "" or is_client_seed(value):
        return value
    raise WireError(f"not a client seed: {value!r}")


#: The server seed in a finished event, lowercase hex; absent from the wire when not revealed.
RevealedSeed = Annotated[str | None, Wire(check=_seed_hex, omitted_if_none=True)]
#: The commitment in a started event; absent from the wire for a game without one.
StartCommitment = Annotated[Commitment | None, Wire(omitted_if_none=True)]
#: Version 2: in a seat's first roll, the client seed of its rolls (``""``: none); else absent.
RollSeed = Annotated[str | None, Wire(check=_roll_seed, omitted_if_none=True)]

E = TypeVar("E")


#: The events that end a game, which reveal its seed.
ENDINGS = frozenset({"game_finished", "game_aborted"})


def revealed(events: Sequence[E], server_seed: bytes) -> list[E]:
    """``events`` with the seed written into the event that ends the game, if there is one
    (``game_finished``, or ``game_aborted`` for a game called off)."""
    return [
        replace(event, server_seed=server_seed.hex())  # type: ignore[type-var]
        if getattr(event, "type", None) in ENDINGS
        else event
        for event in events
    ]


def seeded(roll: E, client_seed: str) -> E:
    """Version 2: the event of a seat's first roll, with the client seed it fixes."""
    return replace(roll, client_seed=client_seed)  # type: ignore[type-var]


@dataclass(frozen=True)
class Mismatch:
    """A roll whose dice are not the ones the seeds give."""

    #: The roll's place among every roll of the game, from 0.
    roll: int
    #: Its nonce: ``roll`` in version 1; in version 2 its place among its seat's rolls.
    nonce: int
    expected: tuple[int, ...]
    actual: tuple[int, ...]
    #: Version 2: the roll's seat.
    seat: int | None = None
    #: Version 2: a first roll naming no client seed (``expected``: the empty seed's dice).
    unseeded: bool = False


def verify(server_seed: bytes, client_seed: str, rolls: Iterable[Sequence[int]]) -> list[Mismatch]:
    """Version 1: every roll (the dice it threw, in order) that differs from the seeds' dice."""
    wrong = []
    for nonce, thrown in enumerate(rolls):
        actual = tuple(thrown)
        expected = dice(server_seed, client_seed, nonce, len(actual))
        if expected != actual:
            wrong.append(Mismatch(nonce, nonce, expected, actual))
    return wrong


@dataclass(frozen=True)
class SeatRoll:
    """Version 2: one roll of a game's log, as ``verify_seats`` reads it."""

    seat: int
    #: The dice it threw, in order.
    thrown: tuple[int, ...]
    #: The client seed the event names (a seat's first roll), else None.
    client_seed: str | None = None


def verify_seats(server_seed: bytes, rolls: Iterable[SeatRoll]) -> list[Mismatch]:
    """Version 2: every roll of the game (in order) that differs from its seat's dice, by the
    client seed its seat's first roll names; a first roll that names none is wrong too."""
    seeds: dict[int, str] = {}
    made: dict[int, int] = {}
    wrong = []
    for index, roll in enumerate(rolls):
        nonce = made.get(roll.seat, 0)
        made[roll.seat] = nonce + 1
        unseeded = nonce == 0 and roll.client_seed is None
        if nonce == 0:
            seeds[roll.seat] = roll.client_seed or ""
        expected = seat_dice(server_seed, seeds[roll.seat], roll.seat, nonce, len(roll.thrown))
        if unseeded or expected != roll.thrown:
            wrong.append(Mismatch(index, nonce, expected, roll.thrown, roll.seat, unseeded))
    return wrong


def commitment_holds(server_seed: bytes, server_seed_hash: str) -> bool:
    return hmac.compare_digest(seed_hash(server_seed), server_seed_hash)


def commitment_of(event: Any) -> Commitment | None:
    """The commitment of a ``game_started`` event (None: a game from before fair dice)."""
    found = getattr(event, "fairness", None)
    return found if isinstance(found, Commitment) else None
