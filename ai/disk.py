"""Where every kind's computer keeps its tables on disk, and how it writes them."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]
V = TypeVar("V")

log = logging.getLogger(__name__)

CACHE_ENV = "DICE_AI_CACHE_DIR"


def cache_dir() -> Path:
    """The directory of the table files: ``$DICE_AI_CACHE_DIR`` or ``<repo root>/var/ai``."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1] / "var" / "ai"


def save_npz(path: Path, header: dict[str, Any], **arrays: Any) -> None:
    """Write ``arrays`` and ``header`` (UTF-8 JSON) to ``path`` atomically: a temporary file beside
    it, flushed, renamed over it, so that a reader sees the old file or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o644)  # readable by the other workers, like any cache file
        with os.fdopen(fd, "wb") as f:
            np.savez(f, header=raw, **arrays)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def load_npz(path: Path, name: str) -> tuple[Any, Array] | None:
    """The header and the array ``name`` in ``path``; None for a missing or unreadable file."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return json.loads(bytes(data["header"]).decode()), np.ascontiguousarray(data[name])
    except FileNotFoundError:
        return None
    except Exception as exc:  # truncated, not a zip, bad CRC, missing array, bad JSON: rebuild
        log.warning("table %s unreadable (%s): rebuilding", path, exc)
        return None


@contextlib.contextmanager
def build_lock(path: Path) -> Iterator[None]:
    """An advisory lock beside the file, so that concurrent processes build the table only once.
    Without one (not POSIX, read-only directory) concurrent builds only waste work: writes are
    atomic."""
    with contextlib.ExitStack() as stack:  # closing the file releases the lock
        try:
            import fcntl

            path.parent.mkdir(parents=True, exist_ok=True)
            lock_file = stack.enter_context(open(path.with_name(path.name + ".lock"), "a+b"))
            fcntl.flock(lock_file, fcntl.LOCK_EX)
        except (ImportError, OSError) as exc:
            log.warning("no build lock for %s (%s)", path, exc)
        yield


def read_or_build(
    path: Path,
    read: Callable[[Path], Array | None],
    build: Callable[[], tuple[Array, dict[str, Any]]],
    save: Callable[[Path, Array, dict[str, Any]], None],
) -> Array:
    """The table in ``path`` (``read``: None for a missing or bad file), else built (``build``:
    the table and what its header adds) under the build lock and saved there. The save is best
    effort: a read-only directory only costs a rebuild in the next process."""
    table = read(path)
    if table is not None:
        return table
    with build_lock(path):
        table = read(path)  # another process may have built it while this one waited
        if table is not None:
            return table
        started = time.perf_counter()
        table, facts = build()
        seconds = time.perf_counter() - started
        log.info("built %s in %.1f s", path.name, seconds)
        try:
            save(path, table, {**facts, "build_seconds": round(seconds, 1)})
        except OSError as exc:
            log.warning("cannot save %s: %s", path, exc)
        return table


class Kept(Generic[V]):
    """Values made once per process (arrays read-only): concurrent first calls wait for one."""

    def __init__(self) -> None:
        self._lock = threading.RLock()  # a value's make may get another value
        self._values: dict[Hashable, V] = {}

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        try:
            return self._values[key]
        except KeyError:
            pass
        with self._lock:
            if key not in self._values:
                value = make()
                if isinstance(value, np.ndarray):
                    value.setflags(write=False)
                self._values[key] = value
            return self._values[key]

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
