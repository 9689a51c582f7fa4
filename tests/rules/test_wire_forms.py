"""The wire forms of both games, pinned byte for byte on whole seeded games.

Events are stored in the database and sent to clients; states are the games' snapshots. What the
engines write must stay exactly what they wrote when ``wire_forms.jsonl`` was recorded, and what
they wrote then must still decode to the same objects. Each line of the file is one event with the
state after it. Re-record it (``.venv/bin/python -m tests.rules.test_wire_forms``) only when a wire
form changes on purpose, and then old rows need a migration. The forms written before the games'
limits of length (``wire_forms_before_limits.jsonl``: no ``max_rounds``, no ``limit_reached``) are
the stored rows of the games begun before them: they must still decode and fold to exactly the
states recorded beside them.
"""

from __future__ import annotations

import dataclasses
import json
import random
import typing
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from games.rules import ten_thousand, yatzy

GOLDEN = Path(__file__).with_name("wire_forms.jsonl")
BEFORE_LIMITS = Path(__file__).with_name("wire_forms_before_limits.jsonl")
ENGINES = {"yatzy": yatzy, "ten_thousand": ten_thousand}


def yatzy_game(seed: int) -> Iterator[tuple[Any, Any]]:
    """Two seats: random holds, sometimes a mark (or a cleared one) before the box is scored."""
    rng = random.Random(seed)

    def roller(n: int) -> tuple[int, ...]:
        # Five alike now and then, so Yatzys, bonuses and jokers come up.
        if rng.random() < 0.25:
            return (rng.randint(1, 6),) * n
        return tuple(rng.randint(1, 6) for _ in range(n))

    (started,) = yatzy.start(2, {"auto_confirm_seconds": 2.5})
    state = yatzy.apply(None, started)
    yield started, state
    while not state.finished:
        command: dict[str, Any]
        if state.rolls_used == 0 or (state.rolls_left and rng.random() < 0.6):
            hold = [i for i in range(5) if state.dice and rng.random() < 0.5]
            command = {"type": "roll", "hold": hold}
        elif state.selected is None and rng.random() < 0.4:
            command = {"type": "select", "box": rng.choice([*state.legal_boxes(), None])}
        else:
            command = {"type": "score", "box": rng.choice(list(state.legal_boxes()))}
        parsed = yatzy.command_from_wire(command, state.turn_seat)
        for event in yatzy.decide(state, parsed, roller):
            state = yatzy.apply(state, event)
            yield event, state


def ten_thousand_game(seed: int) -> Iterator[tuple[Any, Any]]:
    """Two seats to 5000: random scoring set-asides, often all that scores; bank from 350."""
    rng = random.Random(seed)

    def roller(n: int) -> tuple[int, ...]:
        return tuple(rng.randint(1, 6) for _ in range(n))

    (started,) = ten_thousand.start(2, {"target": 5000})
    state = ten_thousand.apply(None, started)
    yield started, state
    while not state.finished:
        command: dict[str, Any] = {"type": "roll"}
        if state.roll:
            keeps = [
                keep
                for size in range(1, len(state.roll) + 1)
                for keep in combinations(range(len(state.roll)), size)
                if ten_thousand.preview_keep(state, keep) is not None
            ]
            keep = keeps[-1] if rng.random() < 0.5 else rng.choice(keeps)
            points = ten_thousand.preview_keep(state, keep) or 0
            bank = state.turn_points + points >= 350 and rng.random() < 0.8
            command = {"type": "bank" if bank else "roll", "keep": list(keep)}
        parsed = ten_thousand.command_from_wire(command, state.turn_seat)
        for event in ten_thousand.decide(state, parsed, roller):
            state = ten_thousand.apply(state, event)
            yield event, state


def scripted_game(
    kind: str, seats: int, script: list[str], seed: int, **limits: int
) -> Iterator[tuple[Any, Any]]:
    """A game of ``seats`` played by ``script``: "roll", "mark" (yatzy: select a legal box) and
    the commands that end a game early ("time_out", "forfeit": a time out that forfeits, "claim"
    by the next seat still playing, "resign" and "abort" by the seat to play), the staff's
    ("adjudicate": the seat to play wins, "draw", "staff_abort") and the server's ("limit": the
    events per game reached). ``limits``: the start's (Dés 10 000's ``max_rounds``)."""
    engine = ENGINES[kind]
    rng = random.Random(seed)

    def roller(n: int) -> tuple[int, ...]:
        return tuple(rng.randint(1, 6) for _ in range(n))

    options = {"auto_confirm_seconds": 2.5} if kind == "yatzy" else {"target": 5000}
    (started,) = engine.start(seats, options, **limits)
    state = engine.apply(None, started)
    yield started, state
    for step in script:
        seat = state.turn_seat
        command: dict[str, Any] = {"type": step}
        if step == "mark":
            command = {"type": "select", "box": next(iter(state.legal_boxes()))}
        elif step == "forfeit":
            command = {"type": "time_out", "forfeits": True}
        elif step == "adjudicate":
            command = {"type": "adjudicate", "winner": seat}
        elif step == "draw":
            command = {"type": "adjudicate", "winner": None}
        elif step == "limit":
            command = {"type": "end_at_limit", "limit": "events", "count": 40}
        elif step == "claim":
            seat = next(s for s in range(seat + 1, seat + seats) if s % seats not in state.out)
            seat %= seats
        parsed = engine.command_from_wire(command, seat)
        for event in engine.decide(state, parsed, roller):
            state = engine.apply(state, event)
            yield event, state


