"""gunicorn's configuration (config/deploy/gunicorn.conf.py) beyond its refusal to share no
counts (test_shared_counts.py): what each worker does once the application is loaded."""

from __future__ import annotations

import gc
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_a_worker_freezes_the_loaded_application_out_of_the_collectors_reach(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WEB_CONCURRENCY", "1")
    conf = runpy.run_path(str(ROOT / "config" / "deploy" / "gunicorn.conf.py"))
    assert gc.get_freeze_count() == 0
    try:
        conf["post_worker_init"](object())
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
