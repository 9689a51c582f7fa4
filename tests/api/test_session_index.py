"""Browser sessions indexed by their account (security round two, 9; players.sessions): each
sign-in (the admin's, ``/api-auth/``'s) writes its row, so a ban, a deletion or a password change
ends the account's sessions with one indexed delete; no other session is read, let alone
decoded. A session whose key changes while signed in (the admin's own password change) keeps its
row; a session that ends takes its row with it."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest
from django.apps import apps
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.contrib.sessions.models import Session
from django.test import Client

from games.accounts.deletion import account_delete
from games.moderation.actions import player_ban
from players.models import AccountSession, Player
from tests.factories import account

pytestmark = pytest.mark.django_db

ME = "/api/v1/accounts/me/"


def admin_sign_in(player: Player, password: str) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.get("/admin/login/")
    answer = client.post(
        "/admin/login/?next=/admin/",
        {
            "username": player.username,
            "password": password,
            "next": "/admin/",
            "csrfmiddlewaretoken": client.cookies["csrftoken"].value,
        },
    )
    assert answer.status_code == 302, answer.content[:300]
    return client


def signed_in(client: Client) -> bool:
    """Whether the browser's session still signs it in (the browsable API's answer)."""
    return client.get(ME).status_code == 200


@pytest.fixture
def decoded() -> Iterator[list[str]]:
    """Every session the store decodes while the test runs."""
    seen: list[str] = []
    original = SessionBase.decode

    def decode(self: SessionBase, session_data: str) -> dict[str, object]:
        seen.append(session_data)
        return original(self, session_data)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SessionBase, "decode", decode)
        yield seen


@pytest.mark.parametrize("end", ["ban", "delete"])
def test_ending_an_accounts_sessions_reads_no_other_session(end: str, decoded: list[str]) -> None:
    bob = account("bob", password="bob-password-1")
    browsers = [Client(), Client()]
    for browser in browsers:
        browser.force_login(bob)
    through_form = Client()
    through_form.post("/api-auth/login/", {"username": "bob", "password": "bob-password-1"})
    others = [account(f"other{i}") for i in range(12)]
    for other in others:
        Client().force_login(other)
    assert all(signed_in(browser) for browser in [*browsers, through_form])
    decoded.clear()

    done = player_ban(player_id=bob.pk) if end == "ban" else account_delete(player_id=bob.pk)

    assert done.sessions == 3
    assert decoded == []  # nobody's session decoded
    assert not any(signed_in(browser) for browser in [*browsers, through_form])
    assert not AccountSession.objects.filter(player=bob).exists()
    assert Session.objects.count() == AccountSession.objects.count() == len(others)


def test_a_session_keeps_its_row_when_its_key_changes_while_signed_in() -> None:
    root = account("root", password="root-password-1", is_staff=True, is_superuser=True)
    staff = admin_sign_in(root, "root-password-1")
    key = staff.session.session_key
    # The admin's own password change gives the session a new key (update_session_auth_hash).
    answer = staff.post(
        "/admin/password_change/",
        {
            "old_password": "root-password-1",
            "new_password1": "root-password-2!",
            "new_password2": "root-password-2!",
            "csrfmiddlewaretoken": staff.cookies["csrftoken"].value,
        },
    )
    assert answer.status_code == 302, answer.content[:300]
    assert staff.session.session_key != key
    assert list(AccountSession.objects.values_list("session_id", "player_id")) == [
        (staff.session.session_key, root.pk)
    ]
    assert staff.get("/admin/").status_code == 200
    player_ban(player_id=root.pk)
    assert not Session.objects.exists()
    assert staff.get("/admin/").status_code == 302  # to the login page


def test_signing_out_takes_the_row_with_the_session() -> None:
    bob = account("bob", password="bob-password-1")
    browser = Client()
    browser.post("/api-auth/login/", {"username": "bob", "password": "bob-password-1"})
    assert AccountSession.objects.filter(player=bob).count() == 1
    browser.post("/api-auth/logout/")
    assert not AccountSession.objects.exists() and not Session.objects.exists()


def test_signing_in_again_in_the_same_browser_leaves_one_row() -> None:
    bob = account("bob", password="bob-password-1")
    browser = Client()
    for _ in range(2):
        browser.post("/api-auth/login/", {"username": "bob", "password": "bob-password-1"})
    assert list(AccountSession.objects.values_list("session_id", "player_id")) == [
        (browser.session.session_key, bob.pk)
    ]


def test_the_migration_indexes_the_sessions_signed_in_before_it() -> None:
    bob, cara = account("bob"), account("cara")
    for player in (bob, cara):
        store = DatabaseStore()
        store[SESSION_KEY] = str(player.pk)
        store.save()  # as Django's own store wrote them: no row
    anonymous = DatabaseStore()
    anonymous["seen"] = True
    anonymous.save()
    AccountSession.objects.all().delete()
    migration = importlib.import_module("players.migrations.0009_account_sessions")
    migration.index_live_sessions(apps, None)
    assert sorted(AccountSession.objects.values_list("player_id", flat=True)) == sorted(
        [bob.pk, cara.pk]
    )
