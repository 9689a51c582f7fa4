"""``PATCH accounts/me/``: the account edits its display name (checked as at registration: blank
shows the username, a lookalike of another account's username is refused) and its preferred
language (a code the server speaks, or blank: the browser's). The new name shows at once on
every seat and leaderboard row, and a game read again is not answered 304 with the old one."""

from __future__ import annotations

import pytest
from pytest_django import Settings
from rest_framework.test import APIClient

from config.vocabulary.errors import ApiError
from players.models import Player, PlayerRating
from players.services import player_update
from tests.factories import account, api_client, api_game, game_url

pytestmark = pytest.mark.django_db

ME = "/api/v1/accounts/me/"


def test_the_display_name_changes_and_blank_shows_the_username() -> None:
    ann = api_client("ann")
    body = ann.ok("patch", ME, {"display_name": "Annie ⚄"})
    assert (body["display_name"], body["name"], body["language"]) == ("Annie ⚄", "Annie ⚄", "")
    assert ann.ok("get", ME)["name"] == "Annie ⚄"
    # Only the fields given change.
    assert ann.ok("patch", ME, {"language": "fr"})["display_name"] == "Annie ⚄"
    body = ann.ok("patch", ME, {"display_name": ""})
    assert (body["display_name"], body["name"], body["language"]) == ("", "ann", "fr")


def test_the_display_name_is_cleaned_and_bounded_as_at_registration() -> None:
    ann = api_client("ann")
    # Bidi controls stripped, as at registration (players.identity.display_name_clean).
    assert ann.ok("patch", ME, {"display_name": "\u202eAnn\u202c"})["display_name"] == "Ann"
    refused = ann.patch(ME, {"display_name": "x" * 41}, format="json")
    assert refused.status_code == 400
    assert (refused.json()["code"], refused.json()["field"]) == ("invalid_input", "display_name")
    assert Player.objects.get(username="ann").display_name == "Ann"


def test_a_name_that_looks_like_another_accounts_username_is_refused() -> None:
    account("bob")
    ann = api_client("ann")
    for lookalike in ("bob", "BOB", "\u042c\u043eb", "Deleted player"):  # Cyrillic soft sign, o
        refused = ann.patch(ME, {"display_name": lookalike, "language": "uk"}, format="json")
        assert refused.status_code == 409, lookalike
        body = refused.json()
        assert (body["code"], body["field"]) == ("display_name_taken", "display_name")
    # Nothing of a refused change is kept, the language neither.
    assert Player.objects.filter(username="ann", display_name="", language="").exists()
    # One's own username, in any case, is always fine.
    assert ann.ok("patch", ME, {"display_name": "ANN"})["name"] == "ANN"


def test_the_language_is_one_the_server_speaks_or_blank(settings: Settings) -> None:
    ann = api_client("ann")
    for code, _name in settings.LANGUAGES:
        assert ann.ok("patch", ME, {"language": code})["language"] == code
    for bad in ("de", "EN", "fr-FR", "x" * 300):
        refused = ann.patch(ME, {"language": bad}, format="json")
        assert refused.status_code == 400, bad
        assert (refused.json()["code"], refused.json()["field"]) == ("unknown_language", "language")
    assert Player.objects.get(username="ann").language == settings.LANGUAGES[-1][0]
    assert ann.ok("patch", ME, {"language": ""})["language"] == ""
    # The sign-in's answer carries it: a client adopts it there.
    ann.ok("patch", ME, {"language": "el"})
    signed_in = APIClient().post(
        "/api/v1/accounts/token/",
        {"username": "ann", "password": "correct-horse-battery"},
        format="json",
    )
    assert signed_in.json()["player"]["language"] == "el"


def test_the_server_answers_in_the_requests_language_not_the_accounts() -> None:
    """The documented rule: the client sends the account's language; the server's negotiation
    is the request's alone."""
    ann = api_client("ann")
    ann.ok("patch", ME, {"language": "fr"})
    refused = ann.patch(ME, {"language": "de"}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.json()["detail"] == "This language is not one the server speaks."
    refused = ann.patch(ME, {"language": "de"}, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert refused.json()["detail"] == "Le serveur ne parle pas cette langue."


def test_changing_needs_an_account(anon: APIClient) -> None:
    refused = anon.patch(ME, {"display_name": "Nobody"}, format="json")
    assert refused.status_code == 401
    assert refused.json()["code"] == "not_authenticated"


def test_a_banned_account_cannot_change_its_name() -> None:
    zed = account("zed")
    Player.objects.filter(pk=zed.pk).update(is_active=False)  # banned since it was read
    with pytest.raises(ApiError) as refused:
        player_update(player=zed, display_name="Zed")
    assert refused.value.get_codes() == "authentication_failed"
    assert Player.objects.get(pk=zed.pk).display_name == ""


def test_the_new_name_shows_on_seats_and_the_leaderboard() -> None:
    ann, bob = api_client("ann"), api_client("bob")
    game = api_game(ann, seats=("me", "open"), joiners=(bob,))
    url = game_url(game["id"])
    first = bob.get(url)
    etag = first["ETag"]
    assert [seat["name"] for seat in first.json()["seats"]] == ["ann", "bob"]
    PlayerRating.objects.create(
        player=Player.objects.get(username="ann"), kind="yatzy", rating=1600, deviation=50, games=20
    )

    ann.ok("patch", ME, {"display_name": "Annie"})

    again = bob.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200  # not 304: the body names her otherwise now
    assert [seat["name"] for seat in again.json()["seats"]] == ["Annie", "bob"]
    assert bob.get(url, HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304
    listed = bob.ok("get", "/api/v1/games/?mine=true")["results"]
    assert [seat["name"] for seat in listed[0]["seats"]] == ["Annie", "bob"]
    board = bob.ok("get", "/api/v1/leaderboards/yatzy/")
    assert [(row["username"], row["name"]) for row in board] == [("ann", "Annie")]
    assert bob.ok("get", "/api/v1/players/ann/")["name"] == "Annie"
