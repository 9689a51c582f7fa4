"""Who the client is behind proxies (config.web.client_address), and the sign-in guard on every way
in (players.login_guard): the API's token, /api-auth/ and the admin.

Run with REDIS_URL (CI) the counters are in Redis; without it, in the in-process cache.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.test import Client
from knox.models import AuthToken
from pytest_django import Settings
from rest_framework.test import APIClient

from config.web.client_address import address_behind_proxies
from tests import factories
from tests.doubles import throttle_rates

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/accounts/token/"
REGISTER = "/api/v1/accounts/register/"
GAMES = "/api/v1/games/"


@contextlib.contextmanager
def counted_hashes() -> Iterator[list[str]]:
    """Every password the hasher checks (the tests' hasher is MD5: conftest)."""
    seen: list[str] = []
    original = MD5PasswordHasher.verify

    def verify(self: MD5PasswordHasher, password: str, encoded: str) -> bool:
        seen.append(password)
        return original(self, password, encoded)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(MD5PasswordHasher, "verify", verify)
        yield seen


def sign_in(client: APIClient, username: str, password: str, address: str) -> int:
    return client.post(
        TOKEN, {"username": username, "password": password}, REMOTE_ADDR=address
    ).status_code


# --- the client's address ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("peer", "forwarded", "proxies", "client"),
    [
        ("10.0.0.9", "6.6.6.6", 0, "10.0.0.9"),  # no proxy of ours: the header is the client's
        ("127.0.0.1", "6.6.6.6, 203.0.113.5", 1, "203.0.113.5"),  # nginx appended the last
        ("127.0.0.1", "203.0.113.5", 1, "203.0.113.5"),
        ("127.0.0.1", "6.6.6.6, 203.0.113.5, 10.1.1.1", 2, "203.0.113.5"),  # a balancer first
        ("127.0.0.1", "203.0.113.5", 2, "127.0.0.1"),  # came round a proxy: its peer is it
        ("127.0.0.1", None, 1, "127.0.0.1"),
        ("127.0.0.1", "6.6.6.6, ", 1, "127.0.0.1"),  # an empty last entry is no address
    ],
)
def test_the_client_is_the_entry_our_proxies_appended(
    peer: str, forwarded: str | None, proxies: int, client: str
) -> None:
    assert address_behind_proxies(peer, forwarded, proxies) == client


@pytest.mark.parametrize("proxies", [0, 1])
def test_a_rotating_forwarded_for_header_defeats_no_throttle(
    anon: APIClient, settings: Settings, proxies: int
) -> None:
    settings.TRUSTED_PROXIES = proxies
    with throttle_rates(anon="3/min"):
        statuses = [
            anon.get(GAMES, HTTP_X_FORWARDED_FOR=f"198.51.100.{i}, 203.0.113.7").status_code
            for i in range(4)
        ]
    assert statuses == [200, 200, 200, 429]


def test_behind_one_proxy_each_client_has_its_own_counter(
    anon: APIClient, settings: Settings
) -> None:
    settings.TRUSTED_PROXIES = 1
    with throttle_rates(anon="2/min"):
        first = [anon.get(GAMES, HTTP_X_FORWARDED_FOR="203.0.113.7").status_code for _ in "abc"]
        other = anon.get(GAMES, HTTP_X_FORWARDED_FOR="203.0.113.8").status_code
    assert first == [200, 200, 429]
    assert other == 200


def test_registering_is_throttled_by_the_real_address(anon: APIClient) -> None:
    with throttle_rates(auth="2/min"):
        statuses = [
            anon.post(
                REGISTER,
                {"username": f"new{i}", "password": "correct-horse-battery"},
                HTTP_X_FORWARDED_FOR=f"198.51.100.{i}",
            ).status_code
            for i in range(3)
        ]
    assert statuses == [201, 201, 429]


# --- every way in is guarded -----------------------------------------------------------------


def test_the_api_sign_in_is_limited_per_address_before_any_password_is_hashed(
    anon: APIClient,
) -> None:
    factories.account("ann", password="right-password-1")
    with throttle_rates(auth="1000/min"):
        # The view's throttle is out of the way: the guard alone counts, on its own key.
        from config.web import throttling

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(throttling, "rate", lambda scope: (3, 60))
            patch.setattr("players.login_guard.rate", lambda scope: (3, 60))
            with counted_hashes() as hashed:
                statuses = [sign_in(anon, "ann", "wrong", "10.0.0.1") for _ in range(3)]
                refused = anon.post(
                    TOKEN,
                    {"username": "ann", "password": "right-password-1"},
                    REMOTE_ADDR="10.0.0.1",
                )
            assert statuses == [401, 401, 401]
            assert refused.status_code == 429
            assert refused.json()["code"] == "login_throttled"
            assert 0 < int(refused["Retry-After"]) <= 60
            assert hashed == ["wrong"] * 3  # the refused attempt hashed nothing
            # Another address is not this one.
            assert sign_in(anon, "ann", "right-password-1", "10.0.0.2") == 201


