"""Benchmark of the Dés 10 000 computer players (prints figures; never asserts on time).

    .venv/bin/python bench/ten_thousand_ai.py [--games 10000] [--turns 200000] [--target 10000]
        [--seed 1] [--fast] [--duel 0] [--build] [--into DIR] [--smoke]

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

4. ``--duel N``: N seeds, each played twice (the same dice, the seats swapped: common random
   numbers), two seats to ``--target``, the expert against ``model`` (the expert of before the
   exact tables) and against ``classic``. Every throw's luck is measured in the exact table
   (the exact chance after it, best choice, minus before it) and every choice's loss too (best
   minus chosen): a seat's result is its exact chance at the start plus its luck minus its own
   loss plus the other's, so the luck-adjusted result (result minus luck) has the same mean and
   a far smaller spread. Reports both, per pair of games, with 95 % intervals, and each level's
   loss per game (the expert's own is its distance from perfect play).
5. ``--build``: solves each target's exact table (``ai.ten_thousand.exact.build``) in a fresh
   process and reports its time (CPU and wall), peak memory (the process's maximum resident set)
   and the turns solved, compares it with the shipped table, and times numpy's solve of one
   turn (``exact.turn_values``) to estimate a numpy-only build; ``--into DIR`` writes the tables
   there (``--into ai/ten_thousand/exact_data`` rebuilds the shipped ones).

``--smoke``: 20 games to 5000 (the smallest target), 200 turns, a duel of 2 seeds; it checks that
the engine and the direct simulation play the very same games (places and length), that every
game has a first place, and that each duel game's result is its start plus luck minus the
losses, exactly.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Checks, parse_args  # a sibling module: the benches are scripts, not a package

from ai.analysis.ten_thousand_chances import last_turn_worth
from ai.ten_thousand import (
    MODEL,
    best_move,
    exact,
    exact_tables,
    expected_turn_value,
    optimal_turn_value,
    threshold_turn_value,
    warm_up,
)
from ai.ten_thousand.match import play_engine, play_fast, seeded_roller, solitaire_turn
from ai.ten_thousand.rolls import DICE, UNIT
from games.rules.ten_thousand_scoring import keep_options, score_keep

LEVELS = ("expert", "classic")
SMOKE: dict[str, Any] = {"games": 20, "turns": 200, "target": 5000, "duel": 2}


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


def duel_game(levels: tuple[str, str], target: int, seed: int) -> tuple[float, float, list[float]]:
    """One two-seat game, scored in the exact table: (seat 0's result, a tie a half; its luck,
    its exact chance at the start, the chance to win each seat gave away by its choices)."""
    win = exact_tables.load(target)
    assert win is not None
    roller = seeded_roller(random.Random(seed))
    totals, seat, trigger = [0, 0], 0, -1
    luck, given = 0.0, [0.0, 0.0]
    start = float(win[0, 0])
    while True:
        a, b = totals[seat] // UNIT, totals[1 - seat] // UNIT
        last = trigger >= 0
        turn = None if last else exact_tables.turn(target, a, b)
        sign = 1.0 if seat == 0 else -1.0  # chances are the mover's; luck is seat 0's

        def worth(
            points: int, left: int, banks: bool, a: int = a, b: int = b, turn: Any = turn
        ) -> float:
            if turn is None:
                return last_turn_worth(b - a + 1 - points // UNIT, left, banks)
            return float(turn.worth(a + points // UNIT, left, banks=banks))

        lasts = exact.last_chances()
        before = float(lasts[min(b - a, len(lasts) - 1)] if last else win[a, b])
        points, dice = 0, DICE
        while True:
            roll = roller(dice)
            options = keep_options(roll)
            if not options:  # a lost turn
                luck += sign * ((0.0 if last else 1.0 - float(win[b, a])) - before)
                break
            best = max(
                worth(points + p, dice - len(f) or DICE, banks)
                for f, p in options
                for banks in (True, False)
            )
            luck += sign * (best - before)
            faces, bank = best_move(roll, points, totals, seat, target, last, levels[seat])
            points += score_keep(faces) or 0
            dice = dice - len(faces) or DICE
            before = worth(points, dice, bank)
            given[seat] += best - before
            if bank:
                totals[seat] += points
                trigger = seat if trigger < 0 and totals[seat] >= target else trigger
                break
        seat = 1 - seat
        if seat == trigger:
            result = 1.0 if totals[0] > totals[1] else 0.5 if totals[0] == totals[1] else 0.0
            return result, luck, [start, *given]


def mean_interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % normal interval."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(n - 1, 1)
    return mean, 1.96 * math.sqrt(var / n)


def play_duels(checks: Checks, seeds: int, target: int, seed: int) -> None:
    print(f"duel: {seeds} seeds x 2 seatings (the same dice), two seats to {target}")
    for other in (MODEL, "classic"):
        raw, adjusted, mine, theirs = [], [], [], []
        worst = 0.0
        started = time.perf_counter()
        for game in range(seeds):
            pair_raw = pair_adjusted = 0.0
            for first in (True, False):
                levels = ("expert", other) if first else (other, "expert")
                result, luck, (start, lost0, lost1) = duel_game(levels, target, seed * 7 + game)
                me = 0 if first else 1
                score = result if first else 1.0 - result
                fair = result - luck  # = start - lost0 + lost1, from seat 0's side
                worst = max(worst, abs(fair - (start - lost0 + lost1)))
                pair_raw += score / 2
                pair_adjusted += (fair if first else 1.0 - fair) / 2
                mine.append((lost0, lost1)[me])
                theirs.append((lost1, lost0)[me])
            raw.append(pair_raw)
            adjusted.append(pair_adjusted)
        elapsed = time.perf_counter() - started
        r, rh = mean_interval(raw)
        f, fh = mean_interval(adjusted)
        print(f"  expert vs {other}:")
        print(f"    expert score: {r:.2%} +- {rh:.2%} (raw), {f:.4%} +- {fh:.4%} (luck-adjusted)")
        print(
            f"    win chance given away per game: expert {sum(mine) / len(mine):.2e}, "
            f"{other} {sum(theirs) / len(theirs):.5f}   [{elapsed:.1f} s]"
        )
        checks.expect(worst < 1e-9, f"result = start + luck - losses: off by {worst:.1e}")


def build_one(target: int, into: str | None) -> None:
    """In this process (fresh): build ``target``'s table, print its figures as JSON."""
    units = target // UNIT
    exact.build(2)  # compiles the kernel (or loads it from numba's cache)
    cpu, wall = time.process_time(), time.perf_counter()
    win, residual, turns = exact.build(units)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    shipped = exact_tables.read(exact_tables.path_for(target, exact_tables.SHIPPED), units)
    off = None if shipped is None else float(abs(win - shipped).max())
    sample = [(a * 37 % units, a * 91 % units) for a in range(40)]
    numpy_turn = time.process_time()
    for a, b in sample:
        exact.turn_values(win, a, b)
    numpy_turn = (time.process_time() - numpy_turn) / len(sample)
    if into:
        path = exact_tables.path_for(target, Path(into))
        exact_tables.save(win, exact_tables.header(win, residual, wall), path)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    figures = {"cpu": cpu, "wall": wall, "rss": rss, "turns": turns, "residual": residual}
    print(json.dumps({**figures, "first": float(win[0, 0]), "off": off, "numpy_turn": numpy_turn}))


