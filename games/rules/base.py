"""Shared vocabulary of the rules engines: errors, dice sources, replay. Pure Python."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, TypeVar

#: Produces ``n`` dice faces (1-6). The server passes a CSPRNG-backed roller; tests pass fixed dice.
DiceRoller = Callable[[int], tuple[int, ...]]


def secure_roller(n: int) -> tuple[int, ...]:
    """Roll ``n`` six-sided dice from the operating system's cryptographic RNG."""
    return tuple(secrets.randbelow(6) + 1 for _ in range(n))


def fixed_roller(*rolls: Iterable[int]) -> DiceRoller:
    """A roller that returns the given rolls in order (for tests and replays of known games)."""
    queue = [tuple(r) for r in rolls]

    def roll(n: int) -> tuple[int, ...]:
        if not queue:
            raise AssertionError("fixed_roller ran out of rolls")
        dice = queue.pop(0)
        if len(dice) != n:
            raise AssertionError(f"fixed_roller: asked for {n} dice, next roll has {len(dice)}")
        return dice

    return roll


class RuleError(Exception):
    """An illegal command. ``code`` is stable and machine-readable; ``params`` fill the message.

    The human text is not here: the server maps each code to a translated message, so this library
    stays free of Django and of any language.
    """

    def __init__(self, code: str, field: str | None = None, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.field = field
        self.params = params

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, field={self.field!r}, **{self.params!r})"


class Event(Protocol):
    type: str

    def to_wire(self) -> dict[str, Any]: ...


S = TypeVar("S")
E_contra = TypeVar("E_contra", contravariant=True)


class Folds(Protocol[S, E_contra]):
    def apply(self, state: S | None, event: E_contra) -> S: ...


def replay(apply: Callable[[Any, Any], S], events: Iterable[Any]) -> S:
    """Fold ``events`` from nothing: the state of a game is exactly this."""
    state: S | None = None
    for event in events:
        state = apply(state, event)
    if state is None:
        raise ValueError("replay needs at least one event")
    return state


def require_dice(dice: Iterable[int], count: int | None = None) -> tuple[int, ...]:
    """Check a sequence of die faces; ``ValueError`` is a programming error, not a rule error."""
    faces = tuple(dice)
    if count is not None and len(faces) != count:
        raise ValueError(f"expected {count} dice, got {len(faces)}")
    for face in faces:
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= 6:
            raise ValueError(f"not a die face: {face!r}")
    return faces


def wire_int_list(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    """Read a list of ints from a command's JSON, or raise the stable ``invalid`` rule error."""
    value = data.get(key, [])
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise RuleError("invalid_dice_indices", field=key)
    return tuple(value)


class WireError(ValueError):
    """Stored data (an event, a state snapshot) that this engine did not write."""


def wire_int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise WireError(f"{key}: expected an int, got {value!r}")
    return value


def wire_ints(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, list | tuple) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise WireError(f"{key}: expected a list of ints, got {value!r}")
    return tuple(value)


def wire_bool(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key)
    if not isinstance(value, bool):
        raise WireError(f"{key}: expected a bool, got {value!r}")
    return value
