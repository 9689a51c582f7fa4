"""Benchmark of the Dés 10 000 computer players (prints figures; never asserts on time).

    .venv/bin/python bench/ten_thousand_ai.py [--games 10000] [--turns 200000] [--target 10000]
        [--seed 1] [--fast] [--smoke]

1. builds the expert's tables (``ai.ten_thousand.warm_up``) and reports the time;
2. plays ``--games`` seeded two-seat games, expert against classic, the first seat alternating
   (even games: expert first), through the rules engine (``games.rules.ten_thousand``
   start/decide/apply with a seeded roller; ``--fast``: the direct simulation
   ``ai.ten_thousand.match.play_fast``, which plays the very same games and is checked against
   the engine by the tests); reports expert's win rate (a shared first place counts half) with
   its 95 % interval, by seat, the mean game length in turns and the time taken;
3. plays ``--turns`` seeded solitaire turns per level (one seat, nothing banked) and reports the
   mean points per turn with its 95 % interval, next to the exact values of the dynamic programs:
   551.55 (optimal), 495.5 (bank at 300 with the best set-asides) and classic's own.

``--smoke``: 20 games to 5000 (the smallest target), 200 turns; it checks that the engine and
the direct simulation play the very same games (places and length), and that every game has a
first place.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Checks, parse_args  # a sibling module: the benches are scripts, not a package

from ai.ten_thousand import (
    expected_turn_value,
    optimal_turn_value,
    threshold_turn_value,
    warm_up,
)
from ai.ten_thousand.match import play_engine, play_fast, solitaire_turn

LEVELS = ("expert", "classic")
SMOKE: dict[str, Any] = {"games": 20, "turns": 200, "target": 5000}


def interval(successes: float, n: int) -> tuple[float, float, float]:
    """Rate and its 95 % normal-approximation interval (within 0 and 1: at a few games, the
    approximation's own bounds can pass them)."""
    rate = successes / n
    half = 1.96 * math.sqrt(rate * (1.0 - rate) / n)
    return rate, max(rate - half, 0.0), min(rate + half, 1.0)


def play_games(games: int, target: int, seed: int, fast: bool) -> None:
    play = play_fast if fast else play_engine
    score = {0: 0.0, 1: 0.0}  # expert's points by its seat (0: it plays first)
    count = {0: 0, 1: 0}
    ties = turns = 0
    start = time.perf_counter()
    for game in range(games):
        seat = game % 2
        levels = LEVELS if seat == 0 else LEVELS[::-1]
        result = play(levels, target, seed * 1_000_003 + game)
        mine, theirs = result.places[seat], result.places[1 - seat]
        score[seat] += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
        ties += mine == theirs
        count[seat] += 1
        turns += result.turns
    elapsed = time.perf_counter() - start
    rate, low, high = interval(score[0] + score[1], games)
    how = "direct simulation (--fast)" if fast else "rules engine start/decide/apply"
    print(f"games: {games} two-seat games to {target}, expert vs classic, via {how}")
    print(f"  expert win rate: {rate:.2%}  (95 % interval {low:.2%} - {high:.2%}; ties {ties})")
    for seat in (0, 1):
        if count[seat]:
            r, lo, hi = interval(score[seat], count[seat])
            order = "first" if seat == 0 else "second"
            print(f"    expert seated {order}: {r:.2%} ({lo:.2%} - {hi:.2%}) over {count[seat]}")
    print(f"  mean game length: {turns / games:.2f} turns ({turns / games / 2:.2f} per seat)")
    print(f"  time: {elapsed:.1f} s ({elapsed / games * 1000:.2f} ms per game)")


def play_turns(turns: int, seed: int) -> None:
    print(f"solitaire turns: {turns} seeded fresh turns per level")
    for level in ("classic", "expert"):
        rng = random.Random(seed * 7919 + len(level))
        start = time.perf_counter()
        total = square = 0
        for _ in range(turns):
            points = solitaire_turn(level, rng)
            total += points
            square += points * points
        elapsed = time.perf_counter() - start
        mean = total / turns
        sd = math.sqrt(max(square / turns - mean * mean, 0.0))
        half = 1.96 * sd / math.sqrt(turns)
        exact = expected_turn_value(level)
        print(
            f"  {level:8} mean {mean:7.2f} +- {half:4.2f} (sd {sd:.0f})   exact {exact:.2f}"
            f"   [{elapsed:.1f} s]"
        )
    print(
        f"  exact: optimal turn {optimal_turn_value():.2f}, bank-at-300 with best set-asides"
        f" {threshold_turn_value(300):.2f}"
    )


def same_games(checks: Checks, games: int, target: int, seed: int) -> None:
    """The two ways of playing (``--fast`` or not) play the same seeded games, each with places
    that make sense (a first place; no seat placed below the number of seats)."""
    differ = odd = 0
    for game in range(games):
        levels = LEVELS if game % 2 == 0 else LEVELS[::-1]
        engine = play_engine(levels, target, seed * 1_000_003 + game)
        fast = play_fast(levels, target, seed * 1_000_003 + game)
        differ += (engine.places, engine.turns) != (fast.places, fast.turns)
        odd += min(engine.places) != 1 or max(engine.places) > len(levels)
    checks.expect(differ == 0, f"engine and direct simulation: {differ} of {games} games differ")
    checks.expect(odd == 0, f"games without a first place or with a place out of range: {odd}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=200_000)
    parser.add_argument("--target", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fast", action="store_true", help="direct simulation, not the engine")
    args = parse_args(parser, argv, SMOKE)
    checks = Checks(args.smoke)

    start = time.perf_counter()
    warm_up(args.target)
    print(
        f"tables (score, reach, outcome distributions, win model for {args.target}): "
        f"{time.perf_counter() - start:.2f} s"
    )
    if args.games:
        play_games(args.games, args.target, args.seed, args.fast)
    if args.turns:
        play_turns(args.turns, args.seed)
    if checks.enabled:
        same_games(checks, args.games, args.target, args.seed)
    return checks.exit_code()


if __name__ == "__main__":
    sys.exit(main())
