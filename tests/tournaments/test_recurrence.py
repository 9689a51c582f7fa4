from __future__ import annotations

from datetime import UTC, datetime

import pytest

from config.vocabulary.errors import InvalidInput
from games.tournaments.recurrence import next_occurrence, validate_cron


def at(
    year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0
) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC)


@pytest.mark.parametrize(
    ("line", "after", "expected"),
    [
        ("0 18 * * *", at(2026, 11, 30, 17, 59), at(2026, 11, 30, 18, 0)),
        ("0 18 * * *", at(2026, 11, 30, 18, 0), at(2026, 12, 1, 18, 0)),
        ("30 9 * * 1", at(2026, 11, 30, 10, 0), at(2026, 12, 7, 9, 30)),  # Mondays
        ("0 0 1 * *", at(2026, 12, 15), at(2027, 1, 1)),
        ("*/15 * * * *", at(2026, 11, 30, 10, 7, 30), at(2026, 11, 30, 10, 15)),
        ("0 12 29 2 *", at(2026, 3, 1), at(2028, 2, 29, 12, 0)),
    ],
)
def test_next_occurrence(line: str, after: datetime, expected: datetime) -> None:
    assert next_occurrence(line, after=after) == expected


@pytest.mark.parametrize("line", ["every day", "0 18 * *", "61 * * * *", "0 0 30 2 *"])
def test_bad_lines_are_refused(line: str) -> None:
    with pytest.raises(InvalidInput) as error:
        validate_cron(line)
    assert error.value.get_codes() == "invalid_recurrence"
