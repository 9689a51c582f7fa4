"""Token authentication (players.auth): one query per request, and knox's rules kept: expiry,
inactive accounts, revocation effective on the very next request."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.models import AuthToken
from knox.signals import token_expired
from rest_framework.test import APIClient

from players.models import Player
from tests.factories import account

pytestmark = pytest.mark.django_db

ME = "/api/v1/accounts/me/"
TOKEN = "/api/v1/accounts/token/"


@pytest.fixture
def zoe() -> Player:
    return account("zoe", password="long-enough-pass")


def client_with(raw: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {raw}")
    return client


def test_an_authenticated_request_costs_one_query(zoe: Player) -> None:
    for _other in range(3):  # other tokens of the account are not read
        AuthToken.objects.create(user=zoe)
    _instance, raw = AuthToken.objects.create(user=zoe)
    client = client_with(raw)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(ME)
    assert response.status_code == 200
    assert response.json()["username"] == "zoe"
    assert len(queries.captured_queries) == 1, [q["sql"] for q in queries.captured_queries]


def test_a_revoked_token_is_refused_at_once(zoe: Player) -> None:
    instance, raw = AuthToken.objects.create(user=zoe)
    client = client_with(raw)
    assert client.get(ME).status_code == 200
    instance.delete()  # revoked elsewhere (another process, the admin)
    response = client.get(ME)
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


def test_an_expired_token_is_refused_and_deleted(zoe: Player) -> None:
    _instance, raw = AuthToken.objects.create(user=zoe, expiry=timedelta(seconds=-1))
    heard = []

    def receiver(**kwargs: object) -> None:
        heard.append(kwargs)

    token_expired.connect(receiver)
    try:
        response = client_with(raw).get(ME)
    finally:
        token_expired.disconnect(receiver)
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"
    assert not AuthToken.objects.filter(user=zoe).exists()
    assert heard and heard[0]["username"] == "zoe"


def test_a_token_within_its_ttl_is_accepted(zoe: Player) -> None:
    instance, raw = AuthToken.objects.create(user=zoe)
    assert instance.expiry is not None and instance.expiry > timezone.now()
    assert client_with(raw).get(ME).status_code == 200


@pytest.mark.parametrize(
    "raw",
    ["dice_" + "0" * 64, "", "dice_short", "not-a-token-at-all", "dice_é" + "0" * 63, "dice_\x00"],
)
def test_unknown_or_malformed_tokens_are_refused(zoe: Player, raw: str) -> None:
    AuthToken.objects.create(user=zoe)
    response = client_with(raw).get(ME)
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


def test_a_token_of_an_inactive_account_is_refused(zoe: Player) -> None:
    _instance, raw = AuthToken.objects.create(user=zoe)
    zoe.is_active = False
    zoe.save(update_fields=["is_active"])
    response = client_with(raw).get(ME)
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


def test_signing_in_deletes_the_accounts_expired_tokens(zoe: Player) -> None:
    AuthToken.objects.create(user=zoe, expiry=timedelta(seconds=-1))
    AuthToken.objects.create(user=zoe, expiry=timedelta(seconds=-5))
    live, _raw = AuthToken.objects.create(user=zoe)
    response = APIClient().post(
        TOKEN, {"username": "zoe", "password": "long-enough-pass"}, format="json"
    )
    assert response.status_code == 201
    left = set(AuthToken.objects.filter(user=zoe).values_list("digest", flat=True))
    assert live.digest in left
    assert len(left) == 2  # the live one and the new one
