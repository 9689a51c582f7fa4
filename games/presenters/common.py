from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def places_summary(places: Sequence[int], totals: Sequence[int]) -> dict[str, Any]:
    """The result block shared by every game: places, totals, winners, and whether it is a draw."""
    winners = [seat for seat, place in enumerate(places) if place == 1]
    return {
        "places": list(places),
        "totals": list(totals),
        "winners": winners,
        "draw": len(winners) > 1,
    }
