"""``GET accounts/me/export/`` (issue 15, part 6): every game of the account (sat in or created)
with its whole log, every rating change and tournament entry, as one JSON document, streamed and
read a batch of games at a time."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.http import StreamingHttpResponse
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import GameEvent
from games.tournaments.services import tournament_register
from players import export
from players.models import Player, RatingChange
from tests.factories import (
    Client,
    api_client,
    game_url,
    new_game,
    new_tournament,
    organiser,
    scored_turn,
)

pytestmark = pytest.mark.django_db

EXPORT = "/api/v1/accounts/me/export/"


def account(client: Client) -> Player:
    return Player.objects.get(username=client.username)


def read(response: Any) -> dict[str, Any]:
    assert response.status_code == 200
    assert response.streaming  # written as it is read, never built whole
    assert response["Content-Type"] == "application/json"
    body: dict[str, Any] = json.loads(b"".join(response.streaming_content))
    return body


def test_the_export_holds_every_game_event_rating_change_and_entry() -> None:
    ann, bob, cara = api_client(), api_client(), api_client()
    a, b, c = account(ann), account(bob), account(cara)
    rated = new_game(a, "yatzy", ["me", "open"], joiners=[b], rated=True)
    scored_turn(rated, a)
    bob.ok("post", game_url(str(rated.pk), "resign/"), status=201)
    joined = new_game(c, "ten_thousand", ["me", "open"], joiners=[a])
    hotseat = new_game(a, "yatzy", ["me", "hotseat"])
    waiting = new_game(a, "yatzy", ["me", "open"], start=False)
    others = new_game(b, "yatzy", ["me", "open"], joiners=[c])  # not hers
    cup = new_tournament(organiser())
    tournament_register(tournament_id=cup.pk, player=a)

    document = read(ann.get(EXPORT))

    assert document["account"]["username"] == a.username
    assert document["account"]["id"] == a.pk
    ids = [game["id"] for game in document["games"]]
    assert ids == [str(g.pk) for g in (rated, joined, hotseat, waiting)]  # oldest first
    assert str(others.pk) not in ids
    for game in document["games"]:
        log = GameEvent.objects.filter(game_id=game["id"]).order_by("seq")
        assert [e["seq"] for e in game["events"]] == [e.seq for e in log]
        assert [e["data"] for e in game["events"]] == [e.data for e in log]
    first = document["games"][0]
    assert first["status"] == "finished" and first["rated"] is True
    assert [seat["username"] for seat in first["seats"]] == [a.username, b.username]
    assert first["seats"][0]["place"] == 1
    assert first["events"][-1]["type"] == "game_finished"
    assert document["games"][3]["events"] == []  # an open game has no log yet
    changes = RatingChange.objects.filter(player=a)
    assert len(document["rating_changes"]) == changes.count() == 1
    assert document["rating_changes"][0]["game"] == str(rated.pk)
    assert document["rating_changes"][0]["rating_after"] == changes.get().rating_after
    assert [e["tournament"] for e in document["tournament_entries"]] == [cup.pk]

    # Someone else's export is theirs alone.
    theirs = read(cara.get(EXPORT))
    assert [g["id"] for g in theirs["games"]] == [str(joined.pk), str(others.pk)]
    assert theirs["rating_changes"] == [] and theirs["tournament_entries"] == []


def test_games_are_read_a_batch_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """However many games, the export reads a fixed number of queries per batch of games (their
    events in one), not one per game."""
    ann = api_client()
    a = account(ann)
    games = [new_game(a, "yatzy", ["me"]) for _ in range(5)]
    for game in games:
        scored_turn(game, a)
    monkeypatch.setattr(export, "BATCH", 2)
    response = ann.get(EXPORT)
    assert isinstance(response, StreamingHttpResponse)  # the view's own (DRF's stubs: a Response)
    with CaptureQueriesContext(connection) as queries:
        document = json.loads(b"".join(response.streaming_content))
    assert [g["id"] for g in document["games"]] == [str(g.pk) for g in games]
    assert all(len(g["events"]) >= 3 for g in document["games"])
    batches = 3  # 2 + 2 + 1
    # ids; per batch: games, seats, their accounts, events; rating changes; entries
    assert len(queries) <= 1 + batches * 4 + 2, [q["sql"] for q in queries]


def test_the_export_needs_an_account(anon: APIClient) -> None:
    answer = anon.get(EXPORT)
    assert answer.status_code == 401
    assert answer.json()["code"] == "not_authenticated"
