"""A game's strong ETag (one per representation: version, seats, status, language, viewer) and
If-Match as a move's precondition: 412 when it fails."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import MakeClient, api_game, game_url

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_etag_is_strong_and_names_the_representation(
    make_client: MakeClient, anon: APIClient
) -> None:
    ann = make_client()
    game = api_game(ann)
    url = game_url(game["id"])
    english = ann.get(url)["ETag"]
    assert english.startswith(f'"v{game["version"]}.') and not english.startswith("W/")
    assert ann.get(url)["ETag"] == english  # the same bytes, the same tag
    assert ann.get(url, HTTP_ACCEPT_LANGUAGE="fr")["ETag"] != english
    assert anon.get(url)["ETag"] != english  # another viewer: another your_seats
    assert ann.get(url, HTTP_IF_NONE_MATCH=english).status_code == 304
    assert ann.get(url, HTTP_IF_NONE_MATCH=f"W/{english}").status_code == 304  # weak comparison
    assert ann.get(url, HTTP_IF_NONE_MATCH=f'"x", {english}').status_code == 304


def test_a_failed_if_match_is_412_and_changes_nothing(make_client: MakeClient) -> None:
    ann = make_client()
    game = api_game(ann)
    url = game_url(game["id"], "moves/")
    etag = ann.get(game_url(game["id"]))["ETag"]
    moved = ann.post(url, {"type": "roll"}, HTTP_IF_MATCH=etag)
    assert moved.status_code == 201
    assert moved["ETag"].startswith(f'"v{game["version"] + 1}.')
    stale = ann.post(url, {"type": "roll", "hold": [0]}, HTTP_IF_MATCH=etag)
    assert stale.status_code == 412
    assert stale["Content-Type"] == "application/problem+json"
    body = stale.json()
    assert (body["code"], body["status"], body["field"]) == ("precondition_failed", 412, "If-Match")
    assert ann.get(game_url(game["id"])).json()["version"] == game["version"] + 1
    # the tag of the same version read in another language matches: it names the same state
    french = ann.get(game_url(game["id"]), HTTP_ACCEPT_LANGUAGE="fr")["ETag"]
    assert ann.post(url, {"type": "roll", "hold": [0]}, HTTP_IF_MATCH=french).status_code == 201


def test_a_weak_tag_never_matches_and_star_always_does(make_client: MakeClient) -> None:
    ann = make_client()
    game = api_game(ann)
    url = game_url(game["id"], "moves/")
    weak = ann.post(url, {"type": "roll"}, HTTP_IF_MATCH=f'W/"v{game["version"]}"')
    assert weak.status_code == 412
    assert ann.post(url, {"type": "roll"}, HTTP_IF_MATCH="*").status_code == 201
    bare = str(game["version"] + 1)
    assert ann.post(url, {"type": "roll", "hold": [0]}, HTTP_IF_MATCH=bare).status_code == 201


def test_a_stale_expected_version_stays_409(make_client: MakeClient) -> None:
    ann = make_client()
    game = api_game(ann)
    url = game_url(game["id"], "moves/")
    ann.ok("post", url, {"type": "roll"}, status=201)
    stale = ann.post(url, {"type": "roll", "expected_version": 0})
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    garbled = ann.post(url, {"type": "roll"}, HTTP_IF_MATCH="yesterday")
    assert garbled.status_code == 400 and garbled.json()["code"] == "invalid_if_match"
