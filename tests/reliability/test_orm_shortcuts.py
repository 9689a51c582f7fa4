"""The canary of ``config.storage.orm_shortcuts``: the shortcuts through Django's internals give
exactly what their plain ORM paths give, and they were checked against the Django release installed.

A Django upgrade that changes what they rely on fails here first, loudly: the release check names
the module to check again, and the comparisons name the shortcut that no longer agrees. Runs on
SQLite and on PostgreSQL (CI).
"""

from __future__ import annotations

from typing import Any

import django
import pytest
from django.db import connection, transaction
from django.db.models import Model
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.settings import CONSTANTS
from pytest_django import Settings

from config.storage import orm_shortcuts
from games.loading import game_with_seats
from games.log import store as event_store
from games.models import Game, GameEvent
from games.timers import automation
from players import auth
from tests.automation.checks import assert_whole_log
from tests.factories import account, new_game, token

pytestmark = pytest.mark.django_db


def test_the_installed_django_is_the_release_the_shortcuts_were_checked_against() -> None:
    assert django.VERSION[:2] == orm_shortcuts.CHECKED_WITH, (
        f"Django {django.get_version()}: check config/storage/orm_shortcuts.py against it (this "
        "test file runs every shortcut against its plain path), then set CHECKED_WITH"
    )


def fields_of(instance: Model | None, *related: str) -> Any:
    """An instance as plain values: its concrete fields, its state, and those of the related
    objects named (``"game__created_by"`` follows two relations)."""
    if instance is None:
        return None
    found: dict[str, Any] = {
        f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields
    }
    found["_state"] = (instance._state.adding, instance._state.db)
    for path in related:
        head, _, rest = path.partition("__")
        found[head] = fields_of(getattr(instance, head), *([rest] if rest else []))
    return found


def both_ways(settings: Settings, read: Any) -> tuple[Any, Any]:
    settings.ORM_SHORTCUTS = True
    short = read()
    settings.ORM_SHORTCUTS = False
    plain = read()
    settings.ORM_SHORTCUTS = True
    return short, plain


def test_a_prepared_token_read_gives_what_the_orm_gives(settings: Settings) -> None:
    key = token(account("ann"))[: CONSTANTS.TOKEN_KEY_LENGTH]

    def read() -> Any:
        return [fields_of(found, "user") for found in auth._BY_KEY(key)]

    short, plain = both_ways(settings, read)
    assert short == plain
    assert short and short[0]["user"]["username"] == "ann"


@pytest.mark.parametrize("lock", [False, True])
def test_a_game_read_with_its_seats_gives_what_the_orm_gives(
    settings: Settings, lock: bool
) -> None:
    ann, bob = account("ann"), account("bob")
    game = new_game(ann, "yatzy", ["me", "open", {"type": "hotseat", "name": "Bea"}], joiners=[bob])

    def read() -> Any:
        with transaction.atomic():
            found = game_with_seats(game.pk, lock=lock)
            seats = [fields_of(seat, "player") for seat in found.seats.all()]
            game_ = fields_of(found, "created_by")
            return game_, seats, [seat.game is found for seat in found.seats.all()]

    short, plain = both_ways(settings, read)
    assert short == plain
    assert [seat["player_id"] for seat in short[1]] == [ann.pk, bob.pk, None]
    assert all(short[2])


def test_seats_read_with_their_game_cost_no_second_query() -> None:
    game = new_game(account("ann"), "yatzy", ["me", {"type": "hotseat", "name": "Bea"}])
    found = game_with_seats(game.pk)
    with CaptureQueriesContext(connection) as queries:
        assert [seat.index for seat in found.seats.all()] == [0, 1]
        assert found.seats.filter(index=1).count() == 1  # still this game's manager
    assert len(queries) == 1  # the filter's own


def written(game: Game) -> Any:
    game.refresh_from_db()
    events = [
        # created_at: the ORM stamps its own (auto_now_add), the move path gives the move's time.
        {k: v for k, v in row.items() if k not in ("id", "game_id", "created_at")}
        for row in GameEvent.objects.filter(game=game).order_by("seq").values()
    ]
    row = fields_of(game)
    # Each game draws its own fair dice seed as it is made (games.fairness.seeds.commit).
    own = ("id", "created_at", "server_seed", "server_seed_hash")
    return events, {k: v for k, v in row.items() if k not in own}


def test_the_move_writes_write_what_the_orm_writes(settings: Settings) -> None:
    ann = account("ann")
    games = [new_game(ann, "yatzy", ["me"], start=False) for _ in range(2)]
    now = timezone.now()
    for game, shortcuts in zip(games, (True, False), strict=True):
        settings.ORM_SHORTCUTS = shortcuts
        records = [
            GameEvent(
                game=game,
                seq=seq,
                type="note",
                data={"seq": seq, "dice": [1, 2]},
                actor=ann if seq == 1 else None,
                automatic=seq == 2,
                created_at=now,
            )
            for seq in (1, 2)
        ]
        event_store.events_append(records)
        assert [record._state.adding for record in records] == [False, False]
        with pytest.raises(PermissionError):
            records[0].save()  # stored: append-only
        game.version, game.state, game.turn_seat, game.last_move_at = 2, {"k": [1]}, 0, now
        event_store.snapshot_save(game, ["version", "state", "turn_seat", "last_move_at"])
    settings.ORM_SHORTCUTS = True
    assert written(games[0]) == written(games[1])
    assert written(games[0])[1]["version"] == 2


@pytest.mark.django_db(transaction=True)
def test_a_whole_game_plays_on_the_plain_path(settings: Settings) -> None:
    settings.ORM_SHORTCUTS = False
    game = new_game(account("ann"), "yatzy", [{"type": "computer", "level": "casual"}])
    automation.run_until_idle(game.pk)
    assert_whole_log(game)
    assert Game.objects.get(pk=game.pk).status == "finished"
