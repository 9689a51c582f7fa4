"""Provably fair dice: commit, then reveal. Pure Python, no Django.

When a game starts the server draws a 32-byte ``server_seed`` and publishes only its SHA-256
(``seed_hash``). Each seat may give a ``client_seed``; the game's client seed is theirs in seat
order joined with ``","``. Every die of the game is then drawn by ``dice``:

- rolls are numbered from 0 in the order they happen in the game (the ``nonce``); every roll
  takes a number, even a Yatzy roll that holds all five dice and so throws none;
- a roll draws exactly as many dice as it throws, in the order of the positions it fills;
- its bytes come from HMAC-SHA256(key = the server seed's bytes, message =
  ``f"{client_seed}:{nonce}:{block}"`` in UTF-8) for block = 0, 1, 2, ... in turn;
- each byte ``b < 252`` gives the die ``b % 6 + 1``; a byte of 252 or more is skipped (252 is
  the largest multiple of 6 a byte holds, so every face is equally likely).

Once the game is over its finished (or aborted) event carries the seed, and anyone can recompute
every roll from the log (``verify``). The rules engines put the commitment in their
``GameStarted`` and the seed in their ``GameFinished`` (and ``ending.GameAborted``):
``Commitment``, ``revealed``; each says which dice a roll threw (``dice_thrown``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, TypeVar

from games.rules.base import Wire, WireError, WireForm

SEED_BYTES = 32
MAX_CLIENT_SEED = 64
#: Bytes at or above this are skipped: 252 = 42 * 6.
BYTE_LIMIT = 252
ALGORITHM = "hmac-sha256-v1"

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
    """The game's client seed: each seat's (empty if it gave none), in seat order, joined by
    commas."""
    return ",".join(seat_seeds)


def dice(server_seed: bytes, client_seed: str, nonce: int, count: int) -> tuple[int, ...]:
    """The ``count`` dice of roll number ``nonce``."""
    faces: list[int] = []
    block = 0
    while len(faces) < count:
        message = f"{client_seed}:{nonce}:{block}".encode()
        for byte in hmac.new(server_seed, message, hashlib.sha256).digest():
            if byte < BYTE_LIMIT:
                faces.append(byte % 6 + 1)
                if len(faces) == count:
                    break
        block += 1
    return tuple(faces)


class FairDice:
    """A roller (``DiceRoller``) that draws by ``dice``, numbering its rolls from ``nonce``."""

    def __init__(self, server_seed: bytes, client_seed: str, nonce: int) -> None:
        self._seed = server_seed
        self._client_seed = client_seed
        self.nonce = nonce
        self.calls = 0

    def __call__(self, count: int) -> tuple[int, ...]:
        faces = dice(self._seed, self._client_seed, self.nonce + self.calls, count)
        self.calls += 1
        return faces


# --- in the events ------------------------------------------------------------------------------


def _hex_64(value: str) -> str:
    if _HEX_64.fullmatch(value) is None:
        raise WireError(f"not 64 lowercase hex digits: {value!r}")
    return value


@dataclass(frozen=True)
class Commitment(WireForm):
    """What a game's ``game_started`` event publishes: the seed's hash and the client seed."""

    server_seed_hash: Annotated[str, Wire(check=_hex_64)]
    client_seed: str
    algorithm: str = ALGORITHM


def _seed_hex(value: str | None) -> str | None:
    return None if value is None else _hex_64(value)


#: The server seed in a finished event, lowercase hex; absent from the wire when not revealed.
RevealedSeed = Annotated[str | None, Wire(check=_seed_hex, omitted_if_none=True)]
#: The commitment in a started event; absent from the wire for a game without one.
StartCommitment = Annotated[Commitment | None, Wire(omitted_if_none=True)]

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


# --- checking a game ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Mismatch:
    """A roll whose dice are not the ones the seeds give."""

    nonce: int
    expected: tuple[int, ...]
    actual: tuple[int, ...]


def verify(server_seed: bytes, client_seed: str, rolls: Iterable[Sequence[int]]) -> list[Mismatch]:
    """Every roll (the dice it threw, in order) that differs from the seeds' dice."""
    wrong = []
    for nonce, thrown in enumerate(rolls):
        actual = tuple(thrown)
        expected = dice(server_seed, client_seed, nonce, len(actual))
        if expected != actual:
            wrong.append(Mismatch(nonce, expected, actual))
    return wrong


def commitment_holds(server_seed: bytes, server_seed_hash: str) -> bool:
    return hmac.compare_digest(seed_hash(server_seed), server_seed_hash)


def commitment_of(event: Any) -> Commitment | None:
    """The commitment of a ``game_started`` event (None: a game from before fair dice)."""
    found = getattr(event, "fairness", None)
    return found if isinstance(found, Commitment) else None
