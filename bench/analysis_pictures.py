"""The analysis's figures and pictures: luck against skill over simulated games.

Plays seeded games of both kinds between the computer levels (the rules engines alone, no server),
analyses each (``ai.analysis``) and prints, per level, the mean skill loss, accuracy and result;
then draws one game of each kind as ``games/{id}/analysis.svg`` draws it, into
``bench/figures/`` (docs/api.md, "Analysis", shows them; ``--out`` another directory).

    .venv/bin/python bench/analysis_pictures.py [--games 200] [--lang en] [--out DIR] [--smoke]

``--smoke``: 2 games a kind, the pictures drawn into a temporary directory (the committed ones are
left alone); it checks that each picture is an SVG document, that the optimal yatzy player loses
no skill (the analysis measures against that very play) and that every accuracy is a share.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
FIGURES = ROOT / "bench" / "figures"
SMOKE: dict[str, Any] = {"games": 2}

from harness import Checks, parse_args  # noqa: E402  (a sibling module: the benches are scripts)


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


def figures(kind: str, levels: Sequence[str], games: int) -> dict[str, tuple[float, float]]:
    """Prints the figures of each level; returns its mean skill loss and accuracy."""
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
    means = {}
    for level, found in rows.items():
        means[level] = (statistics.mean(r[0] for r in found), statistics.mean(r[1] for r in found))
        print(
            f"{kind} {level:8} skill loss {unit} {means[level][0]:7.2f}"
            f"  accuracy {100 * means[level][1]:5.1f} %"
            f"  mean result {statistics.mean(r[2] for r in found):8.1f}"
        )
    return means


def picture(kind: str, levels: Sequence[str], names: list[str], seed: int, path: Path) -> None:
    from games.analysis.chart import render
    from games.kinds import kind_for

    analyst = kind_for(kind).analyst
    assert analyst is not None
    analysis = analyst.analyse(simulate(kind, levels, seed))
    path.write_text(render(kind, analyst.chart(analysis), analysis.seats, names))
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def is_svg(path: Path) -> bool:
    try:
        return ET.parse(path).getroot().tag.endswith("svg")
    except (OSError, ET.ParseError):
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--lang", default="en")
    parser.add_argument(
        "--out", type=Path, default=None, help="where the pictures go (bench/figures/)"
    )
    args = parse_args(parser, argv, SMOKE)
    checks = Checks(args.smoke)
    # A smoke run draws into a directory of its own: bench/figures/ holds the committed pictures.
    temporary = args.out is None and args.smoke
    out = Path(tempfile.mkdtemp(prefix="dice-analysis-")) if temporary else args.out or FIGURES
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.utils import translation

    django.setup()
    means = figures("yatzy", ("optimal", "casual"), args.games)
    means |= figures("ten_thousand", ("expert", "classic"), args.games)
    out.mkdir(exist_ok=True)
    drawn = [out / "analysis-yatzy.svg", out / "analysis-ten-thousand.svg"]
    try:
        with translation.override(args.lang):
            picture("yatzy", ("optimal", "casual"), ["Optimal", "Casual"], 3, drawn[0])
            picture("ten_thousand", ("expert", "classic"), ["Expert", "Classic"], 3, drawn[1])
        for path in drawn:
            checks.expect(is_svg(path), f"{path.name} is an SVG document")
    finally:
        if temporary:
            shutil.rmtree(out, ignore_errors=True)
    loss, accuracy = means["optimal"]
    checks.expect(
        loss == 0 and accuracy == 1,
        f"yatzy optimal: skill loss {loss:.2f}, accuracy {100 * accuracy:.1f} % (0 and 100 %)",
    )
    shares = [a for _loss, a in means.values()]
    checks.expect(all(0 <= a <= 1 for a in shares), f"accuracies within 0-100 %: {shares}")
    return checks.exit_code()


if __name__ == "__main__":
    sys.exit(main())
