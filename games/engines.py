"""The rules engine of each game kind, behind one interface the move path drives."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import Any, Protocol, cast

from games.models import GameKind
from games.rules import ten_thousand, yatzy


class WireState(Protocol):
    @property
    def current_seat(self) -> int | None: ...
    @property
    def finished(self) -> bool: ...
    @property
    def places(self) -> tuple[int, ...]: ...
    def to_wire(self) -> dict[str, Any]: ...


class WireEvent(Protocol):
    type: str

    def to_wire(self) -> dict[str, Any]: ...


class Engine(Protocol):
    """What every module in ``games.rules`` provides (see its package docstring)."""

    def start(self, seats: int, options: Any = None) -> list[WireEvent]: ...
    def decide(
        self, state: Any, command: Any, roller: Callable[[int], tuple[int, ...]]
    ) -> list[WireEvent]: ...
    def apply(self, state: Any, event: Any) -> WireState: ...
    def replay(self, events: Iterable[Any]) -> WireState: ...
    def command_from_wire(self, data: Mapping[str, Any], seat: int) -> Any: ...
    def event_from_wire(self, data: Mapping[str, Any]) -> WireEvent: ...
    def state_from_wire(self, data: Mapping[str, Any]) -> WireState: ...
    def options_from_wire(self, data: Mapping[str, Any]) -> Any: ...


_ENGINES: dict[str, ModuleType] = {
    GameKind.YATZY: yatzy,
    GameKind.TEN_THOUSAND: ten_thousand,
}


def engine_for(kind: str) -> Engine:
    return cast(Engine, _ENGINES[kind])


def seat_limits(kind: str) -> tuple[int, int]:
    """How many seats a game of this kind may have (computer seats included)."""
    return (1, 6) if kind == GameKind.YATZY else (1, 7)