@pytest.mark.parametrize("path", ["/admin/login/", "/api-auth/login/"])
def test_the_admin_and_browsable_api_sign_ins_are_limited_per_address(
    path: str, settings: Settings
) -> None:
    factories.account("root", password="right-password-1", is_staff=True, is_superuser=True)
    client = Client()  # a browser's form post
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("players.login_guard.rate", lambda scope: (3, 60))
        with counted_hashes() as hashed:
            for _ in range(3):
                client.post(path, {"username": "root", "password": "wrong"}, REMOTE_ADDR="10.0.0.1")
        assert hashed == ["wrong"] * 3
        with counted_hashes() as hashed:
            response = client.post(
                path, {"username": "root", "password": "right-password-1"}, REMOTE_ADDR="10.0.0.1"
            )
        assert hashed == []
        assert "_auth_user_id" not in client.session  # the form refused: not signed in
        assert response.status_code == 200  # the form again, with its error
        client.post(
            path, {"username": "root", "password": "right-password-1"}, REMOTE_ADDR="10.0.0.2"
        )
        assert "_auth_user_id" in client.session


def test_an_account_locks_after_its_failures_from_anywhere_but_not_for_its_owner(
    anon: APIClient, settings: Settings
) -> None:
    settings.LOGIN_FAILURES_PER_ACCOUNT = 5
    factories.account("ann", password="right-password-1")
    # Ann signed in from home before the attack.
    assert sign_in(anon, "ann", "right-password-1", "192.0.2.10") == 201
    # A guesser spread over addresses: each under the address limit.
    assert [sign_in(anon, "ann", "guess", f"198.51.100.{i}") for i in range(5)] == [401] * 5
    with counted_hashes() as hashed:
        locked = anon.post(
            TOKEN, {"username": "ann", "password": "right-password-1"}, REMOTE_ADDR="198.51.100.99"
        )
        # The account refuses the next try from a new address, even with the right password...
        assert locked.status_code == 429
        assert locked.json()["code"] == "account_locked"
        assert locked.json()["field"] == "username"
        assert 0 < int(locked["Retry-After"]) <= settings.LOGIN_LOCKOUT_SECONDS
        assert hashed == []
    # ... the name as typed again in another case or width counts as the same account ...
    assert (
        sign_in(
            anon,
            "\uff21\uff2e\uff2e",  # fullwidth ANN
            "guess",
            "198.51.100.98",
        )
        == 429
    )
    # ... and never from where its owner signed in before.
    assert sign_in(anon, "ann", "right-password-1", "192.0.2.10") == 201


def test_an_account_lock_ends_with_its_window(anon: APIClient, settings: Settings) -> None:
    settings.LOGIN_FAILURES_PER_ACCOUNT = 2
    settings.LOGIN_LOCKOUT_SECONDS = 1
    factories.account("ann", password="right-password-1")
    assert [sign_in(anon, "ann", "guess", "198.51.100.1") for _ in range(2)] == [401, 401]
    assert sign_in(anon, "ann", "right-password-1", "198.51.100.2") == 429
    time.sleep(1.2)
    assert sign_in(anon, "ann", "right-password-1", "198.51.100.2") == 201


def test_the_admin_sign_in_honours_the_account_lock(settings: Settings) -> None:
    settings.LOGIN_FAILURES_PER_ACCOUNT = 2
    factories.account("root", password="right-password-1", is_staff=True, is_superuser=True)
    client = Client()
    for i in range(2):
        client.post(
            "/admin/login/", {"username": "root", "password": "x"}, REMOTE_ADDR=f"198.51.100.{i}"
        )
    client.post(
        "/admin/login/",
        {"username": "root", "password": "right-password-1"},
        REMOTE_ADDR="198.51.100.7",
    )
    assert "_auth_user_id" not in client.session


# --- tokens ----------------------------------------------------------------------------------


def test_a_sign_in_past_the_cap_ends_the_oldest_tokens(anon: APIClient, settings: Settings) -> None:
    settings.TOKENS_PER_ACCOUNT = 3
    player = factories.account("ann", password="right-password-1")
    raws = []
    for i in range(5):
        response = anon.post(
            TOKEN, {"username": "ann", "password": "right-password-1"}, REMOTE_ADDR="192.0.2.1"
        )
        assert response.status_code == 201, i
        raws.append(response.json()["token"])
    assert AuthToken.objects.filter(user=player).count() == 3
    for raw, works in zip(raws, [False, False, True, True, True], strict=True):
        anon.credentials(HTTP_AUTHORIZATION=f"Token {raw}")
        assert (anon.get("/api/v1/accounts/me/").status_code == 200) is works
