"""The stream tier with its database out of reach: a stream or a long-poll that cannot read its
game is refused 503 ``service_unavailable`` with ``Retry-After``, the API's problem, not a bare
500 (games.streams.reads.run, config.web.outage)."""

from __future__ import annotations

import psycopg
import pytest
from django import db

from config.web import outage
from games.streams import reads
from games.streams.app import StreamApp
from tests.streams import asgi

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("whole_pool_wait"),
]

GAME = "/api/v1/games/00000000-0000-4000-8000-000000000000/"


def gone(game_id: str) -> None:
    error = db.OperationalError("connection refused")
    error.__cause__ = psycopg.OperationalError("connection refused")
    raise error


@pytest.mark.parametrize(
    ("what", "query", "headers"),
    [
        ("stream/", {}, {}),
        ("events/", {"wait": "5"}, {}),
        ("events/", {}, {"Accept": "text/event-stream"}),
    ],
)
async def test_a_game_that_cannot_be_read_is_refused_503(
    monkeypatch: pytest.MonkeyPatch, what: str, query: dict[str, str], headers: dict[str, str]
) -> None:
    monkeypatch.setattr(reads, "game_header", gone)
    response = await asgi.get(StreamApp(), GAME + what, query, {**headers, "Accept-Language": "uk"})
    assert response.status == 503
    assert response.headers["content-type"] == "application/problem+json"
    assert response.headers["retry-after"] == str(outage.RETRY_AFTER_SECONDS)
    body = await response.json()
    assert (body["code"], body["status"]) == ("service_unavailable", 503)
    assert body["retry_after"] == outage.RETRY_AFTER_SECONDS
    assert body["detail"].startswith("Сервіс зараз не може")


async def test_any_other_failure_is_not_said_to_be_an_outage(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(game_id: str) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(reads, "game_header", broken)
    with pytest.raises(RuntimeError):
        await reads.run(reads.game_header, "any")
