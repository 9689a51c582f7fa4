"""The cost of the rules' wire codecs: what every move pays to read the snapshot and write back.

For each game: encoding (``to_wire``) and decoding (``state_from_wire``, ``event_from_wire``) of a
mid-game and an end-game state and of one event of each type, taken from the seeded games that
``tests/rules/wire_forms.jsonl`` pins. Prints the best of ``--repeat`` runs in microseconds per
call, as a table, and the sum a move of each game pays (decode a state, encode it and two events).

    .venv/bin/python bench/wire_codec.py [--number 20000] [--repeat 7] [--smoke]

``--smoke``: 50 calls, one run; it checks that each form timed decodes to the object timed and
encodes back to its pinned wire form.
"""

from __future__ import annotations

import argparse
import json
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from harness import Checks, parse_args  # noqa: E402  (a sibling module: the benches are scripts)

from games.rules import ten_thousand, yatzy  # noqa: E402

GOLDEN = ROOT / "tests" / "rules" / "wire_forms.jsonl"
ENGINES: dict[str, Any] = {"yatzy": yatzy, "ten_thousand": ten_thousand}
SMOKE: dict[str, Any] = {"number": 50, "repeat": 1}


def best_microseconds(call: Callable[[], object], number: int, repeat: int) -> float:
    return min(timeit.repeat(call, number=number, repeat=repeat)) / number * 1e6


def cases(kind: str) -> list[tuple[str, Any, dict[str, Any]]]:
    """(name, decoded object, its wire form): mid and end state, the first event of each type."""
    lines = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    lines = [line for line in lines if line["game"] == kind]
    engine = ENGINES[kind]
    mid, end = lines[len(lines) // 2]["state"], lines[-1]["state"]
    found = [
        ("state mid-game", engine.state_from_wire(mid), mid),
        ("state end-game", engine.state_from_wire(end), end),
    ]
    seen: set[str] = set()
    for line in lines:
        event = line["event"]
        if event["type"] not in seen:
            seen.add(event["type"])
            found.append((event["type"], engine.event_from_wire(event), event))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20_000, help="calls per run")
    parser.add_argument("--repeat", type=int, default=7, help="runs; the best is shown")
    args = parse_args(parser, argv, SMOKE)
    checks = Checks(args.smoke)
    print(f"{'game':<13} {'what':<20} {'encode µs':>10} {'decode µs':>10}")
    for kind, engine in ENGINES.items():
        timings = {}
        for name, value, wire in cases(kind):
            decode = engine.state_from_wire if name.startswith("state") else engine.event_from_wire
            encoded = best_microseconds(value.to_wire, args.number, args.repeat)
            decoded = best_microseconds(lambda d=decode, w=wire: d(w), args.number, args.repeat)
            timings[name] = (encoded, decoded)
            print(f"{kind:<13} {name:<20} {encoded:10.2f} {decoded:10.2f}")
            if checks.enabled:
                round_trip = decode(wire) == value and value.to_wire() == wire
                checks.expect(round_trip, f"{kind} {name}: decodes and encodes back to its form")
        state_mid = timings["state mid-game"]
        rolled = timings["dice_rolled"][0]
        move = sum(state_mid) + 2 * rolled
        print(f"{kind:<13} {'a move (see above)':<20} {move:10.2f}")
    return checks.exit_code()


if __name__ == "__main__":
    sys.exit(main())
