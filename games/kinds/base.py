"""What a game kind is made of, in the spirit of scalachess's ``Variant``: one frozen ``Kind``
holding its rules engine (``games.rules``) and presenter (``games.presenters``), its seats, its
computer (levels, move, hint), its automatic moves (auto-confirm, the turn clock's stand-in), its
options, its analysis and preview, and its limit of events per game.

Every other module asks ``kind_for(code)`` or goes through ``KINDS`` (``games.kinds.registry``):
nothing outside a kind's own modules tells one kind from another. A new game is one rules module,
one presenter and one module here that builds its ``Kind``, named in ``registry.REGISTERED``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from types import MappingProxyType
from typing import Any, Protocol, cast

from django.utils.functional import Promise

from ai.analysis import Analysis, Chart
from games.presenters.common import Message
from players.ratings import BASE

#: What a computer seat of a level no kind offers counts as (Glicko-2's starting rating): only a
#: game recorded before its level was withdrawn can have one.
UNKNOWN_LEVEL_RATING = BASE


class WireState(Protocol):
    @property
    def current_seat(self) -> int | None: ...
    @property
    def finished(self) -> bool: ...
    @property
    def places(self) -> tuple[int, ...]: ...
    @property
    def aborted(self) -> bool: ...
    def to_wire(self) -> dict[str, Any]: ...


class WireEvent(Protocol):
    type: str

    def to_wire(self) -> dict[str, Any]: ...


class Engine(Protocol):
    """What every module in ``games.rules`` provides (see its package docstring)."""

    def start(self, seats: int, options: Any = None, fairness: Any = None) -> list[WireEvent]: ...
    def decide(
        self, state: Any, command: Any, roller: Callable[[int], tuple[int, ...]]
    ) -> list[WireEvent]: ...
    def apply(self, state: Any, event: Any) -> WireState: ...
    def dice_thrown(self, event: Any) -> tuple[int, ...] | None: ...
    def replay(self, events: Iterable[Any]) -> WireState: ...
    def command_from_wire(self, data: Mapping[str, Any], seat: int) -> Any: ...
    def event_from_wire(self, data: Mapping[str, Any]) -> WireEvent: ...
    def state_from_wire(self, data: Mapping[str, Any]) -> WireState: ...
    def options_from_wire(self, data: Mapping[str, Any]) -> Any: ...


class Presenter(Protocol):
    """What every game module in ``games.presenters`` provides: what people read, localised.
    ``present_rules`` is ``present`` of a rules state already in hand (after a move)."""

    def present(self, wire_state: Mapping[str, Any]) -> dict[str, Any]: ...
    def present_rules(self, state: Any) -> dict[str, Any]: ...
    def event_messages(self, event_type: str) -> list[Message]: ...
    def setup_label(self, occupants: Iterable[str]) -> str | None: ...


@dataclass(frozen=True)
class Level:
    """A level the computer plays a kind at."""

    #: As clients send it (a computer seat's ``level``) and read it (``ai_level``,
    #: ``computer_level``).
    name: str
    label: str | Promise
    #: What a computer seat of this level counts as in the players' Glicko-2 ratings (with a fixed
    #: deviation: ``games.accounts.rating_service``), and a computer entrant's seed in a tournament.
    rating: float


@dataclass(frozen=True)
class Seats:
    """How many seats a game may have, computers included, and who may take them."""

    least: int
    most: int
    #: None: no limit below ``most``.
    most_computers: int | None = None
    most_people: int | None = None

    def allow(self, *, people: int, computers: int) -> bool:
        """``people``: accounts, open or hot-seat seats."""
        return (
            self.least <= people + computers <= self.most
            and (self.most_computers is None or computers <= self.most_computers)
            and (self.most_people is None or people <= self.most_people)
        )


@dataclass(frozen=True)
class AutoConfirm:
    """The server ends a turn the player left waiting, once the game's delay has passed."""

    #: The delay in this position, in seconds; 0 when there is nothing to confirm here (or the
    #: game's options turn auto-confirm off).
    seconds: Callable[[Any], float]
    #: Whether these events (a roll) start the delay afresh; else a delay already running holds.
    restarted_by: Callable[[Sequence[WireEvent]], bool]
    #: The move the server then plays for the seat: ``(state, assisted) -> command``; without
    #: assistance (hints) in the game, never better than the player's own choice would be.
    move: Callable[[Any, bool], dict[str, Any]]


