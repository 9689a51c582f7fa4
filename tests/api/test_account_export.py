"""The account's export (issue 15, part 6; security round two, 2): every game of the account (sat
in or created) with its whole log, every rating change and tournament entry, as one JSON
document. ``POST accounts/me/export/`` asks for it and reads no game; the workers write it a
batch of games a step (``games.accounts.export_files``, each step queuing the next); ``GET``
follows it, ``download/`` sends the stored parts, gzip-compressed or as plain JSON; the sweep
deletes it after ``EXPORT_KEEP_HOURS`` and queues again a step that stalled.

The steps run here as a worker runs them (``account_export_step``, then the next part); the
real worker writes one end to end in ``tests/automation/test_worker.py``."""

from __future__ import annotations

import gzip
import json
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings
from rest_framework.test import APIClient

from games.accounts import export, export_files, tasks
from games.models import GameEvent
from games.tournaments.services import tournament_register
from players.models import AccountExport, AccountExportPart, Player, RatingChange
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
DOWNLOAD = EXPORT + "download/"


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The steps queued (export id, part), instead of sent to the broker."""
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(
        export_files, "queue_step", lambda export, part: sent.append((export, part))
    )
    return sent


def account(client: Client) -> Player:
    return Player.objects.get(username=client.username)


def written(client: Client) -> AccountExport:
    """Ask for the export and run its steps as the worker would, to the end."""
    status = client.ok("post", EXPORT, status=202)
    assert status["status"] == "pending"
    made = AccountExport.objects.get(player=account(client))
    part = 0
    while export_files.account_export_step(export_id=made.pk, part=part):
        part += 1
    made.refresh_from_db()
    assert made.status == "ready" and made.parts == part
    return made


def download(client: Client, gzipped: bool = False) -> dict[str, Any]:
    response: Any = client.get(DOWNLOAD, HTTP_ACCEPT_ENCODING="gzip, br" if gzipped else "")
    assert response.status_code == 200, response.content
    assert response.streaming
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="account.json"'
    raw = b"".join(response.streaming_content)
    assert int(response["Content-Length"]) == len(raw)
    if gzipped:
        assert response["Content-Encoding"] == "gzip"
        raw = gzip.decompress(raw)  # the parts' members are one gzip stream
    else:
        assert "Content-Encoding" not in response
    document: dict[str, Any] = json.loads(raw)
    return document


def test_the_export_holds_every_game_event_rating_change_and_entry(
    queued: list[tuple[int, int]],
) -> None:
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

    made = written(ann)
    document = download(ann)

    assert document["account"]["username"] == a.username
    assert document["account"]["id"] == a.pk
    assert (document["account"]["display_name"], document["account"]["language"]) == ("", "")
    assert document["exported_at"].startswith(str(made.requested_at.date()))
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
    assert download(ann, gzipped=True) == document  # as stored, the same document

    # Someone else's export is theirs alone.
    written(cara)
    theirs = download(cara)
    assert [g["id"] for g in theirs["games"]] == [str(joined.pk), str(others.pk)]
    assert theirs["rating_changes"] == [] and theirs["tournament_entries"] == []


def test_asking_reads_no_game_and_queues_the_first_step_after_the_commit(
    queued: list[tuple[int, int]],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    ann = api_client()
    for _ in range(3):
        scored_turn(new_game(account(ann), "yatzy", ["me"]), account(ann))
    with (
        CaptureQueriesContext(connection) as queries,
        django_capture_on_commit_callbacks(execute=True),
    ):
        answer = ann.post(EXPORT)
    assert answer.status_code == 202 and answer["Location"] == EXPORT
    body = answer.json()
    assert body["status"] == "pending" and body["download"] is None and body["games"] == 0
    read = " ".join(query["sql"] for query in queries.captured_queries)
    assert "games_gameevent" not in read and "games_game" not in read
    made = AccountExport.objects.get(player=account(ann))
    assert queued == [(made.pk, 0)]


def test_each_step_writes_one_batch_and_queues_the_next(
    queued: list[tuple[int, int]],
    settings: Settings,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    """However many games, a step reads a fixed number of queries (its batch's events in one),
    and the steps' parts joined are the document."""
    settings.EXPORT_BATCH = 2
    ann = api_client()
    games = [new_game(account(ann), "yatzy", ["me"]) for _ in range(5)]
    for game in games:
        scored_turn(game, account(ann))
    ann.ok("post", EXPORT, status=202)
    made = AccountExport.objects.get(player=account(ann))
    counts = []
    for part in range(5):  # the head, 2 + 2 + 1 games, the tail
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks(execute=True),
        ):
            assert export_files.account_export_step(export_id=made.pk, part=part)
        counts.append(len(queries.captured_queries))
        status = ann.ok("get", EXPORT)
        assert status["games"] == min(2 * part, 5)
    # the export (locked), its account; ids, the last id's time, games, seats, accounts, events;
    # the part, the export's save (SAVEPOINTs aside)
    assert max(counts[1:4]) <= 12, counts
    assert queued == [(made.pk, part) for part in range(1, 5)]  # the last queues none
    status = ann.ok("get", EXPORT)
    assert status["status"] == "ready" and status["download"] == DOWNLOAD
    assert AccountExportPart.objects.filter(export=made).count() == 5
    document = download(ann)
    assert [g["id"] for g in document["games"]] == [str(g.pk) for g in games]
    assert all(len(g["events"]) >= 3 for g in document["games"])
    assert status["size"] == int(ann.get(DOWNLOAD)["Content-Length"])  # the JSON's bytes


