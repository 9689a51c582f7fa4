from __future__ import annotations

import sys
from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """How many cases schemathesis ran, for CI's output (tests/contract/test_schemathesis.py)."""
    # Read only where it ran: importing it builds its schema, which a run without it cannot.
    module = sys.modules.get("tests.contract.test_schemathesis")
    CASES = module.CASES if module is not None else {}
    if CASES:
        terminalreporter.write_line(
            f"schemathesis: {sum(CASES.values())} cases over {len(CASES)} operations "
            "(an operation's test fails on any server error or answer off the schema)"
        )
