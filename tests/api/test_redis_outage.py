"""Redis out of reach, as the web tier meets it (config.web.outage): every request's throttle counts
there, so each is answered 503 ``service_unavailable`` with ``Retry-After`` within the socket's
two seconds, never a 500; and a move that committed while the broker is away is answered as the
write it was (the computer's turn is then the sweep's), never an error after the fact. Redis
restarted under a whole stack is tests/reliability/test_redis_restart.py's."""

from __future__ import annotations

import socket
import time
from typing import Any

import pytest
from kombu.exceptions import OperationalError
from pytest_django import Settings

from games.models import Game, GameEvent
from tests.factories import MakeClient, api_game, game_url

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    """A port nothing listens on: connections to it are refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_redis_away_is_a_503_not_a_500(make_client: MakeClient, settings: Settings) -> None:
    ann = make_client()
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
    started = time.monotonic()
    response = ann.post("/api/v1/games/", {"kind": "yatzy", "seats": [{"type": "me"}]})
    assert time.monotonic() - started < 10
    assert response.status_code == 503, response.content
    assert response.json()["code"] == "service_unavailable"
    assert response["Retry-After"] == "2"
    assert not Game.objects.exists()  # nothing was written


@pytest.mark.django_db(transaction=True)  # the follow-ups run as the move commits
def test_a_move_committed_while_the_broker_is_away_is_answered_as_made(
    make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = make_client()
    game = api_game(ann, seats=["me", {"type": "computer"}])

    def broker_away(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("Error 111 connecting to the broker. Connection refused.")

    monkeypatch.setattr("celery.canvas.Signature.apply_async", broker_away)
    for _turn in range(2):
        ann.ok("post", game_url(game["id"], "moves/"), {"type": "roll"}, status=201)
    scored = ann.ok(
        "post", game_url(game["id"], "moves/"), {"type": "score", "box": "chance"}, status=201
    )
    # The computer's turn is next: its task could not be queued, the move stands all the same.
    assert scored["game"]["turn_seat"] == 1
    assert GameEvent.objects.filter(game_id=game["id"], type="box_scored").count() == 1
