"""The session and message middleware of config.web.middleware: no store is made for a request that
does not use one, and every answer is the one Django's own middleware gives."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.base import SessionBase
from django.test import Client
from django.utils.http import parse_http_date
from pytest_django import Settings
from rest_framework.test import APIClient

from players.models import Player
from tests import factories
from tests.factories import account

pytestmark = pytest.mark.django_db

DJANGOS = {
    "config.web.middleware.SessionMiddleware": (
        "django.contrib.sessions.middleware.SessionMiddleware"
    ),
    "config.web.middleware.MessageMiddleware": (
        "django.contrib.messages.middleware.MessageMiddleware"
    ),
}
VOLATILE = {"Date", "Set-Cookie", "Content-Length"}


def answer(client: Client, method: str, url: str, **extra: Any) -> tuple[int, dict[str, str], Any]:
    response = getattr(client, method)(url, **extra)
    headers = {k: v for k, v in response.headers.items() if k not in VOLATILE}
    if "Expires" in headers:
        # The wall clock's second when the answer was made (never_cache): two answers may be a
        # second apart. That each carries one, a valid date, is what is compared.
        headers["Expires"] = f"an HTTP date: {parse_http_date(headers['Expires']) > 0}"
    if "X-Request-ID" in headers:
        # Made afresh for each request (config.web.request_context): that each has one is compared.
        headers["X-Request-ID"] = f"an id: {len(headers['X-Request-ID']) == 32}"
    if "RateLimit" in headers:
        # What is left of the budget goes down with each request (config.web.rate_limit): its
        # policies are compared, and the form of each.
        headers["RateLimit"] = re.sub(r";r=\d+;t=\d+", ";r=n;t=n", headers["RateLimit"])
    cookies = sorted(
        (name, bool(morsel.value), morsel["max-age"]) for name, morsel in response.cookies.items()
    )
    return response.status_code, {**headers, "cookies": str(cookies)}, response.content


@pytest.fixture
def token() -> str:
    return factories.token(account("ann"))


def test_a_token_request_makes_no_session_nor_message_store(
    token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[str] = []
    session_init = SessionBase.__init__
    storage_init = FallbackStorage.__init__

    def session(self: Any, *args: Any, **kwargs: Any) -> None:
        made.append("session")
        session_init(self, *args, **kwargs)

    def storage(self: Any, *args: Any, **kwargs: Any) -> None:
        made.append("messages")
        storage_init(self, *args, **kwargs)

    monkeypatch.setattr(SessionBase, "__init__", session)
    monkeypatch.setattr(FallbackStorage, "__init__", storage)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = client.get("/api/v1/accounts/me/")
    assert response.status_code == 200
    assert made == []
    assert "Cookie" not in response.get("Vary", "")


def requests(token: str) -> list[tuple[str, str, dict[str, Any]]]:
    auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
    return [
        ("get", "/api/v1/accounts/me/", auth),
        ("get", "/api/v1/accounts/me/", {**auth, "HTTP_COOKIE": "sessionid=stale"}),
        ("get", "/api/v1/accounts/me/", {**auth, "HTTP_COOKIE": "sessionid=" + "x" * 32}),
        ("get", "/api/v1/games/", {}),
        ("get", "/api/v1/games/", {"HTTP_COOKIE": "sessionid=stale"}),
        ("get", "/admin/login/", {}),
        ("get", "/api/v1/accounts/me/", {"HTTP_ACCEPT": "text/html"}),
    ]


def test_answers_are_djangos(token: str, settings: Settings) -> None:
    ours = [answer(Client(), method, url, **extra) for method, url, extra in requests(token)]
    settings.MIDDLEWARE = [DJANGOS.get(path, path) for path in settings.MIDDLEWARE]
    theirs = [answer(Client(), method, url, **extra) for method, url, extra in requests(token)]
    mine: tuple[Any, ...]  # all three parts of an answer, or all but a page's body
    django: tuple[Any, ...]
    for (method, url, _extra), mine, django in zip(requests(token), ours, theirs, strict=True):
        if "html" in mine[1].get("Content-Type", ""):
            # A page carries a fresh CSRF token each time: compare all but the body.
            mine, django = mine[:2], django[:2]
        assert mine == django, (method, url)


def test_a_signed_in_session_and_its_messages_still_work(admin_client: Client) -> None:
    """The admin signs in with a session and shows a message after an action."""
    response = admin_client.get("/admin/")
    assert response.status_code == 200
    ann = account("zed")
    response = admin_client.post(
        "/admin/players/player/",
        {"action": "delete_selected", "_selected_action": [str(ann.pk)], "post": "yes"},
        follow=True,
    )
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]]
    assert not Player.objects.filter(pk=ann.pk).exists()


def test_signing_in_to_the_admin_with_a_password() -> None:
    Player.objects.create_superuser("root", "root@example.com", "root-password-1")
    client = Client()
    response = client.post(
        "/admin/login/?next=/admin/", {"username": "root", "password": "root-password-1"}
    )
    assert response.status_code == 302
    assert response.cookies["sessionid"].value
    assert client.get("/admin/").status_code == 200
    assert client.post("/admin/logout/").status_code == 200
    assert client.get("/admin/").status_code == 302  # signed out: back to the login page
