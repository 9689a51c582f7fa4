"""Every game kind in one object: what a game of that kind is made of, and each choice it makes.

In the spirit of scalachess's ``Variant``: a kind (``yatzy``, ``ten_thousand``) is one frozen
``Kind``, holding

- its rules engine (a module of ``games.rules``, see ``Engine``) and its presenter (a module of
  ``games.presenters``, see ``Presenter``: the client's view, an event's messages, the name of a
  seat setup);
- its seats: how many, and who may sit (Dés 10 000 is "Humans + 1 AI");
- its computer: the levels it plays at, each with the rating it counts as, the default level, its
  move and its hint;
- its automatic moves: the auto-confirm of a turn the player left waiting, where the kind has one,
  and the turn clock's stand-in for a seat whose clock ran out (the rules' ``time_out``, which
  never plays better than the player would: ``games.rules.ending``), and the moves that leave
  the clock running (yatzy's ``select``);
- its analysis for players (the keep preview of Dés 10 000);
- its limit of events per game, at which the move path ends a game (``max_events``).

Every other module asks ``kind_for(code)`` (one dict lookup) or goes through ``KINDS``: nothing
outside this module and ``games.rules`` tells one kind from another. A new game is one rules module,
one presenter and one entry in ``KINDS``.

Imports run one way: this module reads ``games.rules``, ``games.presenters`` and ``ai.players``,
and none of them reads it; ``games.models`` takes the kinds' codes and names from here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol, cast

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ai import players as computer
from ai.analysis import Analysis, Chart
from games.presenters import ten_thousand as ten_thousand_view
from games.presenters import yatzy as yatzy_view
from games.rules import ten_thousand, yatzy
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
    """What every game module in ``games.presenters`` provides: what people read, localised."""

    def present(self, wire_state: Mapping[str, Any]) -> dict[str, Any]:
        """The client's view of a state in its stored (wire) form."""
        ...

    def present_rules(self, state: Any) -> dict[str, Any]:
        """The same view of a rules state already in hand (after a move: no JSON read again)."""
        ...

    def event_messages(self, event_type: str) -> list[dict[str, str]]:
        """What a client shows for an event of this type (``[{"code", "text"}]``, often none)."""
        ...

    def setup_label(self, occupants: Iterable[str]) -> str | None:
        """The seat setup's name on the new-game form ("Humans + 1 AI"), from the seats'
        occupants (``games.models.Occupant``); None when it has none."""
        ...


@dataclass(frozen=True)
class Level:
    """A level the computer plays a kind at."""

    #: As clients send it (a computer seat's ``level``) and read it (``ai_level``,
    #: ``computer_level``).
    name: str
    label: str | Promise
    #: What a computer seat of this level counts as in the players' Glicko-2 ratings (with a fixed
    #: deviation: ``players.rating_service``), and a computer entrant's seed in a tournament.
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
        """Whether a game may have this many seats for people (accounts, open or hot-seat) and
        for the computer."""
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
    #: The move the server then plays for the seat: ``(state, assisted) -> command``, where
    #: ``assisted`` says the game has assistance (a casual game with hints): without it, the
    #: move is never better than the player's own choice would be.
    move: Callable[[Any, bool], dict[str, Any]]


