"""Benchmark of the Yatzy computer player (prints figures; never asserts on time).

    .venv/bin/python bench/yatzy_ai.py [--games 100000] [--seed 1] [--positions 20000] [--smoke]

1. builds the strategy table from scratch (into a temporary directory: the shared cache is left
   alone), reporting the build time, peak memory and the exact start value;
2. times single decisions (``ai.yatzy.best_move``) over random positions, for both levels;
3. simulates seeded solitaire games with both levels and reports mean, standard deviation, the 95 %
   interval of the mean, the upper-bonus rate and the Yatzy rate.

The simulator is vectorised over games (all games play turn t together); the optimal player's
decisions come from ``ai.yatzy.batch.OptimalTurn`` (the same values as ``best_move``), the casual
player's from ``ai.yatzy.casual.casual_moves`` (exactly ``best_move(level="casual")``). Scoring uses
``ai.yatzy.scoring``; when ``games.rules.yatzy`` is importable, a sample of the scored moves is
replayed through its ``score_options`` / ``yatzy_bonus`` as an independent check.

``--smoke``: 300 games and 200 positions a level. The table is not built from scratch (minutes):
the shared cache's (``var/ai``, built there if missing, as ``manage.py build_ai_tables`` does) is
saved into the temporary directory and loaded back as a full run's is, and the solver rebuilds
its last two levels (the states with 12 and 11 boxes used), which must equal the table's. It
checks those, the start value, the optimal player's mean score against it (within four standard
errors: the seeds are fixed, so the figure is the same at every run) and the rules cross-check.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Checks, parse_args  # a sibling module: the benches are scripts, not a package

from ai.disk import CACHE_ENV
from ai.yatzy import HASBRO_RULES, best_move, build_table
from ai.yatzy.batch import OptimalTurn
from ai.yatzy.casual import casual_moves
from ai.yatzy.dice import ALL_KEEPERS, ROLLS
from ai.yatzy.scoring import BOXES, NBOXES, UPPER_CAP, YATZY, Ints, points_matrix
from ai.yatzy.solver import TABLE_SHAPE, _level_columns, start_values
from ai.yatzy.table import load_table, save_table, table_path

try:
    from games.rules.yatzy import score_options, yatzy_bonus
except ImportError:  # the rules library is optional here
    score_options = yatzy_bonus = None  # type: ignore[assignment]

# dice rows -> roll index: sorted faces read as a base-6 number
_CODE = 6 ** np.arange(4, -1, -1)
_ROLL_OF_CODE = np.full(6**5, -1, dtype=np.int64)
for _r, _faces in enumerate(ROLLS):
    _ROLL_OF_CODE[int(((np.array(_faces) - 1) * _CODE).sum())] = _r
# flat keeper index -> its faces, padded with 0 (a die to throw)
_KEEPER_DICE = np.array([list(k) + [0] * (5 - len(k)) for k in ALL_KEEPERS], dtype=np.int64)
START_VALUE = 254.4848  # the exact expected score of optimal play, to 4 decimals
SMOKE: dict[str, Any] = {"games": 300, "positions": 200}
SMOKE_LEVELS = (12, 11)  # the solver's levels a smoke run rebuilds (states with that many used)


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def partial_build(levels: tuple[int, ...]) -> tuple[Any, list[tuple[Ints, Ints, Ints]]]:
    """The solver's first ``levels`` (from the end of the game back), as ``build_table`` computes
    them, on a table of zeros: (that table, the columns of each level computed)."""
    table = np.zeros(TABLE_SHAPE, dtype=np.float32)
    computed = []
    for level in levels:
        ms, us, js = _level_columns(level)
        table[ms, us, js] = start_values(table, ms, us, js)
        computed.append((ms, us, js))
    return table, computed


def build_figures(trace: bool, shared: Any = None) -> tuple[Any, dict[str, float]]:
    """Build the table, save it where ``load_table`` looks ($DICE_AI_CACHE_DIR), load it back.
    With ``trace``, a second build runs under tracemalloc (slower) for its peak allocations.
    Given ``shared`` (a smoke run), that table is saved and loaded instead, and only the
    solver's last levels are built (``partial`` then says whether they equal ``shared``'s)."""
    before = rss_mib()
    start = time.perf_counter()
    cpu = time.process_time()
    partial = math.nan
    if shared is None:
        table = build_table()
    else:
        table = shared
        rebuilt, columns = partial_build(SMOKE_LEVELS)
        partial = float(all(np.array_equal(rebuilt[c], shared[c]) for c in columns))
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    after = rss_mib()
    traced = math.nan
    if trace:
        tracemalloc.start()
        build_table()
        traced = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    path = table_path()
    t = time.perf_counter()
    save_table(table, path)
    saved = time.perf_counter() - t
    t = time.perf_counter()
    loaded_table = load_table()
    loaded = time.perf_counter() - t
    if not np.array_equal(loaded_table, table):
        raise AssertionError(f"the table loaded back from {path} is not the one saved")
    return loaded_table, {
        "partial_equal": partial,
        "build_s": wall,
        "build_cpu_s": cpu,
        "traced_peak_mib": traced,
        "rss_peak_mib": after,
        "rss_before_mib": before,
        "file_mib": path.stat().st_size / 2**20,
        "save_s": saved,
        "load_s": loaded,
        "start": float(table[0, 0, 0]),
    }


def random_positions(n: int, seed: int) -> list[tuple[list[int], dict[str, int], int]]:
    """Positions from random but possible sheets (any used boxes, points they could hold)."""
    rng = random.Random(seed)
    lower_points = {
        "three_of_a_kind": [0, 12, 18, 24],
        "four_of_a_kind": [0, 14, 22],
        "full_house": [0, 25],
        "small_straight": [0, 30],
        "large_straight": [0, 40],
        "chance": [17, 22, 26],
        "yatzy": [0, 50],
    }
    out = []
    for _ in range(n):
        used = rng.sample(BOXES, rng.randint(0, NBOXES - 1))
        sheet = {
            b: (BOXES.index(b) + 1) * rng.randint(0, 5)
            if b in BOXES[:6]
            else rng.choice(lower_points[b])
            for b in used
        }
        out.append(([rng.randint(1, 6) for _ in range(5)], sheet, rng.randint(0, 2)))
    return out


def latency(level: str, positions: list[tuple[list[int], dict[str, int], int]]) -> dict[str, float]:
    times = np.empty(len(positions))
    for i, (dice, sheet, rolls_left) in enumerate(positions):
        t = time.perf_counter()
        best_move(dice, sheet, rolls_left, level)
        times[i] = time.perf_counter() - t
    us = times * 1e6
    return {
        "mean": us.mean(),
        "p50": np.percentile(us, 50),
        "p99": np.percentile(us, 99),
        "max": us.max(),
    }


@dataclass
class Games:
    """The state of a batch of solitaire games."""

    masks: Ints
    upper: Ints  # raw upper sum (not capped)
    jokers: Ints
    score: Ints
    bonuses: Ints
    points: Ints  # (games, 13): what each used box holds

    @classmethod
    def new(cls, n: int) -> Games:
        def zeros(*shape: int) -> Ints:
            return np.zeros(shape, dtype=np.int64)

        return cls(zeros(n), zeros(n), zeros(n), zeros(n), zeros(n), zeros(n, NBOXES))

    def sheet(self, p: int) -> dict[str, int]:
        return {BOXES[b]: int(self.points[p, b]) for b in range(NBOXES) if self.masks[p] >> b & 1}


class RulesCheck:
    """Replays a sample of scored moves through ``games.rules.yatzy`` (when importable)."""

    def __init__(self, limit: int = 5000) -> None:
        self.limit, self.checked = limit, 0

    def __call__(
        self, games: Games, players: Ints, dice: Ints, boxes: Ints, got: Ints, bonus: Ints
    ) -> None:
        if score_options is None or self.checked >= self.limit:
            return
        for i in range(min(players.size, 100)):
            faces = [int(d) for d in dice[i]]
            sheet = games.sheet(int(players[i]))
            options = score_options(faces, sheet)
            if options.get(BOXES[boxes[i]]) != got[i] or yatzy_bonus(faces, sheet) != bonus[i]:
                raise AssertionError(f"rules disagree: {faces} {sheet} {BOXES[boxes[i]]} {got[i]}")
            self.checked += 1


rules_check = RulesCheck()


def score(games: Games, players: Ints, rolls: Ints, boxes: Ints, dice: Ints) -> None:
    pts, bonus = points_matrix(games.masks[players], games.jokers[players], rolls)
    got = pts[boxes, np.arange(players.size)]
    if (got < 0).any():
        raise AssertionError("a player chose an illegal box")
    rules_check(games, players, dice, boxes, got, bonus)
    games.score[players] += got + bonus
    games.bonuses[players] += bonus > 0
    games.upper[players] += np.where(boxes < 6, got, 0)
    games.jokers[players] = np.where(
        boxes == YATZY, (got > 0).astype(np.int64), games.jokers[players]
    )
    games.masks[players] |= 1 << boxes
    games.points[players, boxes] = got


def play(n: int, rng: np.random.Generator, level: str, table: Any) -> tuple[Games, Ints]:
    """Play n games to the end; returns the games and their final totals."""
    games = Games.new(n)
    for _turn in range(NBOXES):
        capped = np.minimum(games.upper, UPPER_CAP)
        turn = OptimalTurn(table, games.masks, capped, games.jokers) if level == "optimal" else None
        players = np.arange(n)
        dice = rng.integers(1, 7, size=(n, 5))
        for rolls_left in (2, 1, 0):
            rolls = _ROLL_OF_CODE[(np.sort(dice, axis=1) - 1) @ _CODE]
            if turn is not None:
                boxes, keep = turn.moves(players, rolls, rolls_left)
            else:
                boxes, keep = casual_moves(
                    rolls, games.masks[players], capped[players], games.jokers[players], rolls_left
                )
            done = boxes >= 0
            score(games, players[done], rolls[done], boxes[done], dice[done])
            players, keep = players[~done], keep[~done]
            if players.size == 0:
                break
            dice = _KEEPER_DICE[keep]
            throw = dice == 0
            dice[throw] = rng.integers(1, 7, size=int(throw.sum()))
        assert players.size == 0
    totals = games.score + 35 * (games.upper >= 63)
    return games, totals


def simulate(level: str, n: int, seed: int, table: Any, chunk: int = 20000) -> dict[str, float]:
    rng = np.random.default_rng([seed, 0 if level == "optimal" else 1])
    start = time.perf_counter()
    totals, upper_bonus, yatzy, bonus = [], [], [], []
    for i in range(0, n, chunk):
        games, t = play(min(chunk, n - i), rng, level, table)
        totals.append(t)
        upper_bonus.append(games.upper >= 63)
        yatzy.append(games.jokers == 1)
        bonus.append(games.bonuses)
    elapsed = time.perf_counter() - start
    tot = np.concatenate(totals).astype(np.float64)
    std = float(tot.std(ddof=1))
    return {
        "games": n,
        "seconds": elapsed,
        "mean": float(tot.mean()),
        "std": std,
        "ci95": 1.96 * std / math.sqrt(n),
        "upper_bonus_rate": float(np.concatenate(upper_bonus).mean()),
        "yatzy_rate": float(np.concatenate(yatzy).mean()),
        "bonus_per_game": float(np.concatenate(bonus).mean()),
        "min": float(tot.min()),
        "max": float(tot.max()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100_000, help="games simulated per level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--positions", type=int, default=20_000, help="positions timed per level")
    parser.add_argument(
        "--tracemalloc", action="store_true", help="build a second time under tracemalloc"
    )
    parser.add_argument(
        "--hasbro", action="store_true", help="also build the Hasbro-joker table (254.5877)"
    )
    args = parse_args(parser, argv, SMOKE)
    checks = Checks(args.smoke)
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, {os.cpu_count()} CPUs")

    shared = load_table() if args.smoke else None  # the shared cache, before it is left alone
    with tempfile.TemporaryDirectory(prefix="yatzy-bench-") as cache:
        os.environ[CACHE_ENV] = cache  # build from scratch; leave the shared cache alone
        how = "from scratch" if shared is None else "smoke: the shared cache's table"
        print(f"\n== Table build ({how}, into {cache})")
        table, b = build_figures(args.tracemalloc, shared)
        levels = "" if shared is None else f" (levels {SMOKE_LEVELS} only)"
        print(f"build time        {b['build_s']:.2f} s wall, {b['build_cpu_s']:.2f} s CPU{levels}")
        print(
            f"memory            process peak RSS {b['rss_peak_mib']:.0f} MiB after the build "
            f"({b['rss_before_mib']:.0f} MiB before it)"
            + (
                ""
                if math.isnan(b["traced_peak_mib"])
                else f"; tracemalloc peak {b['traced_peak_mib']:.1f} MiB"
            )
        )
        print(
            f"file              {b['file_mib']:.2f} MiB, save {b['save_s'] * 1e3:.0f} ms, "
            f"validated load {b['load_s'] * 1e3:.0f} ms"
        )
        print(f"start value       {b['start']:.6f}  (expected 254.4848)")
        if args.hasbro:
            t = time.perf_counter()
            hasbro = float(build_table(HASBRO_RULES)[0, 0, 0])
            print(
                f"Hasbro joker      {hasbro:.6f}  (expected 254.5877; "
                f"built in {time.perf_counter() - t:.1f} s)"
            )

        print("\n== Decision latency (best_move, table loaded, random positions)")
        positions = random_positions(args.positions, args.seed)
        best_move(*positions[0])  # the first call loads the table
        lat = {level: latency(level, positions) for level in ("optimal", "casual")}
    for level, f in lat.items():
        print(
            f"{level:8}  mean {f['mean']:6.1f} us  p50 {f['p50']:6.1f} us  "
            f"p99 {f['p99']:6.1f} us  max {f['max']:7.1f} us  ({len(positions)} positions)"
        )

    print(f"\n== Simulation ({args.games} games per level, seed {args.seed})")
    sims = {}
    for level in ("optimal", "casual"):
        s = simulate(level, args.games, args.seed, table)
        sims[level] = s
        print(
            f"{level:8}  mean {s['mean']:.2f} ± {s['ci95']:.2f} (95 % CI)  std {s['std']:.2f}  "
            f"upper bonus {s['upper_bonus_rate']:.1%}  yatzy {s['yatzy_rate']:.1%}  "
            f"Yatzy bonuses/game {s['bonus_per_game']:.3f}  range {s['min']:.0f}..{s['max']:.0f}  "
            f"in {s['seconds']:.1f} s ({args.games / s['seconds']:.0f} games/s)"
        )
    if score_options is not None:
        print(f"rules cross-check: {rules_check.checked} scored moves agree with games.rules.yatzy")

    print("\n== Summary")
    rows = [
        ("table build", f"{b['build_s']:.1f} s", f"peak RSS {b['rss_peak_mib']:.0f} MiB"),
        ("start value", f"{b['start']:.4f}", "exact, expected 254.4848"),
    ]
    for level in ("optimal", "casual"):
        s, f = sims[level], lat[level]
        rows.append((f"{level} decision", f"p50 {f['p50']:.0f} us", f"p99 {f['p99']:.0f} us"))
        rows.append(
            (
                f"{level} games",
                f"{s['mean']:.2f} ± {s['ci95']:.2f}",
                f"std {s['std']:.2f}, bonus {s['upper_bonus_rate']:.1%}, "
                f"yatzy {s['yatzy_rate']:.1%}, {s['seconds']:.0f} s",
            )
        )
    width = max(len(r[0]) for r in rows)
    for name, a, c in rows:
        print(f"{name:<{width}}  {a:>16}  {c}")
    if checks.enabled:
        smoke_checks(checks, b, sims, lat, len(positions))
    return checks.exit_code()


def smoke_checks(
    checks: Checks,
    b: dict[str, float],
    sims: dict[str, dict[str, float]],
    lat: dict[str, dict[str, float]],
    positions: int,
) -> None:
    checks.expect(
        b["partial_equal"] == 1.0,
        f"the solver's levels {SMOKE_LEVELS} rebuilt equal the table's",
    )
    checks.expect(
        abs(b["start"] - START_VALUE) < 5e-5, f"start value {b['start']:.6f} ({START_VALUE})"
    )
    optimal = sims["optimal"]
    error = optimal["std"] / math.sqrt(optimal["games"])
    checks.expect(
        abs(optimal["mean"] - b["start"]) <= 4 * error,
        f"optimal games' mean {optimal['mean']:.2f}: within 4 standard errors ({error:.2f}) of "
        f"the start value {b['start']:.2f}",
    )
    checks.expect(
        all(f["p50"] > 0 for f in lat.values()), f"decisions timed over {positions} positions"
    )
    if score_options is not None:
        checks.expect(rules_check.checked > 0, f"rules cross-check: {rules_check.checked} moves")


if __name__ == "__main__":
    sys.exit(main())
