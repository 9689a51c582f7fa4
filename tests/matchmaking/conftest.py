"""What the matchmaking tests share: the player notes that pairing and rematch publish."""

from __future__ import annotations

from typing import Any

import pytest

from games import live


@pytest.fixture
def notes(monkeypatch) -> list[tuple[int, dict[str, Any]]]:
    """The player notes published (after their transaction commits)."""
    sent: list[tuple[int, dict[str, Any]]] = []

    def publish(batch: Any, *args: Any, **kwargs: Any) -> None:
        sent.extend(
            (payload["player"], payload["note"]) for topic, payload in batch if topic == "players"
        )

    monkeypatch.setattr(live, "publish", publish)
    return sent