def build_tables(targets: list[int], into: str | None) -> None:
    print("exact tables: a fresh process per target (the kernel compiled before the clock starts)")
    for target in targets:
        command = [sys.executable, __file__, "--build-one", str(target)]
        out = subprocess.run(command + (["--into", into] if into else []), check=True,
                             capture_output=True, text=True).stdout  # fmt: skip
        got = json.loads(out.strip().splitlines()[-1])
        numpy_estimate = got["numpy_turn"] * got["turns"]
        off = "not shipped" if got["off"] is None else f"{got['off']:.1e} from the shipped"
        print(
            f"  {target:>6}: {got['cpu']:.1f} s CPU ({got['wall']:.1f} s wall), peak memory"
            f" {got['rss']:.0f} MiB, {got['turns']} turns solved, first mover"
            f" {got['first']:.6f}, residual {got['residual']:.1e}, {off}; numpy, one turn at a"
            f" time: {got['numpy_turn'] * 1000:.2f} ms a turn, about {numpy_estimate:.0f} s"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=200_000)
    parser.add_argument("--target", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fast", action="store_true", help="direct simulation, not the engine")
    parser.add_argument("--duel", type=int, default=0, help="seeds of the exact-table duel")
    parser.add_argument("--build", action="store_true", help="build the exact tables")
    parser.add_argument("--into", help="with --build: write the tables there")
    parser.add_argument("--build-one", type=int, help=argparse.SUPPRESS)
    args = parse_args(parser, argv, SMOKE)
    checks = Checks(args.smoke)
    if args.build_one:
        build_one(args.build_one, args.into)
        return 0
    if args.build:
        build_tables(list(exact_tables.TARGETS), args.into)
        return 0

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
    if args.duel:
        play_duels(checks, args.duel, args.target, args.seed)
    if checks.enabled:
        same_games(checks, args.games, args.target, args.seed)
    return checks.exit_code()


if __name__ == "__main__":
    sys.exit(main())