@dataclass(frozen=True)
class Analyst:
    """How a kind analyses a played game (``games/{id}/analysis/``): luck against skill."""

    #: ``(seq, rules event) pairs in order -> Analysis`` (``ai.analysis``).
    analyse: Callable[[Iterable[tuple[int, Any]]], Analysis]
    #: ``Analysis -> Chart``: what the game's picture plots (``games/{id}/analysis.svg``).
    chart: Callable[[Analysis], Chart]
    #: Which values it uses and how they are computed, as people read it.
    values: str | Promise
    #: Whether it counts by turns (each turn has its own expected value and identity).
    by_turn: bool = False


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
    #: By name.
    levels: Mapping[str, Level]
    #: The level of a computer seat asked for without one.
    default_level: str
    #: The computer's next command at a level: ``(state, level) -> command``.
    computer: Callable[[Any, str], dict[str, Any]]
    #: The computer's advice to the seat to play (``games/{id}/hint/``).
    hint: Callable[[Any], dict[str, Any]]
    #: The move that brings a game's log to this many events ends the game there (the rules'
    #: ``end_at_limit``: the seats placed by their totals as they stand), so that no game's log,
    #: which its replay and analysis fold, grows without bound. Well above any game played.
    max_events: int
    auto_confirm: AutoConfirm | None = None
    #: The types of the events that leave the turn clock as it was (and a seat idle, for a
    #: claim): marking a box buys no time.
    clock_kept_by: frozenset[str] = frozenset()
    #: What setting dice aside would score, before it is played (``games/{id}/preview/``):
    #: ``(wire state, positions) -> preview``; None where the kind has none.
    preview: Callable[[Mapping[str, Any], list[int]], dict[str, Any]] | None = None
    #: The analysis of a played game (``games/{id}/analysis/``); None where the kind has none.
    analyst: Analyst | None = None
    #: The values each option may take in a rated game (every option is listed): a rated game is
    #: played as everyone plays it, so an odd option cannot pair two accounts of one person.
    rated_presets: Mapping[str, tuple[Any, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )

    def level_for(self, asked: str) -> str | None:
        """The level a computer seat asked for at ``asked`` plays at (blank: the default); None if
        this kind's computer has no such level."""
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


def _levels(*levels: Level) -> Mapping[str, Level]:
    return MappingProxyType({level.name: level for level in levels})


def _yatzy_auto_confirm_seconds(state: yatzy.YatzyState) -> float:
    """Yatzy waits for a box once the last roll is used (seeds 000/001)."""
    waiting = not state.finished and state.rolls_left == 0 and bool(state.dice)
    return state.options.auto_confirm_seconds if waiting else 0


def _yatzy_rolled(events: Sequence[WireEvent]) -> bool:
    # Marking a box (``box_selected``) buys no time: only the roll starts the delay.
    return any(isinstance(event, yatzy.DiceRolled) for event in events)


YATZY = Kind(
    code="yatzy",
    label=_("Yatzy"),
    engine=cast(Engine, yatzy),
    presenter=cast(Presenter, yatzy_view),
    seats=Seats(least=1, most=6),
    levels=_levels(
        Level("optimal", _("optimal"), rating=1800.0),
        Level("casual", _("casual"), rating=1400.0),
    ),
    default_level="optimal",
    computer=computer.yatzy_command,
    hint=computer.yatzy_hint,
    # Never reached: the longest game there can be has 1,959 events (six seats, 13 turns each of
    # 3 rolls, 20 marks, a box and a timed-out turn; the start, the end, the seats leaving).
    max_events=2500,
    clock_kept_by=frozenset({yatzy.BoxSelected.type}),
    # The seeds' auto-confirm (000/001).
    rated_presets=MappingProxyType({"auto_confirm_seconds": (3.0,)}),
    auto_confirm=AutoConfirm(
        seconds=_yatzy_auto_confirm_seconds,
        restarted_by=_yatzy_rolled,
        move=computer.yatzy_auto_confirm,
    ),
    analyst=Analyst(
        analyse=computer.yatzy_analysis,
        chart=computer.yatzy_chart,
        values=_(
            "Expected final scores from the exact table of the optimal player (dynamic "
            "programming over every sheet, 254.48 from an empty sheet): a seat's value is its "
            "points plus the expected points still to come under optimal play."
        ),
    ),
)

TEN_THOUSAND = Kind(
    code="ten_thousand",
    label=_("Dés 10 000"),
    engine=cast(Engine, ten_thousand),
    presenter=cast(Presenter, ten_thousand_view),
    # "Humans + 1 AI": up to six people and at most one computer opponent.
    seats=Seats(least=1, most=7, most_computers=1, most_people=6),
    levels=_levels(
        Level("expert", _("expert"), rating=1800.0),
        Level("classic", _("classic"), rating=1450.0),
    ),
    default_level="expert",
    computer=computer.ten_thousand_command,
    hint=computer.ten_thousand_hint,
    # A game ends at its round limit first (300 rounds: games.rules.ten_thousand.MAX_ROUNDS);
    # this bounds the games begun before it, and a turn that would never end.
    max_events=20000,
    preview=ten_thousand_view.preview,
    rated_presets=MappingProxyType({"target": ten_thousand.TARGETS}),
    analyst=Analyst(
        analyse=computer.ten_thousand_analysis,
        chart=computer.ten_thousand_chart,
        values=_(
            "Expected points per turn from the exact single-turn table of the play that banks "
            "the most points on average (551.55 from a fresh turn): a seat's value is its "
            "banked total plus the expected points of the turn in play. The expert plays to "
            "win, not for points, so it may lose points on purpose. With two seats, each "
            "turn has the seat's chance to win before and after it, from the expert's model "
            "of both seats playing to win (a tie counts half)."
        ),
        by_turn=True,
    ),
)

_BY_CODE = {kind.code: kind for kind in (YATZY, TEN_THOUSAND)}
#: Every kind by its code, in the order clients are offered them.
KINDS: Mapping[str, Kind] = MappingProxyType(_BY_CODE)

#: A level's label by its name, whatever the kind (a name means one level wherever it is offered).
LEVEL_LABELS: Mapping[str, str | Promise] = MappingProxyType(
    {level.name: level.label for kind in KINDS.values() for level in kind.levels.values()}
)


def kind_for(code: str) -> Kind:
    """The kind a game's ``kind`` names (``KeyError`` for none: callers hold validated codes)."""
    return _BY_CODE[code]
