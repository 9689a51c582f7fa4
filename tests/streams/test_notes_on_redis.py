"""Notes on the Redis bus (games.followups.live.publish): written as the stream tier reads them,
and one that cannot be written is lost alone, never raised into the move that sent it."""

from __future__ import annotations

import datetime
import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings

from config.storage.redis_client import redis_client
from games.followups import live

pytestmark = pytest.mark.skipif(settings.LIVE_BUS != "redis", reason="needs Redis: set REDIS_URL")


@pytest.fixture
def heard() -> Iterator[Any]:
    subscription = redis_client().pubsub(ignore_subscribe_messages=True)
    subscription.subscribe(live.channel(live.GAMES))
    subscription.get_message(timeout=1)  # the subscription's confirmation
    yield subscription
    subscription.close()


def next_note(subscription: Any) -> Any:
    message = subscription.get_message(timeout=2)
    assert message is not None, "no note arrived"
    return json.loads(message["data"])


def test_a_note_reads_back_as_json_dumps_wrote_it(heard: Any) -> None:
    when = datetime.datetime(2026, 12, 5, 21, 59, 58, 123456, tzinfo=datetime.UTC)
    game = uuid.UUID(int=7)
    payload = {"game": game, "at": when, "name": "Ελένη", "seats": (1, 2)}
    live.publish([(live.GAMES, payload)])
    assert next_note(heard) == json.loads(json.dumps(payload, default=str))


def test_a_note_that_cannot_be_written_is_lost_alone(
    heard: Any, caplog: pytest.LogCaptureFixture
) -> None:
    live.publish([(live.GAMES, {"name": "\ud800"}), (live.GAMES, {"name": "next"})])
    assert next_note(heard) == {"name": "next"}
    assert "could not write a games note" in caplog.text
