from __future__ import annotations

import pytest
from knox.models import AuthToken
from pytest_django import Settings
from rest_framework.test import APIClient

from players.models import Player
from tests.factories import MakeClient

pytestmark = pytest.mark.django_db

REGISTER = "/api/v1/accounts/register/"
TOKEN = "/api/v1/accounts/token/"
REVOKE = "/api/v1/accounts/token/revoke/"
ME = "/api/v1/accounts/me/"


def test_register_obtain_use_and_revoke_a_token(anon: APIClient) -> None:
    response = anon.post(
        REGISTER,
        {"username": "zoe", "password": "long-enough-pass", "display_name": "Zoé"},
        format="json",
    )
    assert response.status_code == 201
    first = response.json()
    assert first["player"]["name"] == "Zoé"
    assert first["token"].startswith("dice_")
    # Only a hash is stored: the raw token never is.
    stored = AuthToken.objects.get(user__username="zoe")
    assert first["token"] not in {stored.digest, stored.token_key}

    response = anon.post(TOKEN, {"username": "zoe", "password": "long-enough-pass"}, format="json")
    assert response.status_code == 201
    second = response.json()["token"]

    anon.credentials(HTTP_AUTHORIZATION=f"Token {second}")
    assert anon.get(ME).json()["username"] == "zoe"
    assert anon.post(REVOKE).status_code == 204
    response = anon.get(ME)
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"

    anon.credentials(HTTP_AUTHORIZATION=f"Token {first['token']}")
    assert anon.get(ME).status_code == 200
    assert anon.post(REVOKE + "?all=true").status_code == 204
    assert AuthToken.objects.filter(user__username="zoe").count() == 0


def test_wrong_password(anon: APIClient, make_client: MakeClient) -> None:
    make_client("yan")
    response = anon.post(TOKEN, {"username": "yan", "password": "nope-nope-nope"}, format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_credentials"


def test_register_refusals(anon: APIClient, make_client: MakeClient) -> None:
    make_client("taken")
    response = anon.post(REGISTER, {"username": "TAKEN", "password": "long-enough-pass"})
    assert response.status_code == 409
    assert response.json()["code"] == "username_taken"
    response = anon.post(REGISTER, {"username": "newbie", "password": "123"})
    assert response.status_code == 400
    assert response.json()["code"] == "weak_password"
    assert response.json()["field"] == "password"
    response = anon.post(REGISTER, {"username": "bad name!", "password": "long-enough-pass"})
    assert response.status_code == 400
    assert response.json()["field"] == "username"
    assert not Player.objects.filter(username__in=["newbie", "bad name!"]).exists()


def test_me_needs_authentication(anon: APIClient) -> None:
    response = anon.get(ME)
    assert response.status_code == 401
    body = response.json()
    assert body == {
        "type": "http://testserver/api/v1/errors/not_authenticated/",
        "title": body["detail"],
        "status": 401,
        "code": "not_authenticated",
        "detail": body["detail"],
        "field": None,
    }


def test_login_is_throttled_with_retry_after(anon: APIClient, settings: Settings) -> None:
    rates = dict(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], auth="3/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    from rest_framework.throttling import SimpleRateThrottle

    # DRF binds the rates to the throttle class when it is imported.
    original = SimpleRateThrottle.THROTTLE_RATES
    SimpleRateThrottle.THROTTLE_RATES = rates
    try:
        statuses = [
            anon.post(TOKEN, {"username": "x", "password": "y"}).status_code for _ in range(4)
        ]
        assert statuses == [401, 401, 401, 429]
        response = anon.post(TOKEN, {"username": "x", "password": "y"})
        assert response.json()["code"] == "throttled"
        assert int(response["Retry-After"]) > 0
        assert response.json()["retry_after"] > 0
    finally:
        SimpleRateThrottle.THROTTLE_RATES = original


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("application/x-www-form-urlencoded", "username=formed&password=correct-horse-battery"),
        (
            "multipart/form-data; boundary=b",
            '--b\r\nContent-Disposition: form-data; name="username"\r\n\r\nformed\r\n'
            '--b\r\nContent-Disposition: form-data; name="password"\r\n\r\n'
            "correct-horse-battery\r\n--b--\r\n",
        ),
        ("text/plain", '{"username": "formed", "password": "correct-horse-battery"}'),
    ],
    ids=["urlencoded", "multipart", "text"],
)
def test_the_api_reads_json_bodies_only(anon: APIClient, content_type: str, body: str) -> None:
    # What a hidden form on any web page can send without a CORS preflight: it registers no
    # account (nor tries a password) from its visitors' addresses.
    for url in ("/api/v1/accounts/register/", "/api/v1/accounts/token/"):
        response = anon.generic("POST", url, body, content_type=content_type)
        assert response.status_code == 415, response.content
        assert response.json()["code"] == "unsupported_media_type"
    assert not Player.objects.filter(username="formed").exists()
