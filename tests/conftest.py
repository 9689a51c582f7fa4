"""Shared by every test package. API fixtures live in tests/api/conftest.py."""

from __future__ import annotations

import os

import pytest

# Without Redis, tasks queued by moves go to an in-process broker rather than the files of
# `make run`; with REDIS_URL (CI) they go to Redis, where the worker tests read them.
if not os.environ.get("REDIS_URL"):
    os.environ.setdefault("CELERY_BROKER_URL", "memory://")
os.environ.setdefault("COMPUTER_MOVE_DELAY", "0")


def on_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip = pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL")
    for item in items:
        if "postgres" in item.keywords and not on_postgres():
            item.add_marker(skip)
