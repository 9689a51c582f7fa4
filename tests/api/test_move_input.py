"""MoveInput.read (the move's envelope without building a serializer for the usual move) gives
what the serializer gives, and refuses what it refuses, with its errors."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.exceptions import ValidationError

from games.api.serializers import MoveInput

CASES: list[Any] = [
    {"type": "roll"},
    {"type": "roll", "hold": [0, 2], "expected_version": 3},
    {"type": "score", "box": "chance", "expected_version": 0},
    {"type": "select", "box": None},
    {"type": "bank", "keep": [1, 4], "seat": 1, "expected_version": 12},
    {"type": "roll", "expected_version": -1},
    {"type": "roll", "expected_version": "3"},
    {"type": "roll", "expected_version": True},
    {"type": "roll", "expected_version": None},
    {"type": "roll", "expected_version": 2.0},
    {"type": "roll", "expected_version": 2.5},
    {"type": ""},
    {"type": "   "},
    {"type": " roll "},
    {"type": "jump"},
    {"type": ["roll"]},
    {"type": None},
    {"type": 3},
    {"hold": [1]},
    {},
    [],
    "roll",
    None,
]


def through_serializer(data: Any) -> Any:
    serializer = MoveInput(data=data)
    if serializer.is_valid():
        return dict(serializer.validated_data)
    return ("refused", serializer.errors)


def read(data: Any) -> Any:
    try:
        return MoveInput.read(data)
    except ValidationError as exc:
        return ("refused", exc.detail)


@pytest.mark.parametrize("data", CASES, ids=repr)
def test_read_is_the_serializer(data: Any) -> None:
    # ErrorDetail compares its code too: the refusals are the same words and codes.
    assert read(data) == through_serializer(data)
