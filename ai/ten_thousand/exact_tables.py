"""The exact two-seat tables (``exact.build``) on disk: one ``.npz`` per target, loaded lazily.

Shipped with the code (``SHIPPED``: 80 KB to 720 KB): the table (float64, ``units x units``) and
a header with the format, the digest of the throws and last-turn chances it was built from (so the
scoring rules), the tolerance, the build's time and a SHA-256 of the table. A shipped file that is
missing or does not match is replaced by one built in ``ai.disk.cache_dir`` (``ai.disk``: once,
atomically; a minute for 10 000, two for 15 000). Only the game's ``TARGETS`` have a table.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from pathlib import Path
from typing import Any

import numpy as np

from ai.disk import Kept, cache_dir, load_npz, read_or_build, save_npz
from ai.ten_thousand import exact
from ai.ten_thousand.rolls import UNIT
from ai.ten_thousand.tables import Array

log = logging.getLogger(__name__)

FORMAT = 1
TARGETS = (5000, 10000, 15000)
#: The tables shipped with the code (``bench/ten_thousand_ai.py --build --into`` rebuilds them).
SHIPPED = Path(__file__).resolve().parent / "exact_data"

_kept = Kept[Array]()


def path_for(target: int, directory: Path | None = None) -> Path:
    return (directory or cache_dir()) / f"ten_thousand_exact_{target}.v{FORMAT}.npz"


def _rules() -> str:
    t = exact.throws()
    digest = hashlib.sha256()
    for part in (t.farkle, t.starts, t.prob, t.first, t.units, t.left, exact.last_chances()):
        # Chances rounded to 1e-9: their last bits differ from one CPU to another (numpy's
        # vectorised sums), a change of the rules moves them by 1/7776 or more.
        digest.update(np.ascontiguousarray(np.round(part, 9)).tobytes())
    return digest.hexdigest()


def header(win: Array, residual: float, seconds: float) -> dict[str, object]:
    return {
        "format": FORMAT,
        "rules": _rules(),
        "tolerance": exact.TOLERANCE,
        "residual": residual,
        "build_seconds": round(seconds, 1),
        "sha256": hashlib.sha256(win.tobytes()).hexdigest(),
    }


def read(path: Path, units: int) -> Array | None:
    """The table in ``path`` if it is whole and made for these rules, else None."""
    loaded = load_npz(path, "win")
    if loaded is None:
        return None
    header, win = loaded
    fine = (
        isinstance(header, dict)
        and header.get("format") == FORMAT
        and header.get("rules") == _rules()
        and win.shape == (units, units)
        and header.get("sha256") == hashlib.sha256(win.tobytes()).hexdigest()
        and bool(np.all((win >= 0.0) & (win <= 1.0)))
    )
    if not fine:
        log.warning("ten_thousand table %s rejected: rebuilding", path)
    return win if fine else None


def save(win: Array, header: dict[str, object], path: Path) -> None:
    save_npz(path, header, win=win)


def _build(units: int) -> tuple[Array, dict[str, Any]]:
    win, residual, _ = exact.build(units)
    return win, {"residual": residual}


def _save(path: Path, win: Array, facts: dict[str, Any]) -> None:
    save(win, header(win, facts["residual"], facts["build_seconds"]), path)


def load(target: int, directory: Path | None = None) -> Array | None:
    """``W`` for ``target`` (read-only), on first use read from ``SHIPPED`` (else from
    ``directory``, else built there), then kept for the process; None for a target that is not
    one of ``TARGETS``."""
    if target not in TARGETS:
        return None
    path = path_for(target, directory)
    units = -(-target // UNIT)

    def shipped_or_built() -> Array:
        win = read(path_for(target, SHIPPED), units)
        if win is not None:
            return win
        return read_or_build(path, lambda at: read(at, units), lambda: _build(units), _save)

    return _kept.get(path, shipped_or_built)


def forget_loaded() -> None:
    """Drop the tables kept in memory (tests; a new ``DICE_AI_CACHE_DIR``)."""
    _kept.clear()
    turn.cache_clear()


@functools.lru_cache(maxsize=256)
def turn(target: int, a: int, b: int) -> exact.TurnValues | None:
    """The mover's turn at banked totals ``(a, b)`` (units), for ``target``'s table (if any)."""
    win = load(target)
    return None if win is None else exact.turn_values(win, a, b)
