"""The fixtures of every test package; the data they build comes from tests/factories.py, the
injected dice and clock from tests/doubles.py."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence

import pytest
from django.test import override_settings
from pytest_django import Settings
from rest_framework.test import APIClient

# Without Redis, tasks queued by moves go to an in-process broker rather than the files of
# `make run`; with REDIS_URL (CI) they go to Redis. The worker tests read them from either.
if not os.environ.get("REDIS_URL"):
    os.environ.setdefault("CELERY_BROKER_URL", "memory://")
os.environ.setdefault("COMPUTER_MOVE_DELAY", "0")

from players.models import Player
from tests import factories
from tests.doubles import ScriptedDice


def on_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip = pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL")
    for item in items:
        if "postgres" in item.keywords and not on_postgres():
            item.add_marker(skip)


@pytest.fixture(autouse=True, scope="session")
def _flush_past_the_event_log_guard() -> Iterator[None]:
    """A transactional test's database is emptied by TRUNCATE, which the event log refuses
    (games migration 0008): the tests' superuser lets its own flush through, as replication does
    (``session_replication_role``, which the runtime role cannot set)."""
    if not on_postgres():
        yield
        return
    from django.core.management.color import Style
    from django.db.backends.base.operations import BaseDatabaseOperations
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.sql_flush

    def sql_flush(
        self: BaseDatabaseOperations,
        style: Style,
        tables: Sequence[str],
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        statements = original(
            self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
        return ["SET LOCAL session_replication_role = replica", *statements] if statements else []

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]
    yield
    DatabaseOperations.sql_flush = original  # type: ignore[method-assign]


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hashing() -> Iterator[None]:
    # Making an account hashes its password in most tests; the real hasher is slow by design.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    """Throttle counters live in the cache: every test starts with none."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def make_client(db: None) -> factories.MakeClient:
    """Clients of new accounts, registered through the API (tests/factories.py: api_client)."""
    return factories.api_client


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


@pytest.fixture
def dice(settings: Settings) -> ScriptedDice:
    """The server's dice for this test: queued rolls, then seeded ones."""
    scripted = ScriptedDice()
    settings.GAMES_DICE_ROLLER = scripted
    return scripted


@pytest.fixture
def ann(db: None) -> Player:
    return factories.account("ann")


@pytest.fixture
def organiser(db: None) -> Player:
    """A staff account, "org", who may schedule tournaments."""
    return factories.organiser()


@pytest.fixture
def whole_pool_wait() -> Iterator[None]:
    """An outage refusal shortens the process's wait for a pooled connection until one is lent
    (config.web.outage), and the test client keeps its connection, so none is: the next tests get
    the pool's whole wait back here."""
    from django.db import connection

    pool = getattr(connection, "pool", None)
    whole = pool.timeout if pool is not None else None
    yield
    if pool is not None:
        pool.timeout = whole
