"""A password change racing on PostgreSQL (docs/writes.md): two changes of one account at once
(from two of its tokens) are decided by the account's row, the second checking its current
password against the first's new one and refused; a sign-in with the old password whose check
came just before the change committed gets no token that outlives the change."""

from __future__ import annotations

import threading
from functools import partial
from typing import Any

import pytest
from django.db import connection, transaction
from rest_framework.test import APIClient

from players import services
from players.models import Player
from tests.factories import Client, api_client
from tests.races import Racer, until_one_waits_on_a_lock

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

PASSWORD = "/api/v1/accounts/password/"
SIGN_IN = "/api/v1/accounts/token/"
ME = "/api/v1/accounts/me/"
OLD = "correct-horse-battery"


def signed_in(username: str) -> str:
    answer = APIClient().post(SIGN_IN, {"username": username, "password": OLD})
    assert answer.status_code == 201, answer.content
    return str(answer.json()["token"])


def with_token(raw: str) -> Client:
    client = Client()
    client.credentials(HTTP_AUTHORIZATION=f"Token {raw}")
    return client


def change(raw: str, new: str) -> int:
    body = {"current_password": OLD, "new_password": new}
    return with_token(raw).post(PASSWORD, body, format="json").status_code


def works(raw: str) -> bool:
    return with_token(raw).get(ME).status_code == 200


def test_two_changes_at_once_one_wins_the_other_is_refused() -> None:
    api_client("ann")
    first, second = signed_in("ann"), signed_in("ann")
    news = {first: "first-new-passphrase", second: "second-new-passphrase"}
    player = Player.objects.get(username="ann")
    with transaction.atomic():  # both wait here on the account's row, then go at once
        Player.objects.select_for_update(no_key=True).filter(pk=player.pk).exists()
        racers = {raw: Racer(partial(change, raw, new)) for raw, new in news.items()}
        for racer in racers.values():
            racer.start()
        until_one_waits_on_a_lock("a password change")
    statuses = {raw: racer.finish() for raw, racer in racers.items()}
    assert sorted(statuses.values()) == [204, 403], statuses
    winner = next(raw for raw, status in statuses.items() if status == 204)
    loser = next(raw for raw in news if raw != winner)
    player.refresh_from_db()
    assert player.check_password(news[winner])
    assert works(winner) and not works(loser)


def test_a_sign_in_checked_before_the_change_committed_gets_no_lasting_token(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    keeper = api_client("ann")
    keep = str(keeper._credentials["HTTP_AUTHORIZATION"]).removeprefix("Token ")  # type: ignore[attr-defined]
    checked, changed = threading.Event(), threading.Event()
    real = services.authenticate  # type: ignore[attr-defined]  # Django's, imported there

    def authenticate(request: Any, **credentials: Any) -> Any:
        user = real(request, **credentials)
        if threading.current_thread().name == "sign-in":
            checked.set()  # the old password was right a moment ago ...
            assert changed.wait(30)  # ... and is changed before the token is made
        return user

    monkeypatch.setattr(services, "authenticate", authenticate)

    def sign_in() -> tuple[int, dict[str, Any]]:
        answer = APIClient().post(SIGN_IN, {"username": "ann", "password": OLD})
        return answer.status_code, answer.json()

    racer = Racer(sign_in)
    racer._thread.name = "sign-in"
    racer.start()
    assert checked.wait(30)
    assert change(keep, "the-new-passphrase-1") == 204
    changed.set()
    status, body = racer.finish()
    connection.close()
    assert (status, body.get("code")) == (401, "invalid_credentials"), body
    assert works(keep)
    assert [row["current"] for row in with_token(keep).ok("get", "/api/v1/accounts/tokens/")] == [
        True
    ]
