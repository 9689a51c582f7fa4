"""The exact two-seat game of Dés 10 000 (ai.ten_thousand.exact): its tables against an
independent solver, their invariants, the expert playing them and the analysis reading them."""

from __future__ import annotations

import dataclasses
import itertools
import random
from functools import cache

import numpy as np
import pytest

from ai.analysis import ten_thousand as analysed
from ai.ten_thousand import best_move, exact, exact_tables
from ai.ten_thousand.match import play_fast
from games.kinds.ten_thousand import command
from games.rules import ten_thousand
from games.rules.ten_thousand_scoring import keep_options

#: The first mover's chance at 5 000 (issue 29's figure, to its six decimals).
FIRST_MOVER_5000 = 0.545865
#: The table's policy iteration stops below 1e-12; two solvers agree far below this.
AGREE = 1e-9

# --- an independent solver, plain Python, for small targets -------------------------------------

#: Past this lead (units) the other seat's last turn counts as lost (its chance is below 4e-8).
CAP = 300


@cache
def _throws(n: int) -> tuple[tuple[float, tuple[tuple[int, int], ...]], ...]:
    """Each scoring throw of ``n`` dice: its chance and every set-aside as (units, dice left)."""
    counts: dict[tuple[int, ...], int] = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        key = tuple(sorted(faces))
        counts[key] = counts.get(key, 0) + 1
    out = []
    for key, count in counts.items():
        kept = tuple({(p // 50, n - len(f) or 6) for f, p in keep_options(key)})
        if kept:
            out.append((count / 6**n, kept))
    return tuple(out)


@cache
def _last_turn() -> tuple[float, ...]:
    """``last[L]``: one turn's chance to gain more than ``L`` units (exactly ``L``: a half)."""
    z: dict[int, list[float]] = {}

    def after(need: int, n: int) -> float:
        if need <= 0:
            return 1.0
        return max(z[need][n], 0.5 if need == 1 else 0.0) if need <= CAP + 1 else 0.0

    for need in range(1, CAP + 2):
        z[need] = [0.0] * 7
        for n in range(1, 7):
            z[need][n] = sum(p * max(after(need - x, m) for x, m in o) for p, o in _throws(n))
    return tuple(z[lead + 1][6] for lead in range(CAP + 1))


def _solve(units: int) -> list[list[float]]:
    """``W[a][b]`` by decreasing ``a + b``. For a fixed play a turn is linear in the worth ``f``
    of a lost turn: a secant through two values of ``f`` gives each pair's line, and the two
    lines of ``(a, b)`` and ``(b, a)`` meet at their chances; repeated until nothing moves."""
    last = _last_turn()
    six = 1 - sum(p for p, _ in _throws(6))
    win = [[0.0] * units for _ in range(units)]

    def turn(a: int, b: int, f: float) -> float:
        def bank(u: int) -> float:
            return 1 - (win[b][u] if u < units else last[u - b] if u - b <= CAP else 0.0)

        top = units  # from a lead with last <= six * (1 - f) on, throwing on cannot pay
        while top - b <= CAP and last[top - b] > six * (1 - f):
            top += 1
        top = max(top, a + 1)
        after: dict[int, list[float]] = {}
        for u in range(top + 160, a - 1, -1):
            row = [0.0] * 7
            for n in range(1, 7):
                if u >= top:
                    row[n] = bank(u)
                    continue
                throws = _throws(n)
                v = (1 - sum(p for p, _ in throws)) * f
                v += sum(p * max(after[u + x][m] for x, m in o) for p, o in throws)
                row[n] = v if u == a else max(v, bank(u))
            after[u] = row
        return after[a][6]

    for total in range(2 * units - 2, -1, -1):
        pairs = [(a, total - a) for a in range(units) if 0 <= total - a < units]
        w = dict.fromkeys(pairs, 0.5)
        for _ in range(50):
            lines = {}
            for a, b in pairs:
                f0 = 1 - w[b, a]
                f1 = f0 + 1e-3 if f0 < 0.5 else f0 - 1e-3
                v0, v1 = turn(a, b, f0), turn(a, b, f1)
                slope = (v1 - v0) / (f1 - f0)
                lines[a, b] = (v0 - slope * f0, slope)
            new = {}
            for a, b in pairs:
                (c, p), (d, q) = lines[a, b], lines[b, a]
                new[a, b] = (c + p * (1 - d - q)) / (1 - p * q)
            moved = max(abs(new[k] - w[k]) for k in pairs)
            w = new
            if moved < 1e-13:
                break
        for (a, b), value in w.items():
            win[a][b] = value
    return win


def test_last_turn_chances_agree() -> None:
    ours = exact.last_chances()
    assert max(abs(ours[lead] - theirs) for lead, theirs in enumerate(_last_turn())) < 1e-12


@pytest.mark.slow  # about 8 s of plain Python
@pytest.mark.parametrize("units", [4])  # 200 points: the smallest where banking short pays
def test_independent_solver_agrees(units: int) -> None:
    theirs = np.array(_solve(units))
    ours, residual, _ = exact.build(units)
    assert residual <= exact.TOLERANCE
    assert np.abs(ours - theirs).max() < AGREE
    assert ours[0, 0] == pytest.approx(0.5626254609616499, abs=AGREE)


# --- the shipped tables -------------------------------------------------------------------------


@pytest.fixture(scope="module", params=exact_tables.TARGETS)
def table(request: pytest.FixtureRequest) -> np.ndarray:
    win = exact_tables.load(request.param)
    assert win is not None
    return win


def test_tables_are_shipped_whole() -> None:
    for target in exact_tables.TARGETS:
        path = exact_tables.path_for(target, exact_tables.SHIPPED)
        assert exact_tables.read(path, target // 50) is not None, path


def test_the_tables_rules_are_the_same_on_every_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """A shipped table names the rules it was built for. Another CPU computes the chances to
    other last bits (numpy's vectorised sums): the name stays; a change of the rules changes it."""
    named = exact_tables._rules()
    throws, last = exact.throws(), exact.last_chances()

    def computed(prob: np.ndarray) -> None:
        monkeypatch.setattr(exact, "throws", lambda: dataclasses.replace(throws, prob=prob))
        monkeypatch.setattr(exact, "last_chances", lambda: np.nextafter(last, 0.0))

    computed(np.nextafter(throws.prob, 1.0))  # every chance a bit off
    assert exact_tables._rules() == named
    computed(throws.prob + np.where(np.arange(len(throws.prob)) == 3, 1 / 7776, 0.0))
    assert exact_tables._rules() != named


def test_first_mover_value_at_5000() -> None:
    win = exact_tables.load(5000)
    assert win is not None
    assert win[0, 0] == pytest.approx(FIRST_MOVER_5000, abs=2e-5)


def test_more_banked_is_better_and_the_other_s_worse(table: np.ndarray) -> None:
    assert ((table > 0) & (table < 1)).all()
    assert (np.diff(table, axis=0) >= -1e-12).all()  # increasing in one's own total
    assert (np.diff(table, axis=1) <= 1e-12).all()  # decreasing in the other's
    assert 0.5 < table[0, 0] < 0.56  # the first mover's edge


def test_each_pair_is_its_own_turn(table: np.ndarray) -> None:
    """The kernel's table is a fixed point of the turn solved again in numpy."""
    rng = random.Random(len(table))
    units = len(table)
    pairs = [(0, 0), (units - 1, units - 1), (units - 1, 0), (0, units - 1)]
    pairs += [(rng.randrange(units), rng.randrange(units)) for _ in range(12)]
    for a, b in pairs:
        assert exact.turn_values(table, a, b).go[0, 6] == pytest.approx(table[a, b], abs=AGREE)


def test_unknown_targets_have_no_table() -> None:
    assert exact_tables.load(7000) is None


def test_a_bad_file_is_rejected(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    path = exact_tables.path_for(5000, tmp_path)
    assert exact_tables.read(path, 100) is None  # missing
    path.write_bytes(b"not a table")
    assert exact_tables.read(path, 100) is None


@pytest.mark.slow
def test_the_5000_table_rebuilds_equal(tmp_path: object) -> None:
    """What the shipped table holds is what the build makes (``exact.build``, about 10 s)."""
    shipped = exact_tables.load(5000)
    rebuilt, _, _ = exact.build(100)
    assert shipped is not None and np.abs(rebuilt - shipped).max() < AGREE


# --- the expert ---------------------------------------------------------------------------------


def test_the_expert_keeps_fewer_points_when_it_pays() -> None:
    """3 000 against 4 750 at 5 000, 1 900 in the turn, 1 5 2 3 thrown: banking the 1 reaches
    5 000 and gives the other seat a last turn that needs only 300; banking the 5 stops at 4 950
    (the pruned set-asides, the best per number of dice, would keep the 1)."""
    win = exact_tables.load(5000)
    assert win is not None
    assert 1 - win[95, 99] > 1 - exact.last_chances()[100 - 95]  # 4 950 beats 5 000 there
    assert best_move((1, 5, 2, 3), 1900, (3000, 4750), 0, 5000, False, "expert") == ((5,), True)


def test_two_seat_games_differ_from_the_model_and_end() -> None:
    moves = 0
    for seed in range(4):
        levels = ("expert", "model") if seed % 2 else ("model", "expert")
        result = play_fast(levels, 5000, seed)
        assert max(result.totals) >= 5000 and min(result.places) == 1
        moves += result.turns
    assert moves > 0


# --- the analysis -------------------------------------------------------------------------------


def _game(seed: int, target: int) -> list[tuple[int, object]]:
    rng = random.Random(seed)

    def roller(n: int) -> tuple[int, ...]:
        return tuple(rng.randint(1, 6) for _ in range(n))

    (started,) = ten_thousand.start(2, {"target": target})
    state = ten_thousand.apply(None, started)
    events: list[object] = [started]
    while not state.finished:
        seat = state.turn_seat
        level = "expert" if seat == 0 else "classic"
        parsed = ten_thousand.command_from_wire(command(state, level), seat)
        for event in ten_thousand.decide(state, parsed, roller):
            state = ten_thousand.apply(state, event)
            events.append(event)
    return list(enumerate(events, start=1))


def _turn_starts(events: list[tuple[int, object]]) -> list[float]:
    """The mover's exact chance at the start of each turn, from the table read directly."""
    win = exact_tables.load(5000)
    assert win is not None
    last = exact.last_chances()
    chances, state = [], None
    for _, event in events:
        fresh = state is not None and not state.kept and not state.turn_points
        if state is not None and fresh and isinstance(event, ten_thousand.DiceRolled):
            a, b = (state.totals[s] // 50 for s in (state.turn_seat, 1 - state.turn_seat))
            chances.append(float(last[b - a] if state.last_round else win[a, b]))
        state = ten_thousand.apply(state, event)  # type: ignore[arg-type]
    return chances


def test_the_analysis_reads_the_exact_table() -> None:
    win = exact_tables.load(5000)
    assert win is not None
    for seed in range(3):
        events = _game(seed, 5000)
        analysis = analysed.analyse(events)  # type: ignore[arg-type]
        first = analysis.turns[0]
        assert first.seat == 0
        assert first.win_before == pytest.approx(FIRST_MOVER_5000, abs=2e-5)
        assert [t.win_before for t in analysis.turns] == _turn_starts(events)
        losses = [(d.seat, d.win_loss) for d in analysis.decisions]
        assert all(loss is not None and loss >= 0 for _, loss in losses)
        expert = [loss or 0.0 for seat, loss in losses if seat == 0]
        classic = [loss or 0.0 for seat, loss in losses if seat == 1]
        assert max(expert) < 1e-9 and sum(classic) > 0  # the expert plays the table, classic not
