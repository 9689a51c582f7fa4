"""Analysis of a played game from its log: luck against skill, from the computer's exact values.

Each kind walks its events (``ai.analysis.<kind>``) through ``Ledger``, which keeps each seat's
value in points: a roll moves it by its **luck** (value after minus expected value before), a
decision by minus its **loss** (best choice's value minus the chosen one's). So for every seat
``value now = expected start + luck - skill loss`` exactly, whatever the dice and the choices; with
an exact value function, at the end, the points the seat scored.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

#: A decision whose loss is below this (points) is counted as the best one (float ties).
NO_LOSS = 1e-4


@dataclass(frozen=True)
class Roll:
    seq: int
    seat: int
    turn: int
    #: The seat's value before the roll (its expected value) and after it.
    before: float
    after: float

    @property
    def luck(self) -> float:
        return self.after - self.before


@dataclass(frozen=True)
class Decision:
    seq: int
    seat: int
    turn: int
    #: The move made and the best move, as a client sends them.
    move: dict[str, Any]
    best_move: dict[str, Any]
    value: float
    best_value: float
    #: In a two-seat game whose kind solves it exactly: the chance to win the decision gave away.
    win_loss: float | None = None

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.value)


@dataclass(frozen=True)
class Turn:
    """One turn of a seat, where a kind counts by turns: its own identity."""

    seat: int
    turn: int
    expected: float
    luck: float
    skill_loss: float
    #: What the turn banked (None while it is being played).
    points: int | None
    #: With two seats, where the kind models it: the chance to win before and after the turn.
    win_before: float | None = None
    win_after: float | None = None


@dataclass
class SeatLine:
    seat: int
    expected_start: float
    luck: float = 0.0
    skill_loss: float = 0.0
    decisions: int = 0
    best_decisions: int = 0
    #: The seat's result once the game is over.
    final: int | None = None

    @property
    def value_now(self) -> float:
        return self.expected_start + self.luck - self.skill_loss

    @property
    def accuracy(self) -> float | None:
        return self.best_decisions / self.decisions if self.decisions else None


@dataclass(frozen=True)
class Chart:
    """What a game's picture plots: per seat, a value after each step (``x`` = 0: the start)."""

    #: ``score`` (expected final score), ``chance`` (to win, 0 to 1) or ``points`` (banked).
    measure: str
    #: What a step is: ``round`` (every seat plays once) or ``turn`` (one seat's turn).
    step: str
    lines: list[list[float]]


@dataclass
class Analysis:
    seats: list[SeatLine]
    rolls: list[Roll] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    finished: bool = False


class Ledger:
    """Builds an ``Analysis``: each seat's value, moved by rolls and decisions."""

    def __init__(self, seats: int, expected_start: float) -> None:
        self.analysis = Analysis([SeatLine(seat, expected_start) for seat in range(seats)])
        self.value = [expected_start] * seats

    def roll(self, seq: int, seat: int, turn: int, after: float) -> None:
        roll = Roll(seq, seat, turn, self.value[seat], after)
        self.analysis.rolls.append(roll)
        self.analysis.seats[seat].luck += roll.luck
        self.value[seat] = after

    def decide(
        self,
        seq: int,
        seat: int,
        turn: int,
        move: dict[str, Any],
        value: float,
        best_move: dict[str, Any],
        *,
        counted: bool = True,
        win_loss: float | None = None,
    ) -> Decision:
        """The seat chose ``move``, worth ``value``, against its value now (the best choice's). A
        decision not ``counted`` (leaving) is a loss but not a decision of its accuracy."""
        decision = Decision(seq, seat, turn, move, best_move, value, self.value[seat], win_loss)
        self.analysis.decisions.append(decision)
        line = self.analysis.seats[seat]
        line.skill_loss += decision.loss
        if counted:
            line.decisions += 1
            line.best_decisions += decision.loss < NO_LOSS
        self.value[seat] -= decision.loss
        return decision

    def end(self, results: tuple[int, ...], early: Iterable[int] = ()) -> None:
        """The game is over with these results. The seats ``early`` were still playing when it
        ended early: what they lose or keep of their expected points is counted as luck."""
        self.analysis.finished = True
        for line, result in zip(self.analysis.seats, results, strict=True):
            line.final = result
        for seat in early:
            self.analysis.seats[seat].luck += results[seat] - self.value[seat]
            self.value[seat] = float(results[seat])

    def expect(self, seat: int, more: float) -> None:
        """A new turn adds its expected value to the seat's start (kinds counted by turns)."""
        self.analysis.seats[seat].expected_start += more
        self.value[seat] += more
