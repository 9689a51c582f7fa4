from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

_names = itertools.count(1)


class Client(APIClient):
    """An API client for one account, with helpers that fail loudly on an unexpected status."""

    username: str

    def ok(self, method: str, url: str, data: Any = None, status: int = 200, **kw: Any) -> Any:
        response = getattr(self, method)(url, data, format="json", **kw)
        assert response.status_code == status, (response.status_code, response.json())
        return response.json() if response.content else None


@pytest.fixture
def make_client(db: None) -> Callable[..., Client]:
    def make(username: str | None = None, password: str = "correct-horse-battery") -> Client:
        client = Client()
        name = username or f"player{next(_names)}"
        body = client.ok(
            "post",
            "/api/v1/accounts/register/",
            {"username": name, "password": password},
            status=201,
        )
        client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
        client.username = name
        return client

    return make


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


class ScriptedDice:
    """Replaces the server's RNG in tests: queued rolls first, then a seeded generator."""

    def __init__(self, seed: int = 7) -> None:
        import random

        self.queue: list[tuple[int, ...]] = []
        self.random = random.Random(seed)

    def push(self, *rolls: Any) -> None:
        self.queue.extend(tuple(roll) for roll in rolls)

    def __call__(self, n: int) -> tuple[int, ...]:
        if self.queue:
            roll = self.queue.pop(0)
            assert len(roll) == n, (roll, n)
            return roll
        return tuple(self.random.randint(1, 6) for _ in range(n))


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> ScriptedDice:
    scripted = ScriptedDice()
    monkeypatch.setattr("games.services.secure_roller", scripted)
    return scripted


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    """Throttle counters live in the cache: every test starts with none."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    # Registration hashes a password in most tests; the real hasher is slow by design.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
