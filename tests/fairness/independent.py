"""The fair-dice algorithms of the issues (version 1: issue 12; version 2: "Dice that bind the
server"), written again from their text alone, apart from the server's code
(games.rules.fairness), so that a test compares two readings of the same words, as a third party
checking a game would."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from typing import Any


def seeded_dice(server_seed: bytes, client_seed: str, nonce: int, count: int) -> list[int]:
    """Version 1: bytes of HMAC-SHA256(server seed, "client:nonce:block"), block 0, 1, ...; a
    byte under 252 is the die byte % 6 + 1, any other byte is skipped."""
    faces: list[int] = []
    block = 0
    while len(faces) < count:
        digest = hmac.new(
            server_seed, f"{client_seed}:{nonce}:{block}".encode(), hashlib.sha256
        ).digest()
        faces += [byte % 6 + 1 for byte in digest if byte < 252]
        block += 1
    return faces[:count]


def seat_seeded_dice(
    server_seed: bytes, seat_client_seed: str, seat: int, nonce: int, count: int
) -> list[int]:
    """Version 2: a seat's rolls are HMAC-SHA256(key=server_seed,
    msg=f"{seat_client_seed}:{seat}:{nonce}:{block}"), nonce counting that seat's own rolls from
    0, block counting 32-byte blocks from 0, bytes of 252 and over skipped, b % 6 + 1."""
    faces: list[int] = []
    for block in range(1000):
        message = f"{seat_client_seed}:{seat}:{nonce}:{block}".encode()
        for byte in hmac.new(server_seed, message, hashlib.sha256).digest():
            if byte <= 251 and len(faces) < count:
                faces.append(byte % 6 + 1)
        if len(faces) == count:
            break
    return faces


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


def recomputed(kind: str, events: list[dict[str, Any]], server_seed: bytes) -> list[list[int]]:
    """Version 2, as a third party reads a log: each seat's client seed is the one its first
    ``dice_rolled`` names; every roll's dice by the formula, in the log's order. The rolls the
    formula gives, to compare with ``rolls``."""
    seeds: dict[int, str] = {}
    made: dict[int, int] = {}
    expected = []
    for event in events:
        if event["type"] != "dice_rolled":
            continue
        data = event["data"]
        seat = data["seat"]
        if seat not in seeds:
            seeds[seat] = data["client_seed"]  # a KeyError: the first roll names no seed
        nonce = made.get(seat, 0)
        made[seat] = nonce + 1
        count = len(thrown(kind, data))
        expected.append(seat_seeded_dice(server_seed, seeds[seat], seat, nonce, count))
    return expected