@dataclass(frozen=True)
class Analyst:
    """How a kind analyses a played game (``games/{id}/analysis/``): luck against skill."""

    #: Its module of ``ai.analysis``, imported at its first use (it loads the computer's tables).
    module: str
    #: Which values it uses and how they are computed, as people read it.
    values: str | Promise
    #: Whether it counts by turns (each turn has its own expected value and identity).
    by_turn: bool = False

    def analyse(self, events: Iterable[tuple[int, Any]]) -> Analysis:
        """The analysis of ``(seq, rules event)`` pairs in order."""
        return cast(Analysis, import_module(self.module).analyse(events))

    def chart(self, analysis: Analysis) -> Chart:
        """What the game's picture plots (``games/{id}/analysis.svg``)."""
        return cast(Chart, import_module(self.module).chart(analysis))


@dataclass(frozen=True, eq=False)
class Kind:
    """One game kind: see the module's docstring. One object per kind: compared by identity."""

    #: As clients and the database spell it: a game's ``kind``, ``?kind=``,
    #: ``leaderboards/{kind}/``.
    code: str
    label: str | Promise
    engine: Engine
    presenter: Presenter
    seats: Seats
    levels: Mapping[str, Level]  # by name
    #: The level of a computer seat asked for without one.
    default_level: str
    #: The computer's next command at a level: ``(state, level) -> command``.
    computer: Callable[[Any, str], dict[str, Any]]
    #: The computer's advice to the seat to play (``games/{id}/hint/``).
    hint: Callable[[Any], dict[str, Any]]
    #: The move that brings a game's log to this many events ends it (``end_at_limit``: placed by
    #: the totals as they stand), so that no log, which replay and analysis fold, grows unbounded.
    max_events: int
    #: How many dice it plays with: the most positions a move or a preview may name.
    dice: int
    auto_confirm: AutoConfirm | None = None
    #: Builds or loads its computer's tables (so that the first move does not wait for them),
    #: and says what it has; None: it has none.
    tables: Callable[[], str] | None = None
    #: The types of the events that leave the turn clock as it was (and a seat idle, for a
    #: claim): marking a box buys no time.
    clock_kept_by: frozenset[str] = frozenset()
    #: What setting dice aside would score, before it is played (``games/{id}/preview/``):
    #: ``(wire state, positions) -> preview``; None where the kind has none.
    preview: Callable[[Mapping[str, Any], list[int]], Mapping[str, Any]] | None = None
    #: The analysis of a played game (``games/{id}/analysis/``); None where the kind has none.
    analyst: Analyst | None = None
    #: The values each option may take in a rated game (every option is listed): a rated game is
    #: played as everyone plays it, so an odd option cannot pair two accounts of one person.
    rated_presets: Mapping[str, tuple[Any, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    #: The codes its rules refuse a move with, beyond those of every kind (``games.rules.ending``'s
    #: and the move path's): the move endpoint's schema lists them.
    refusals: tuple[str, ...] = ()
    #: Each option's name as people read it, on a form (``GET kinds/``).
    option_labels: Mapping[str, str | Promise] = field(default_factory=lambda: MappingProxyType({}))

    def level_for(self, asked: str) -> str | None:
        """The level a computer seat asked for at ``asked`` plays at (blank: the default)."""
        level = asked or self.default_level
        return level if level in self.levels else None

    def level_rating(self, level: str) -> float:
        """What a computer seat of ``level`` counts as in the ratings."""
        known = self.levels.get(level)
        return known.rating if known is not None else UNKNOWN_LEVEL_RATING

    def timer_move(
        self, state: Any, *, rated: bool = False, assistance: bool = False
    ) -> dict[str, Any]:
        """What the server plays for the seat to play when the game's timer is due: the
        auto-confirm where one is due (no better than the player but in a game with
        ``assistance``), else the turn clock's stand-in (``time_out``), which in a rated game
        forfeits a seat's second timed-out turn in a row."""
        if self.auto_confirm is not None and self.auto_confirm.seconds(state):
            return self.auto_confirm.move(state, assistance)
        return {"type": "time_out", "forfeits": rated}

    def restarts_clock(self, events: Sequence[WireEvent]) -> bool:
        """Whether a move of these events gives the seat to play its clock afresh."""
        return any(event.type not in self.clock_kept_by for event in events)


def levels(*levels: Level) -> Mapping[str, Level]:
    """A kind's levels by name, in the order given (the first is offered first)."""
    return MappingProxyType({level.name: level for level in levels})