def test_a_step_delivered_twice_or_for_a_replaced_export_writes_nothing(
    queued: list[tuple[int, int]],
) -> None:
    ann = api_client()
    ann.ok("post", EXPORT, status=202)
    made = AccountExport.objects.get(player=account(ann))
    assert export_files.account_export_step(export_id=made.pk, part=0)
    assert not export_files.account_export_step(export_id=made.pk, part=0)  # again
    assert not export_files.account_export_step(export_id=made.pk, part=2)  # out of turn
    assert AccountExportPart.objects.filter(export=made).count() == 1
    made.refresh_from_db()
    while export_files.account_export_step(export_id=made.pk, part=made.parts):
        made.refresh_from_db()
    assert made.status == "ready"
    # A new request replaces a finished export: the old one's late steps find nothing.
    ann.ok("post", EXPORT, status=202)
    assert not AccountExport.objects.filter(pk=made.pk).exists()
    assert not AccountExportPart.objects.filter(export_id=made.pk).exists()
    assert not export_files.account_export_step(export_id=made.pk, part=1)


def test_asking_again_while_one_is_written_answers_that_one(
    queued: list[tuple[int, int]],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    ann = api_client()
    with django_capture_on_commit_callbacks(execute=True):
        first = ann.ok("post", EXPORT, status=202)
        again = ann.ok("post", EXPORT, status=202)
    assert again == first
    assert AccountExport.objects.filter(player=account(ann)).count() == 1
    assert len(queued) == 1


def test_following_and_downloading_before_it_is_ready(queued: list[tuple[int, int]]) -> None:
    ann = api_client()
    missing = ann.get(EXPORT)
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert ann.get(DOWNLOAD).status_code == 404
    ann.ok("post", EXPORT, status=202)
    early = ann.get(DOWNLOAD)
    assert early.status_code == 409 and early.json()["code"] == "export_not_ready"
    made = AccountExport.objects.get(player=account(ann))
    tasks.account_export_step(made.pk, 0)
    status = ann.ok("get", EXPORT)
    assert status["status"] == "pending" and status["size"] > 0


def test_a_step_that_raises_fails_the_export(
    queued: list[tuple[int, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = api_client()
    ann.ok("post", EXPORT, status=202)
    made = AccountExport.objects.get(player=account(ann))

    def broken(*args: Any) -> Any:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(export, "document_head", broken)
    assert tasks.account_export_step(made.pk, 0) is False
    assert ann.ok("get", EXPORT)["status"] == "failed"
    assert ann.get(DOWNLOAD).json()["code"] == "export_not_ready"
    monkeypatch.undo()
    assert ann.ok("post", EXPORT, status=202)["status"] == "pending"  # a new one


def test_the_sweep_deletes_the_old_and_queues_the_stalled_again(
    queued: list[tuple[int, int]], settings: Settings
) -> None:
    ann, bob, cara = api_client(), api_client(), api_client()
    done = written(ann)
    ann.ok("post", EXPORT, status=202)  # a new one replaces the one done: it stalls
    stalled = AccountExport.objects.get(player=account(ann))
    bob.ok("post", EXPORT, status=202)
    fresh = AccountExport.objects.get(player=account(bob))
    written(cara)
    kept = AccountExport.objects.get(player=account(cara))
    assert done.pk != stalled.pk
    queued.clear()
    now = timezone.now()
    AccountExport.objects.filter(pk=stalled.pk).update(progressed_at=now - timedelta(minutes=5))
    AccountExport.objects.filter(pk=kept.pk).update(expires_at=now - timedelta(seconds=1))
    deleted, again = export_files.export_sweep(now=now)
    assert (deleted, again) == (1, 1)
    assert queued == [(stalled.pk, 0)]
    assert not AccountExport.objects.filter(pk=kept.pk).exists()
    assert AccountExport.objects.filter(pk__in=[stalled.pk, fresh.pk]).count() == 2
    # Kept EXPORT_KEEP_HOURS once ready.
    assert done.ready_at is not None
    assert done.expires_at - done.ready_at == timedelta(hours=settings.EXPORT_KEEP_HOURS)


def test_deleting_the_account_deletes_its_export(queued: list[tuple[int, int]]) -> None:
    ann = api_client()
    made = written(ann)
    ann.ok("delete", "/api/v1/accounts/me/", {"password": "correct-horse-battery"}, status=204)
    assert not AccountExport.objects.filter(pk=made.pk).exists()
    assert not AccountExportPart.objects.filter(export_id=made.pk).exists()


def test_the_export_needs_an_account(anon: APIClient) -> None:
    for method, url in (("get", EXPORT), ("post", EXPORT), ("get", DOWNLOAD)):
        answer = getattr(anon, method)(url)
        assert answer.status_code == 401
        assert answer.json()["code"] == "not_authenticated"


@pytest.mark.parametrize(
    ("accept", "gzipped"),
    [("gzip", True), ("deflate, gzip;q=0.5", True), ("gzip;q=0", False), ("*", True), ("", False)],
)
def test_gzip_is_sent_to_the_clients_that_accept_it(
    queued: list[tuple[int, int]], accept: str, gzipped: bool
) -> None:
    ann = api_client()
    written(ann)
    response = ann.get(DOWNLOAD, HTTP_ACCEPT_ENCODING=accept)
    assert (response.get("Content-Encoding") == "gzip") is gzipped
    assert "Accept-Encoding" in response["Vary"]


def test_the_export_holds_the_accounts_name_and_language(queued: list[tuple[int, int]]) -> None:
    ann = api_client()
    ann.ok("patch", "/api/v1/accounts/me/", {"display_name": "Annie", "language": "hr"})
    written(ann)
    held = download(ann)["account"]
    assert (held["display_name"], held["language"]) == ("Annie", "hr")
