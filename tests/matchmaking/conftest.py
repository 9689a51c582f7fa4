"""What the matchmaking tests share: the player notes that pairing and rematch publish."""

from __future__ import annotations

from typing import Any

import pytest

from games.followups import live

# The player notes published: (player id, note).
Notes = list[tuple[int, dict[str, Any]]]


@pytest.fixture
def notes(monkeypatch: pytest.MonkeyPatch) -> Notes:
    """The player notes published (after their transaction commits)."""
    sent: Notes = []

    def publish(batch: Any, *args: Any, **kwargs: Any) -> None:
        sent.extend(
            (payload["player"], payload["note"]) for topic, payload in batch if topic == "players"
        )

    monkeypatch.setattr(live, "publish", publish)
    return sent
