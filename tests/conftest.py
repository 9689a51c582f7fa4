"""Shared by every test package. API fixtures live in tests/api/conftest.py."""

from __future__ import annotations

import os

import pytest


def on_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip = pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL")
    for item in items:
        if "postgres" in item.keywords and not on_postgres():
            item.add_marker(skip)
