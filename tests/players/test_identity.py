# ruff: noqa: RUF001  (lookalike letters are what these tests are about)
"""Usernames: one name in any case or width, lookalikes refused, sign-in in any case or width;
display names without control or bidi characters (players.identity)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from pytest_django import Settings
from rest_framework.test import APIClient

from players.identity import display_name_clean, skeleton_key, username_skeleton
from players.models import Player
from tests.factories import MakeClient, account

pytestmark = pytest.mark.django_db

REGISTER = "/api/v1/accounts/register/"
TOKEN = "/api/v1/accounts/token/"
PASSWORD = "long-enough-pass"


def register(anon: APIClient, username: str, display_name: str = "") -> Any:
    body = {"username": username, "password": PASSWORD, "display_name": display_name}
    return anon.post(REGISTER, body, format="json")


@pytest.mark.parametrize(
    "lookalike",
    [
        "ａｎｎａ",  # fullwidth: the same name once NFKC-normalised
        "ＡＮＮＡ",  # fullwidth capitals
        "АNNA",  # Cyrillic capital A
        "аnna",  # Cyrillic small a
        "ΑΝΝΑ",  # Greek capitals
    ],
)
def test_a_lookalike_of_a_taken_name_is_refused(anon: APIClient, lookalike: str) -> None:
    assert register(anon, "anna").status_code == 201
    response = register(anon, lookalike)
    assert response.status_code == 409, response.json()
    assert response.json()["code"] in {"username_taken", "username_confusable"}
    assert response.json()["field"] == "username"
    assert Player.objects.count() == 1


def test_the_codes_tell_a_taken_name_from_a_lookalike(anon: APIClient) -> None:
    assert register(anon, "anna").status_code == 201
    assert register(anon, "ANNA").json()["code"] == "username_taken"
    assert register(anon, "ａｎｎａ").json()["code"] == "username_taken"
    assert register(anon, "аnna").json()["code"] == "username_confusable"
    assert register(anon, "annа").json()["code"] == "username_confusable"
    assert register(anon, "anne").status_code == 201


def test_a_fullwidth_name_is_stored_normalised(anon: APIClient) -> None:
    assert register(anon, "ｚｏｅ").status_code == 201
    player = Player.objects.get()
    assert player.username == "zoe"
    assert player.username_skeleton == skeleton_key("zoe")


def test_the_database_refuses_a_name_in_another_case() -> None:
    account("bob")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(username="BOB")


@pytest.mark.parametrize("typed", ["anna", "ANNA", "Anna", "ａｎｎａ", "ＡＮＮＡ"])
def test_sign_in_in_any_case_or_width(anon: APIClient, typed: str) -> None:
    assert register(anon, "Anna").status_code == 201
    response = anon.post(TOKEN, {"username": typed, "password": PASSWORD}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["player"]["username"] == "Anna"


def test_a_lookalike_does_not_sign_in(anon: APIClient) -> None:
    assert register(anon, "anna").status_code == 201
    response = anon.post(TOKEN, {"username": "аnna", "password": PASSWORD}, format="json")
    assert response.status_code == 401


def test_admin_and_api_auth_sign_in_in_any_case() -> None:
    Player.objects.create_superuser("Root", "root@example.com", PASSWORD)
    client = Client()
    response = client.post("/admin/login/", {"username": "ROOT", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/admin/").status_code == 200
    other = Client()
    response = other.post("/api-auth/login/", {"username": "ｒｏｏｔ", "password": PASSWORD})
    assert response.status_code == 302


def test_admin_refuses_a_lookalike_account() -> None:
    account("anna")
    admin = Player.objects.create_superuser("root", "root@example.com", PASSWORD)
    client = Client()
    client.force_login(admin)
    form = {"username": "аnna", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post("/admin/players/player/add/", {**form, "usable_password": "true"})
    assert response.status_code == 200  # the form again, with its error
    assert not Player.objects.filter(username="аnna").exists()
    response = client.post("/admin/players/player/add/", {**form, "username": "ANNA"})
    assert response.status_code == 200
    assert Player.objects.count() == 2


def test_skeleton() -> None:
    assert username_skeleton("ＡＮＮ") == username_skeleton("ann") == username_skeleton("АNN")
    assert username_skeleton("rnike") == username_skeleton("mike")
    assert username_skeleton("bob") != username_skeleton("rob")


@pytest.mark.parametrize(
    "control",
    ["\u202e", "\u202a", "\u202b", "\u202c", "\u202d", "\u2066", "\u2067", "\u2068", "\u2069",
     "\u200e", "\u200f", "\u061c", "\u200b", "\ufeff", "\x1b", "\x7f", "\x85", "\u2028",
     "\u2029", "\U000e0041"],
)  # fmt: skip
def test_display_names_lose_control_and_bidi_characters(anon: APIClient, control: str) -> None:
    response = register(anon, "zed", f"Ze{control}d{control}")
    assert response.status_code == 201, response.json()
    assert response.json()["player"]["display_name"] == "Zed"
    assert Player.objects.get().display_name == "Zed"


def test_display_names_keep_joiners_and_letters() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert display_name_clean(f"Zoé {family}") == f"Zoé {family}"
    assert display_name_clean("\u202e\u2066") == ""


def test_a_display_name_of_controls_only_shows_the_username(anon: APIClient) -> None:
    response = register(anon, "zed", "\u202e\u202e")
    assert response.json()["player"]["name"] == "zed"


def test_the_migration_reports_names_that_collide() -> None:
    import importlib

    migration = importlib.import_module("players.migrations.0003_username_identity")
    rows = [(1, "anna"), (2, "ANNA"), (3, "ｂｏｂ"), (4, "Bob"), (5, "carl")]
    assert migration.collisions(rows) == [[(1, "anna"), (2, "ANNA")], [(3, "ｂｏｂ"), (4, "Bob")]]
    assert migration.collisions(rows[4:]) == []


def test_seat_names_lose_control_and_bidi_characters(make_client: MakeClient) -> None:
    ann = make_client("ann")
    seats = [{"type": "me"}, {"type": "hotseat", "name": "\u202eGuest\u2066"}]
    game = ann.ok("post", "/api/v1/games/", {"kind": "yatzy", "seats": seats}, status=201)
    assert [seat["name"] for seat in game["seats"]][1] == "Guest"
    seats = [{"type": "me"}, {"type": "hotseat", "name": "\u202e\u200f"}]
    refused = ann.post("/api/v1/games/", {"kind": "yatzy", "seats": seats}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "name_required"


def test_a_password_hash_upgraded_at_sign_in_keeps_the_tokens(settings: Settings) -> None:
    from django.contrib.auth.hashers import make_password
    from knox.models import AuthToken

    from players.services import token_create

    pat = account("pat")
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]
    stored = make_password(PASSWORD, hasher="pbkdf2_sha256")  # an older hasher's hash
    Player.objects.filter(pk=pat.pk).update(password=stored)
    AuthToken.objects.create(user=pat)
    token_create(username="pat", password=PASSWORD)
    assert Player.objects.get(pk=pat.pk).password.startswith("md5$")  # upgraded
    assert AuthToken.objects.filter(user=pat).count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_migration_stops_on_names_that_collide_and_then_normalises() -> None:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = ("players", "0002_ratings"), ("players", "0004_username_unique_any_case")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    try:
        old = executor.loader.project_state([before]).apps.get_model("players", "Player")
        old.objects.create(username="anna", password="!")
        twin = old.objects.create(username="ＡＮＮＡ", password="!")
        old.objects.create(username="ｚｏｅ", password="!")
        executor = MigrationExecutor(connection)
        with pytest.raises(RuntimeError, match=f"#{twin.pk} 'ＡＮＮＡ'"):
            executor.migrate([after])
        old.objects.filter(pk=twin.pk).update(username="anna2")
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    zoe = Player.objects.get(username="zoe")
    assert zoe.username_skeleton == skeleton_key("zoe")
    assert Player.objects.get_by_natural_key("ANNA2").pk == twin.pk


@pytest.mark.parametrize("name", ["admin", "Moderator", "ADMIN", "\u0430dmin", "ѕуѕtem"])
def test_a_staff_name_or_its_lookalike_is_refused(anon: APIClient, name: str) -> None:
    as_username = register(anon, name)
    assert as_username.status_code == 400
    assert (as_username.json()["code"], as_username.json()["field"]) == (
        "name_reserved",
        "username",
    )
    as_display_name = register(anon, "ann", display_name=name)
    assert as_display_name.status_code == 400
    assert as_display_name.json()["field"] == "display_name"
    assert not Player.objects.exists()


def test_names_near_a_staff_name_are_free(anon: APIClient) -> None:
    for name in ("admiral", "supporter", "sys"):
        assert register(anon, name).status_code == 201, name


def test_the_reserved_names_are_a_setting(anon: APIClient, settings: Settings) -> None:
    settings.RESERVED_NAMES = ["referee"]
    assert register(anon, "admin").status_code == 201
    assert register(anon, "Referee").json()["code"] == "name_reserved"


def test_an_account_cannot_take_a_staff_display_name(make_client: MakeClient) -> None:
    ann = make_client("ann")
    answer = ann.patch("/api/v1/accounts/me/", {"display_name": "Support"}, format="json")
    assert answer.status_code == 400
    assert (answer.json()["code"], answer.json()["field"]) == ("name_reserved", "display_name")
    assert Player.objects.get(username="ann").display_name == ""
