"""games.rules.fairness, the pure function: the same dice as the issue's words written again, a
skipped byte never biases a face, the commitment and the reveal on the wire."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter

import pytest

from games.rules import fairness, ten_thousand, yatzy
from games.rules.base import WireError
from tests.fairness.independent import seat_seeded_dice, seeded_dice


def test_the_dice_are_the_algorithms_for_any_seed_nonce_and_count() -> None:
    rng = random.Random(12)
    for _ in range(300):
        seed = rng.randbytes(32)
        client = "".join(chr(rng.randint(32, 126)) for _ in range(rng.randint(0, 64)))
        nonce, count = rng.randint(0, 10_000), rng.randint(0, 40)
        assert list(fairness.dice(seed, client, nonce, count)) == seeded_dice(
            seed, client, nonce, count
        )


def test_a_byte_of_252_or_more_is_skipped() -> None:
    # Find a roll whose first block holds a byte >= 252 among its first six bytes.
    seed = bytes(32)
    for nonce in range(10_000):
        digest = hmac.new(seed, f":{nonce}:0".encode(), hashlib.sha256).digest()
        if any(b >= 252 for b in digest[:6]):
            break
    else:
        pytest.fail("no such roll")
    kept = [b % 6 + 1 for b in digest if b < 252][:6]
    assert list(fairness.dice(seed, "", nonce, 6)) == kept


def test_the_faces_are_even() -> None:
    seed = bytes(range(32))
    faces = Counter(d for nonce in range(6000) for d in fairness.dice(seed, "x", nonce, 5))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert max(faces.values()) - min(faces.values()) < 0.05 * 5000


def test_the_roller_numbers_its_rolls_from_the_games_next_nonce() -> None:
    seed = bytes(32)
    roller = fairness.FairDice(seed, "a,b", nonce=7)
    assert roller(5) == fairness.dice(seed, "a,b", 7, 5)
    assert roller(2) == fairness.dice(seed, "a,b", 8, 2)
    assert roller.calls == 2


@pytest.mark.parametrize(
    "seed", ["a", "~" * 64, " spaced out ", "ann's seed,1:2"], ids=["1", "64", "space", "marks"]
)
def test_client_seeds(seed: str) -> None:
    assert fairness.is_client_seed(seed)


@pytest.mark.parametrize("seed", ["", "x" * 65, "é", "tab\t", "\x7f", None, 5])
def test_not_client_seeds(seed: object) -> None:
    assert not fairness.is_client_seed(seed)


@pytest.mark.parametrize("engine", [yatzy, ten_thousand], ids=["yatzy", "ten_thousand"])
def test_commitment_and_reveal_on_the_wire(engine: object) -> None:
    seed = fairness.new_server_seed()
    commitment = fairness.Commitment(fairness.seed_hash(seed), ",b")
    (started,) = engine.start(2, None, commitment)  # type: ignore[attr-defined]
    wire = started.to_wire()
    assert wire["fairness"] == {
        "server_seed_hash": hashlib.sha256(seed).hexdigest(),
        "client_seed": ",b",
        "algorithm": "hmac-sha256-v1",
    }
    assert engine.event_from_wire(wire) == started  # type: ignore[attr-defined]
    assert fairness.commitment_of(started) == commitment
    # A game from before fair dice: no key at all, as its events were written.
    (plain,) = engine.start(2, None)  # type: ignore[attr-defined]
    assert "fairness" not in plain.to_wire()
    assert fairness.commitment_of(plain) is None
    finished = engine.GameFinished(totals=(3, 4), places=(2, 1))  # type: ignore[attr-defined]
    assert "server_seed" not in finished.to_wire()
    (revealed,) = fairness.revealed([finished], seed)
    assert revealed.to_wire()["server_seed"] == seed.hex()
    assert engine.event_from_wire(revealed.to_wire()) == revealed  # type: ignore[attr-defined]
    assert fairness.commitment_holds(seed, commitment.server_seed_hash)
    assert not fairness.commitment_holds(bytes(32), commitment.server_seed_hash)


def test_verify_names_the_rolls_that_differ() -> None:
    seed = bytes(32)
    rolls = [list(fairness.dice(seed, "c", n, 5)) for n in range(4)]
    assert fairness.verify(seed, "c", rolls) == []
    rolls[2] = [(d % 6) + 1 for d in rolls[2]]
    (wrong,) = fairness.verify(seed, "c", rolls)
    assert wrong.nonce == 2 and list(wrong.actual) == rolls[2]


# --- version 2 ----------------------------------------------------------------------------------


def test_a_seats_dice_are_the_version_2_formulas() -> None:
    rng = random.Random(21)
    for _ in range(300):
        seed = rng.randbytes(32)
        client = "".join(chr(rng.randint(32, 126)) for _ in range(rng.randint(0, 64)))
        seat, nonce, count = rng.randint(0, 5), rng.randint(0, 10_000), rng.randint(0, 40)
        assert list(fairness.seat_dice(seed, client, seat, nonce, count)) == seat_seeded_dice(
            seed, client, seat, nonce, count
        )
    # The seat is in the message: two seats with one client seed roll apart.
    assert fairness.seat_dice(bytes(32), "s", 0, 0, 6) != fairness.seat_dice(
        bytes(32), "s", 1, 0, 6
    )


def test_a_seats_roller_numbers_its_own_rolls() -> None:
    seed = bytes(32)
    roller = fairness.SeatDice(seed, "ann", seat=1, nonce=4)
    assert roller(5) == fairness.seat_dice(seed, "ann", 1, 4, 5)
    assert roller(2) == fairness.seat_dice(seed, "ann", 1, 5, 2)
    assert roller.calls == 2


@pytest.mark.parametrize("engine", [yatzy, ten_thousand], ids=["yatzy", "ten_thousand"])
def test_a_version_2_commitment_and_a_seats_first_roll_on_the_wire(engine: object) -> None:
    seed = fairness.new_server_seed()
    commitment = fairness.Commitment(fairness.seed_hash(seed), algorithm=fairness.ALGORITHM_V2)
    assert commitment.version == 2
    (started,) = engine.start(2, None, commitment)  # type: ignore[attr-defined]
    assert started.to_wire()["fairness"] == {
        "server_seed_hash": fairness.seed_hash(seed),
        "algorithm": "hmac-sha256-v2",
    }
    assert engine.event_from_wire(started.to_wire()) == started  # type: ignore[attr-defined]
    extra: dict[str, object] = {"roll_number": 1, "held": ()} if engine is yatzy else {}
    roll = engine.DiceRolled(seat=1, dice=(1, 2, 3, 4, 5), **extra)  # type: ignore[attr-defined]
    assert "client_seed" not in roll.to_wire()  # a seat's later rolls name none
    first = fairness.seeded(roll, "b0b")
    assert first.to_wire()["client_seed"] == "b0b"
    assert engine.event_from_wire(first.to_wire()) == first  # type: ignore[attr-defined]
    assert fairness.seeded(roll, "").to_wire()["client_seed"] == ""  # a seat that gave none
    with pytest.raises(WireError):
        engine.event_from_wire({**first.to_wire(), "client_seed": "tab\t"})  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "wire",
    [
        {"server_seed_hash": "0" * 64, "algorithm": "hmac-sha256-v1"},  # v1 names its seed
        {"server_seed_hash": "0" * 64, "client_seed": "", "algorithm": "hmac-sha256-v2"},
        {"server_seed_hash": "0" * 64, "client_seed": "", "algorithm": "hmac-sha256-v3"},
    ],
    ids=["v1-without-seed", "v2-with-seed", "unknown"],
)
def test_a_commitment_says_one_known_formula(wire: dict[str, str]) -> None:
    with pytest.raises(WireError):
        fairness.Commitment.from_wire(wire)


def test_verify_seats_follows_each_seat_from_its_first_rolls_seed() -> None:
    seed = bytes(32)
    order = [(0, "a"), (1, "b"), (0, None), (1, None), (1, None)]
    made = {0: 0, 1: 0}
    rolls = []
    for seat, named in order:
        own = {0: "a", 1: "b"}[seat]
        faces = fairness.seat_dice(seed, own, seat, made[seat], 5)
        made[seat] += 1
        rolls.append(fairness.SeatRoll(seat, faces, named))
    assert fairness.verify_seats(seed, rolls) == []
    rolls[3] = fairness.SeatRoll(1, tuple((d % 6) + 1 for d in rolls[3].thrown))
    (wrong,) = fairness.verify_seats(seed, rolls)
    assert (wrong.roll, wrong.seat, wrong.nonce, wrong.unseeded) == (3, 1, 1, False)
    # A seat's first roll that names no seed is wrong, whatever its dice.
    unseeded = [fairness.SeatRoll(0, fairness.seat_dice(seed, "", 0, 0, 5))]
    (wrong,) = fairness.verify_seats(seed, unseeded)
    assert wrong.unseeded and wrong.expected == wrong.actual
