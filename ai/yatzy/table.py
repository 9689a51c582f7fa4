"""The strategy table on disk: one ``.npz`` file, validated before use, written atomically.

Two arrays: ``table`` (``ai.yatzy.solver``) and ``header``: the format, the checksum of the rules
it was built for (``Rules.checksum()``: bonuses, joker variant, the whole score table), the shape,
a SHA-256 of the table and the start value. A file that is missing, unreadable, of another format
or rules, or does not match its digest is rebuilt (in ``ai.disk.cache_dir()``).
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import numpy as np

from ai.disk import Kept, cache_dir, load_npz, read_or_build, save_npz
from ai.yatzy.scoring import ALL_USED, RULES, Rules
from ai.yatzy.solver import TABLE_SHAPE, Table, build_table

log = logging.getLogger(__name__)

FORMAT_VERSION = 1
FILE_STEM = "yatzy_table"

_kept = Kept[Table]()


def table_path(directory: Path | None = None, rules: Rules = RULES) -> Path:
    """The file for these rules (the default rules keep a short, stable name)."""
    name = FILE_STEM if rules == RULES else f"{FILE_STEM}_{rules.checksum()[:12]}"
    return (directory or cache_dir()) / f"{name}.v{FORMAT_VERSION}.npz"


def _digest(table: Table) -> str:
    return hashlib.sha256(np.ascontiguousarray(table).tobytes()).hexdigest()


def save_table(table: Table, path: Path, rules: Rules = RULES) -> None:
    """Write ``table`` to ``path`` atomically (``ai.disk.save_npz``)."""
    header = {
        "format": FORMAT_VERSION,
        "game": "yatzy",
        "rules": rules.checksum(),
        "shape": list(table.shape),
        "dtype": str(table.dtype),
        "sha256": _digest(table),
        "start_value": float(table[0, 0, 0]),
    }
    save_npz(path, header, table=table)


def read_table(path: Path, rules: Rules = RULES) -> Table | None:
    """The table in ``path`` if the file is valid for ``rules``, else ``None`` (never raises for a
    bad or missing file)."""
    loaded = load_npz(path, "table")
    if loaded is None:
        return None
    header, table = loaded
    problem = _problem(header, table, rules)
    if problem:
        log.warning("yatzy table %s rejected (%s): rebuilding", path, problem)
        return None
    return table


def _problem(header: object, table: Table, rules: Rules) -> str | None:
    if not isinstance(header, dict):
        return "no header"
    if header.get("format") != FORMAT_VERSION:
        return f"format {header.get('format')!r}, expected {FORMAT_VERSION}"
    if header.get("rules") != rules.checksum():
        return "built for other rules"
    if table.shape != TABLE_SHAPE or table.dtype != np.float32:
        return f"shape {table.shape} {table.dtype}"
    if header.get("sha256") != _digest(table):
        return "checksum mismatch"
    if not np.isfinite(table).all() or table[ALL_USED].any() or not 200 < table[0, 0, 0] < 300:
        return "implausible values"
    return None


def load_table(rules: Rules = RULES, directory: Path | None = None) -> Table:
    """The strategy table (read-only), loaded (or built and saved) on first use, then kept for the
    process: concurrent first calls wait for one load."""
    path = table_path(directory, rules)

    def read_or_built() -> Table:
        return read_or_build(
            path,
            lambda at: read_table(at, rules),
            lambda: (build_table(rules), {}),
            lambda at, table, _facts: save_table(table, at, rules),
        )

    return _kept.get((str(path), rules.checksum()), read_or_built)


def forget_loaded() -> None:
    """Drop the tables kept in memory (tests; a new ``DICE_AI_CACHE_DIR``)."""
    _kept.clear()
