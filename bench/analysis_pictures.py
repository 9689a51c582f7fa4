"""The analysis's figures and pictures: luck against skill over simulated games.

Plays seeded games of both kinds between the computer levels (the rules engines alone, no server),
analyses each (``ai.analysis``) and prints, per level, the mean skill loss, accuracy and result;
then draws one game of each kind as ``games/{id}/analysis.svg`` draws it, into
``bench/figures/`` (the README shows them).

    .venv/bin/python bench/analysis_pictures.py [--games 200] [--lang en]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
FIGURES = ROOT / "bench" / "figures"


def simulate(kind: str, levels: Sequence[str], seed: int) -> list[tuple[int, Any]]:
    from games.kinds import kind_for

    entry = kind_for(kind)
    engine = entry.engine
    rng = random.Random(seed)

    def roller(n: int) -> tuple[int, ...]:
        return tuple(rng.randint(1, 6) for _ in range(n))

    (started,) = engine.start(len(levels), None)
    state = engine.apply(None, started)
    events: list[Any] = [started]
    while not state.finished:
        seat = state.current_seat
        assert seat is not None
        command = engine.command_from_wire(entry.computer(state, levels[seat]), seat)
        for event in engine.decide(state, command, roller):
            state = engine.apply(state, event)
            events.append(event)
    return list(enumerate(events, start=1))


def figures(kind: str, levels: Sequence[str], games: int) -> None:
    from games.kinds import kind_for

    analyst = kind_for(kind).analyst
    assert analyst is not None
    rows: dict[str, list[tuple[float, float, float, int]]] = {level: [] for level in levels}
    for seed in range(games):
        analysis = analyst.analyse(simulate(kind, levels, seed))
        for line, level in zip(analysis.seats, levels, strict=True):
            turns = sum(t.seat == line.seat for t in analysis.turns) or 1
            assert line.final is not None and line.accuracy is not None
            rows[level].append((line.skill_loss / turns, line.accuracy, line.final, turns))
    unit = "per turn" if analyst.by_turn else "per game"
    for level, found in rows.items():
        print(
            f"{kind} {level:8} skill loss {unit} {statistics.mean(r[0] for r in found):7.2f}"
            f"  accuracy {100 * statistics.mean(r[1] for r in found):5.1f} %"
            f"  mean result {statistics.mean(r[2] for r in found):8.1f}"
        )


def picture(kind: str, levels: Sequence[str], names: list[str], seed: int, path: Path) -> None:
    from games.analysis_chart import render
    from games.kinds import kind_for

    analyst = kind_for(kind).analyst
    assert analyst is not None
    analysis = analyst.analyse(simulate(kind, levels, seed))
    path.write_text(render(kind, analyst.chart(analysis), analysis.seats, names))
    print(f"wrote {path.relative_to(ROOT)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.utils import translation

    django.setup()
    figures("yatzy", ("optimal", "casual"), args.games)
    figures("ten_thousand", ("expert", "classic"), args.games)
    FIGURES.mkdir(exist_ok=True)
    with translation.override(args.lang):
        picture("yatzy", ("optimal", "casual"), ["Optimal", "Casual"], 3,
                FIGURES / "analysis-yatzy.svg")  # fmt: skip
        picture("ten_thousand", ("expert", "classic"), ["Expert", "Classic"], 3,
                FIGURES / "analysis-ten-thousand.svg")  # fmt: skip


if __name__ == "__main__":
    main()
