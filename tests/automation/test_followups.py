"""What follows a committed move (games.followups.advance): after the commit only, in order, from
values
captured in the transaction (no query), and a finished rated game rated inside the move's own
transaction."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoCaptureOnCommitCallbacks

from games import services
from games.followups import jobs, live
from games.models import Game, GameStatus
from games.rules import yatzy
from games.timers import automation
from players.models import Player, RatingChange
from tests.factories import new_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """The three steps, recorded instead of run."""
    seen: list[tuple[str, dict[str, Any]]] = []
    for name, module, function in (
        ("publish", live, "on_game_advanced"),
        ("schedule", jobs, "schedule_followups"),
        ("tournament", jobs, "game_finished"),
    ):
        # The Redis batch the steps share is how they are sent, not what they say: left out.
        monkeypatch.setattr(
            module,
            function,
            lambda _name=name, batch=None, **kwargs: seen.append((_name, kwargs)),
        )
    return seen


@pytest.mark.django_db(transaction=True)
def test_nothing_follows_before_the_commit_and_then_in_order(
    ann: Player, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    game = new_game(ann, "yatzy", [{"type": "me"}, {"type": "hotseat", "name": "Bea"}])
    calls.clear()
    with transaction.atomic():
        services.game_move(game_id=game.pk, command={"type": "roll"}, actor=ann)
        assert calls == []  # still inside the transaction
    assert [name for name, _ in calls] == ["publish", "schedule"]  # no tournament: not finished
    publish = calls[0][1]
    assert publish["game_id"] == game.pk
    assert publish["version"] == 2
    # Ann's turn (her own seat): she is told.
    assert [(player, note.type) for player, note in publish["player_notes"]] == [
        (ann.pk, "your_turn")
    ]
    schedule = calls[1][1]
    assert schedule == {
        "game_id": game.pk,
        "version": 2,
        "computer_to_play": False,
        "deadline_at": schedule["deadline_at"],
    }


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_move_sets_nothing_going(
    ann: Player, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    game = new_game(ann, "yatzy", [{"type": "me"}])
    calls.clear()

    def move_then_fail() -> None:
        with transaction.atomic():
            services.game_move(game_id=game.pk, command={"type": "roll"}, actor=ann)
            raise RuntimeError("the caller's transaction fails")

    with pytest.raises(RuntimeError):
        move_then_fail()
    assert calls == []
    assert Game.objects.get(pk=game.pk).version == 1


def test_the_followups_read_nothing(
    ann: Player, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    """The notes are built after the commit from the captured values: no query (the embedded
    bus's one write of the notes aside: without Redis, publishing is an INSERT)."""
    game = new_game(ann, "yatzy", [{"type": "me"}, {"type": "computer", "level": "casual"}])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.game_move(game_id=game.pk, command={"type": "roll"}, actor=ann)
    assert len(callbacks) == 1
    published: list[dict[str, Any]] = []
    original = live.on_game_advanced

    def publish(**kwargs: Any) -> None:
        published.append(kwargs)
        original(**kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(live, "on_game_advanced", publish)
        with CaptureQueriesContext(connection) as queries:
            callbacks[0]()
    bus_writes = [q for q in queries.captured_queries if 'INTO "games_livenote"' in q["sql"]]
    assert len(bus_writes) == (1 if settings.LIVE_BUS == "database" else 0)
    assert [q for q in queries.captured_queries if q not in bus_writes] == []
    assert published[0]["version"] == 2


@pytest.mark.django_db(transaction=True)
def test_a_finished_game_is_handed_to_the_tournaments(
    ann: Player, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    game = new_game(ann, "yatzy", [{"type": "computer", "level": "casual"}])
    automation.run_until_idle(game.pk)
    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED
    assert calls[-1] == ("tournament", {"game_id": game.pk})
    assert [name for name, _ in calls].count("tournament") == 1


def test_a_rated_game_is_rated_with_its_last_move(ann: Player) -> None:
    game = new_game(
        ann, "yatzy", [{"type": "me"}, {"type": "computer", "level": "casual"}], rated=True
    )
    for _turn in range(200):
        fresh = Game.objects.get(pk=game.pk)
        if fresh.status == GameStatus.FINISHED:
            break
        if fresh.turn_seat == 0:
            rolled = fresh.state is not None and fresh.state["dice"]
            if not rolled:
                services.game_move(game_id=game.pk, command={"type": "roll"}, actor=ann)
            else:
                assert fresh.state is not None
                legal = yatzy.state_from_wire(fresh.state).legal_boxes()
                box = next(iter(legal))
                services.game_move(
                    game_id=game.pk, command={"type": "score", "box": box}, actor=ann
                )
        else:
            automation.run_until_idle(game.pk)
    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED
    assert RatingChange.objects.filter(game_id=game.pk, player=ann).count() == 1


def test_every_task_the_move_path_names_is_registered() -> None:
    """The move path queues its tasks by name (games.followups.jobs): a renamed task must fail
    here."""
    from config.celery_app import app

    app.loader.import_default_modules()  # what a worker imports as it starts (autodiscovery)
    assert set(jobs.TASK_NAMES) <= set(app.tasks)


@pytest.mark.skipif(settings.LIVE_BUS != "redis", reason="needs Redis: set REDIS_URL")
@pytest.mark.django_db(transaction=True)
def test_on_redis_the_notes_and_the_timer_go_in_one_round_trip(ann: Player) -> None:
    import redis.connection

    game = new_game(ann, "yatzy", [{"type": "me"}])
    sent: list[bytes] = []
    # redis-py leaves the method unannotated.
    original: Callable[[Any, Any, bool], None] = (
        redis.connection.AbstractConnection.send_packed_command
    )

    def counting(self: Any, command: Any, check_health: bool = True) -> None:
        sent.append(b"".join(command) if isinstance(command, list) else command)
        original(self, command, check_health)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(redis.connection.AbstractConnection, "send_packed_command", counting)
        for _roll in range(3):  # the third roll sets the auto-confirm timer
            services.game_move(game_id=game.pk, command={"type": "roll"}, actor=ann)
    # The throttle is the API's, not the service's: here each move is one packet.
    assert len(sent) == 3
    assert all(b"PUBLISH" in packet and b"EVAL" in packet for packet in sent)
    assert Game.objects.get(pk=game.pk).deadline_at is not None
