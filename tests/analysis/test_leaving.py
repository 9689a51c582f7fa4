"""Games where seats time out, resign or are claimed (games.rules.ending): the analysis walks them,
and leaving counts as the seat's loss (what it could still have scored), so that for every seat the
result is its expected start plus luck minus skill loss, whoever left."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ai.analysis import ten_thousand as ten_thousand_analysis
from ai.analysis import yatzy as yatzy_analysis
from games.kinds.ten_thousand import command as ten_thousand_command
from games.kinds.yatzy import command as yatzy_command
from games.rules import RuleError, ten_thousand, yatzy

CASES = [
    (yatzy, yatzy_command, yatzy_analysis, "casual"),
    (ten_thousand, ten_thousand_command, ten_thousand_analysis, "classic"),
]


def played(engine: Any, command: Any, level: str, seed: int) -> list[tuple[int, Any]]:
    rng = random.Random(seed)

    def roller(n: int) -> tuple[int, ...]:
        return tuple(rng.randint(1, 6) for _ in range(n))

    (started,) = engine.start(3, None)
    state = engine.apply(None, started)
    events = [started]
    while not state.finished:
        seat = state.current_seat
        luck = rng.random()
        wanted = {"type": "time_out"} if luck < 0.04 else {"type": "resign"} if luck < 0.045 else {}
        try:
            decided = engine.decide(state, engine.command_from_wire(wanted, seat), roller)
        except RuleError:
            decided = []
        if not wanted or not decided:
            parsed = engine.command_from_wire(command(state, level), seat)
            decided = engine.decide(state, parsed, roller)
        for event in decided:
            state = engine.apply(state, event)
            events.append(event)
    return list(enumerate(events, start=1))


@pytest.mark.parametrize("case", CASES, ids=["yatzy", "ten_thousand"])
def test_the_identity_holds_for_seats_that_left_or_timed_out(case: Any) -> None:
    engine, command, analysis_of, level = case
    left = 0
    for seed in range(30):
        events = played(engine, command, level, seed)
        left += sum(event.type == "seat_left" for _, event in events)
        analysis = analysis_of.analyse(events)
        analysis_of.chart(analysis)
        assert analysis.finished
        for line in analysis.seats:
            assert line.final == pytest.approx(line.value_now, abs=1e-6), (seed, line)
    assert left > 0
