"""The rules and the computer players are libraries of their own: importing them loads no Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "module",
    [
        "games.rules.yatzy",
        "games.rules.ten_thousand",
        "games.rules.fairness",
        "ai.yatzy",
        "ai.ten_thousand",
        "ai.analysis.yatzy",
        "ai.analysis.ten_thousand",
        "players.ratings",
    ],
)
def test_importing_loads_no_django(module: str) -> None:
    code = (
        "import sys, importlib; "
        f"importlib.import_module({module!r}); "
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]", result.stdout
