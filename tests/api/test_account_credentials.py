"""An account's own credentials (security round two, 14): ``GET accounts/tokens/`` lists its live
tokens (an id, never the secret; when made, when it expires, when last used if known, which one
is the request's), ``DELETE accounts/tokens/{id}/`` revokes one (another account's: not found),
and ``POST accounts/password/`` changes the password given the current one: the request's token
keeps working, every other token and every session end. A wrong current password changes nothing
and counts on the sign-in guard as a failed sign-in; a weak new one is refused on its field."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.contrib.sessions.models import Session
from django.test import Client as BrowserClient
from django.utils import timezone
from knox.models import AuthToken
from pytest_django import Settings
from rest_framework.test import APIClient

from players.models import AccountSession, Player
from tests.doubles import throttle_rates
from tests.factories import Client, api_client

pytestmark = pytest.mark.django_db

TOKENS = "/api/v1/accounts/tokens/"
PASSWORD = "/api/v1/accounts/password/"
ME = "/api/v1/accounts/me/"
SIGN_IN = "/api/v1/accounts/token/"
OLD = "correct-horse-battery"
NEW = "a-new-long-passphrase-9"


def signed_in(username: str, password: str = OLD, address: str = "192.0.2.1") -> Client:
    """Another client of the account, with a token of its own (a sign-in)."""
    client = Client(REMOTE_ADDR=address)
    body = client.ok("post", SIGN_IN, {"username": username, "password": password}, status=201)
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    client.username = username
    return client


def raw_token(client: APIClient) -> str:
    # DRF's APIClient keeps it in _credentials, absent from its stubs.
    header = client._credentials["HTTP_AUTHORIZATION"]  # type: ignore[attr-defined]
    return str(header).removeprefix("Token ")


def works(client: APIClient) -> bool:
    status = client.get(ME).status_code
    assert status in (200, 401), status
    return status == 200


# --- the list ----------------------------------------------------------------------------------


def test_the_list_shows_each_live_token_newest_first_never_its_secret() -> None:
    ann = api_client("ann")
    phone, laptop = signed_in("ann"), signed_in("ann")
    player = Player.objects.get(username="ann")
    AuthToken.objects.create(user=player, expiry=timedelta(seconds=-1))  # expired: not listed
    bob = api_client("bob")

    answer = ann.get(TOKENS)
    assert answer.status_code == 200
    rows = answer.json()
    assert len(rows) == 3
    assert [row["current"] for row in rows] == [False, False, True]  # ann's own is the oldest
    created = [row["created"] for row in rows]
    assert created == sorted(created, reverse=True)
    assert len({row["id"] for row in rows}) == 3
    assert all(re.fullmatch(r"[0-9a-f]{16}", row["id"]) for row in rows)
    for row in rows:
        assert set(row) == {"id", "created", "expiry", "last_used", "current"}
        made = datetime.fromisoformat(row["created"])
        expires = datetime.fromisoformat(row["expiry"])
        assert timedelta(days=29) < expires - made <= timedelta(days=30, seconds=5)
    # Nothing of any secret, nor of what the database keeps of one.
    text = answer.content.decode()
    for token in AuthToken.objects.filter(user=player):
        assert token.digest not in text and token.token_key not in text
        assert token.token_key.removeprefix("dice_") not in text
    for client in (ann, phone, laptop):
        secret = raw_token(client)
        assert secret not in text and secret.removeprefix("dice_")[:10] not in text
    # Bob's tokens are his: not in ann's list, and his list is one token.
    assert len(bob.ok("get", TOKENS)) == 1


def test_last_used_is_known_once_a_token_is_used() -> None:
    ann = api_client("ann")
    laptop = signed_in("ann")
    rows = {row["current"]: row for row in ann.ok("get", TOKENS)}
    # Ann's token made this request; the laptop's has made none yet.
    assert rows[True]["last_used"] is not None
    assert rows[False]["last_used"] is None
    before = timezone.now()
    assert works(laptop)
    rows = {row["current"]: row for row in ann.ok("get", TOKENS)}
    used = datetime.fromisoformat(rows[False]["last_used"])
    assert before - timedelta(seconds=1) <= used <= timezone.now()


# --- revoking one ------------------------------------------------------------------------------


def test_revoking_one_token_by_its_id_ends_that_one_only() -> None:
    ann = api_client("ann")
    laptop = signed_in("ann")
    laptop_id = next(row["id"] for row in ann.ok("get", TOKENS) if not row["current"])
    assert ann.delete(f"{TOKENS}{laptop_id}/").status_code == 204
    assert not works(laptop)
    assert works(ann)
    assert [row["current"] for row in ann.ok("get", TOKENS)] == [True]
    again = ann.delete(f"{TOKENS}{laptop_id}/")
    assert again.status_code == 404 and again.json()["code"] == "not_found"


def test_another_accounts_token_is_not_found_and_stays() -> None:
    ann, bob = api_client("ann"), api_client("bob")
    bob_id = bob.ok("get", TOKENS)[0]["id"]
    for token_id in (bob_id, "0" * 16, "not-an-id"):
        answer = ann.delete(f"{TOKENS}{token_id}/")
        assert answer.status_code == 404, token_id
        assert answer.json()["code"] == "not_found"
        assert answer.json()["detail"] == "No such token."
    assert works(bob)


def test_revoking_the_current_token_signs_out() -> None:
    ann = api_client("ann")
    laptop = signed_in("ann")
    own = next(row["id"] for row in ann.ok("get", TOKENS) if row["current"])
    assert ann.delete(f"{TOKENS}{own}/").status_code == 204
    assert not works(ann)
    assert works(laptop)


# --- the password ------------------------------------------------------------------------------


def test_changing_the_password_keeps_this_token_and_ends_every_other_and_every_session() -> None:
    ann = api_client("ann")
    laptop, phone = signed_in("ann"), signed_in("ann")
    player = Player.objects.get(username="ann")
    browser = BrowserClient()
    browser.force_login(player)
    assert AccountSession.objects.filter(player=player).count() == 1
    other = api_client("bob")
    bobs_browser = BrowserClient()
    bobs_browser.force_login(Player.objects.get(username="bob"))

    answer = ann.post(PASSWORD, {"current_password": OLD, "new_password": NEW}, format="json")
    assert answer.status_code == 204, answer.content

    assert works(ann)
    assert not works(laptop) and not works(phone)
    assert [row["current"] for row in ann.ok("get", TOKENS)] == [True]
    assert not AccountSession.objects.filter(player=player).exists()
    assert Session.objects.count() == 1  # bob's
    assert browser.get(ME).status_code in (401, 403)
    assert works(other) and bobs_browser.get(ME).status_code == 200
    # The new password signs in; the old one no more.
    signin = APIClient()
    assert signin.post(SIGN_IN, {"username": "ann", "password": OLD}).status_code == 401
    assert signin.post(SIGN_IN, {"username": "ann", "password": NEW}).status_code == 201


def test_a_wrong_current_password_changes_nothing_and_counts_as_a_failed_sign_in(
    settings: Settings,
) -> None:
    settings.LOGIN_FAILURES_PER_ACCOUNT = 3
    api_client("ann")
    # A token of ann's in the wrong hands (she signed in with it at home), used from elsewhere.
    thief = signed_in("ann", address="192.0.2.10")
    laptop = signed_in("ann", address="192.0.2.10")
    for guess in ("guess-1", "guess-2", "guess-3"):
        body = {"current_password": guess, "new_password": NEW}
        answer = thief.post(PASSWORD, body, format="json", REMOTE_ADDR="198.51.100.7")
        assert answer.status_code == 403, answer.content
        assert (answer.json()["code"], answer.json()["field"]) == (
            "wrong_password",
            "current_password",
        )
    player = Player.objects.get(username="ann")
    assert player.check_password(OLD)
    assert works(laptop) and works(thief)
    # Three failures lock the account for addresses it never signed in from: the right
    # password, from there, is refused before it is checked, whether changing or signing in.
    body = {"current_password": OLD, "new_password": NEW}
    locked = thief.post(PASSWORD, body, format="json", REMOTE_ADDR="198.51.100.7")
    assert locked.status_code == 429 and locked.json()["code"] == "account_locked"
    fresh = APIClient().post(
        SIGN_IN, {"username": "ann", "password": OLD}, REMOTE_ADDR="198.51.100.8"
    )
    assert fresh.status_code == 429 and fresh.json()["code"] == "account_locked"
    assert Player.objects.get(username="ann").check_password(OLD)
    # Ann, from where she signs in, is not locked out.
    mine = laptop.post(PASSWORD, body, format="json", REMOTE_ADDR="192.0.2.10")
    assert mine.status_code == 204, mine.content


def test_a_weak_new_password_is_refused_on_its_field_and_changes_nothing() -> None:
    ann = api_client("ann")
    laptop = signed_in("ann")
    for weak in ("12345678", "short", "annann"):
        answer = ann.post(PASSWORD, {"current_password": OLD, "new_password": weak}, format="json")
        assert answer.status_code == 400, weak
        assert (answer.json()["code"], answer.json()["field"]) == ("weak_password", "new_password")
    for body in ({}, {"current_password": OLD}, {"new_password": NEW}):
        missing = ann.post(PASSWORD, body, format="json")
        assert missing.status_code == 400 and missing.json()["code"] == "invalid_input"
    assert works(laptop)
    assert Player.objects.get(username="ann").check_password(OLD)


def test_changing_the_password_is_throttled_as_signing_in() -> None:
    ann = api_client("ann")
    with throttle_rates(auth="2/min"):
        body = {"current_password": "guess", "new_password": NEW}
        statuses = [
            ann.post(PASSWORD, body, format="json", REMOTE_ADDR="198.51.100.9").status_code
            for _ in range(3)
        ]
    assert statuses == [403, 403, 429]


def test_deleting_with_a_wrong_password_counts_as_a_failed_sign_in(settings: Settings) -> None:
    settings.LOGIN_FAILURES_PER_ACCOUNT = 2
    api_client("ann")
    thief = signed_in("ann", address="192.0.2.10")  # used from elsewhere, as above
    for guess in ("guess-1", "guess-2"):
        answer = thief.delete(ME, {"password": guess}, format="json", REMOTE_ADDR="198.51.100.7")
        assert answer.status_code == 403 and answer.json()["code"] == "wrong_password"
    locked = thief.delete(ME, {"password": OLD}, format="json", REMOTE_ADDR="198.51.100.7")
    assert locked.status_code == 429 and locked.json()["code"] == "account_locked"
    assert Player.objects.get(username="ann").deleted_at is None