#: Seats leave (a stand-in's turn, a forfeit, a claim, a resignation) until one is left.
ENDINGS = {
    "yatzy": ["roll", "time_out", "roll", "mark", "time_out", "roll", "claim", "time_out",
              "forfeit", "resign"],
    "ten_thousand": ["roll", "time_out", "time_out", "roll", "claim", "roll", "time_out",
                     "forfeit", "resign"],
}  # fmt: skip


def recorded(kind: str) -> list[tuple[Any, Any]]:
    played = list(yatzy_game(16) if kind == "yatzy" else ten_thousand_game(11))
    played += scripted_game(kind, 4, ENDINGS[kind], seed=5)
    # The staff decide: a winner after a seat left, a draw, a game called off after every move.
    played += scripted_game(kind, 3, ["roll", "resign", "adjudicate"], seed=7)
    played += scripted_game(kind, 2, ["roll", "draw"], seed=8)
    played += scripted_game(kind, 2, ["roll", "time_out", "roll", "staff_abort"], seed=9)
    # The limits of length: the server's events per game, Dés 10 000's rounds.
    played += scripted_game(kind, 3, ["roll", "resign", "roll", "time_out", "limit"], seed=10)
    if kind == "ten_thousand":
        played += scripted_game(kind, 2, ["time_out"] * 4, seed=12, max_rounds=2)
    # A seat calls the game off before any dice are thrown (the only time it may).
    return played + list(scripted_game(kind, 2, ["abort"], seed=6))


def wire_line(kind: str, event: Any, state: Any) -> str:
    line = {"game": kind, "event": event.to_wire(), "state": state.to_wire()}
    if kind == "yatzy":  # the sheet totals a client is shown beside the state
        line["totals"] = [state.totals(seat).to_wire() for seat in range(state.seats)]
    return json.dumps(line)


def wire_lines(kind: str) -> list[str]:
    """The file's lines for ``kind``, as the engines write them now."""
    return [wire_line(kind, event, state) for event, state in recorded(kind)]


def golden_lines(kind: str) -> list[str]:
    lines = GOLDEN.read_text().splitlines()
    return [line for line in lines if json.loads(line)["game"] == kind]


@pytest.mark.parametrize("kind", ENGINES)
def test_encoding_is_byte_for_byte_the_recorded_one(kind: str) -> None:
    assert wire_lines(kind) == golden_lines(kind)


@pytest.mark.parametrize("kind", ENGINES)
def test_forms_written_before_the_limits_fold_as_they_did(kind: str) -> None:
    """A game begun before the limits of length: its stored events decode, encode byte for byte as
    they were, and fold to exactly the snapshots written then (no limit appears in them)."""
    engine = ENGINES[kind]
    lines = [json.loads(line) for line in BEFORE_LIMITS.read_text().splitlines()]
    lines = [line for line in lines if line["game"] == kind]
    assert len(lines) > 50
    state = None
    for line in lines:
        event = engine.event_from_wire(line["event"])
        assert json.dumps(event.to_wire()) == json.dumps(line["event"])
        state = engine.apply(None if event.type == "game_started" else state, event)
        assert json.dumps(state.to_wire()) == json.dumps(line["state"])
        assert engine.state_from_wire(line["state"]) == state
        assert state.limit_reached is None and getattr(state, "max_rounds", None) is None


@pytest.mark.parametrize("kind", ENGINES)
def test_recorded_forms_decode_to_the_same_objects(kind: str) -> None:
    engine = ENGINES[kind]
    golden = [json.loads(line) for line in golden_lines(kind)]
    played = recorded(kind)
    assert len(golden) == len(played)
    for line, (event, state) in zip(golden, played, strict=True):
        assert engine.event_from_wire(line["event"]) == event
        assert engine.state_from_wire(line["state"]) == state


#: The state's fields added for games that end early: snapshots written before them lack them.
LATER_FIELDS = {"out": (), "moved": (), "timeouts": (), "aborted": False, "selects": 0}


@pytest.mark.parametrize("kind", ENGINES)
def test_snapshots_older_than_the_ending_fields_still_decode(kind: str) -> None:
    engine = ENGINES[kind]
    first = list(yatzy_game(16) if kind == "yatzy" else ten_thousand_game(11))
    for _, state in first:
        older = {k: v for k, v in state.to_wire().items() if k not in LATER_FIELDS}
        defaults = {k: v for k, v in LATER_FIELDS.items() if hasattr(state, k)}
        assert engine.state_from_wire(older) == dataclasses.replace(state, **defaults)


def event_classes(engine: ModuleType) -> set[type]:
    return set(typing.get_args(engine.Event))


@pytest.mark.parametrize("kind", ENGINES)
def test_the_recorded_games_hold_every_event_type_and_state_shape(kind: str) -> None:
    engine = ENGINES[kind]
    played = recorded(kind)
    assert {type(event) for event, _ in played} == event_classes(engine)
    states = [state for _, state in played]
    assert states[-1].finished and states[-1].aborted
    left = {event.reason for event, _ in played if event.type == "seat_left"}
    assert left == {"resigned", "claimed", "timed_out"}
    limits = {event.limit for event, _ in played if event.type == "limit_reached"}
    if kind == "yatzy":
        assert any(s.selected is not None for s in states)
        assert any(s.yatzy_bonus_points != (0, 0) for s in states)
        assert limits == {"events"}
    else:
        assert any(s.hot_dice for s in states)
        assert any(s.last_round_trigger is not None and not s.finished for s in states)
        assert limits == {"events", "rounds"}


if __name__ == "__main__":
    GOLDEN.write_text("".join(line + "\n" for kind in ENGINES for line in wire_lines(kind)))
