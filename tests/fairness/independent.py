"""The fair-dice algorithm of issue 12, written again from its text alone, apart from the server's
code (games.rules.fairness), so that a test compares two readings of the same words."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from typing import Any


def seeded_dice(server_seed: bytes, client_seed: str, nonce: int, count: int) -> list[int]:
    """Bytes of HMAC-SHA256(server seed, "client:nonce:block"), block 0, 1, ...; a byte under
    252 is the die byte % 6 + 1, any other byte is skipped."""
    faces: list[int] = []
    block = 0
    while len(faces) < count:
        digest = hmac.new(
            server_seed, f"{client_seed}:{nonce}:{block}".encode(), hashlib.sha256
        ).digest()
        faces += [byte % 6 + 1 for byte in digest if byte < 252]
        block += 1
    return faces[:count]


def thrown(kind: str, data: dict[str, Any]) -> list[int]:
    """The dice a ``dice_rolled`` event threw, in the order of the positions they filled."""
    if kind == "yatzy":
        return [face for i, face in enumerate(data["dice"]) if i not in data["held"]]
    return list(data["dice"])


def rolls(kind: str, events: list[dict[str, Any]]) -> Iterator[list[int]]:
    """Every roll of a game's log (API events), in order: each takes the next nonce."""
    for event in events:
        if event["type"] == "dice_rolled":
            yield thrown(kind, event["data"])
