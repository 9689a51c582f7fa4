"""The worked examples of games/rules/README.md, read from the page and checked against the rules
library: the page a client author reads cannot say something the server does not do."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.rules import ten_thousand_scoring as dix_mille
from games.rules import yatzy
from games.rules.ten_thousand_scoring import farkle_probability

PAGE = Path(__file__).resolve().parents[2] / "games" / "rules" / "README.md"


def _section_rows(heading: str, game: str) -> list[list[str]]:
    """The body rows of the first table under ``### heading`` in the ``## game`` section."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split(f"\n## {game}", 1)[1].split("\n## ", 1)[0]
    part = section.split(f"\n### {heading}\n", 1)[1].split("\n### ", 1)[0]
    table = [line for line in part.splitlines() if line.startswith("|")]
    assert len(table) > 3, f"no table under {heading!r}"
    return [[cell.strip().strip("`") for cell in row.strip("|").split("|")] for row in table[2:]]


def _dice(cell: str) -> list[int]:
    return [int(face) for face in cell.split()]


def _sheet(cell: str) -> dict[str, int]:
    if cell == "none":
        return {}
    return {box: int(points) for box, points in (pair.split("=") for pair in cell.split())}


YATZY_ROWS = _section_rows("Worked examples", "Yatzy")
DIX_MILLE_ROWS = _section_rows("Worked examples", "Dés 10 000")


@pytest.mark.parametrize(("dice", "used", "box", "points", "bonus"), YATZY_ROWS)
def test_yatzy_examples_score_as_the_page_says(
    dice: str, used: str, box: str, points: str, bonus: str
) -> None:
    sheet = _sheet(used)
    legal = yatzy.score_options(_dice(dice), sheet)
    assert legal.get(box) == int(points), legal
    assert yatzy.yatzy_bonus(_dice(dice), sheet) == int(bonus)


def test_the_page_holds_the_joker_and_sacrifice_cases() -> None:
    joker = [row for row in YATZY_ROWS if row[4] == "100"]
    assert len(joker) == 3
    # Step 1 of the joker: the face's upper box, and it alone.
    assert yatzy.score_options(_dice(joker[0][0]), _sheet(joker[0][1])) == {"fours": 20}
    sacrifice = next(row for row in YATZY_ROWS if row[0] == "1 1 3 4 6")
    assert yatzy.must_sacrifice(_dice(sacrifice[0]), _sheet(sacrifice[1]))


@pytest.mark.parametrize(("roll", "kept", "points"), DIX_MILLE_ROWS)
def test_dix_mille_examples_score_as_the_page_says(roll: str, kept: str, points: str) -> None:
    faces = _dice(roll)
    if points == "lost round":
        assert kept == "none"
        assert dix_mille.is_farkle(faces)
        return
    chosen = _dice(kept)
    remaining = list(faces)
    for face in chosen:
        remaining.remove(face)  # the set-aside comes from the roll
    expected = None if points == "refused" else int(points)
    assert dix_mille.score_keep(chosen) == expected


def test_the_risks_on_the_page_are_the_rules_risks() -> None:
    text = PAGE.read_text(encoding="utf-8")
    sentence = re.search(r"grows as fewer dice are thrown: (.+?); the state", text, re.S)
    assert sentence is not None
    figures = [float(f) for f in re.findall(r"(\d+\.\d+) %", sentence.group(1))]
    assert figures == [round(100 * farkle_probability(n), 3) for n in range(6, 0, -1)]
