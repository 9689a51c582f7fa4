from __future__ import annotations

from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """How many cases schemathesis ran, for CI's output (tests/contract/test_schemathesis.py)."""
    from tests.contract.test_schemathesis import CASES

    if CASES:
        terminalreporter.write_line(
            f"schemathesis: {sum(CASES.values())} cases over {len(CASES)} operations "
            "(an operation's test fails on any server error or answer off the schema)"
        )
