"""The event log on PostgreSQL: TRUNCATE refused like UPDATE and DELETE; the application's runtime
role (games' grant_runtime_role) plays moves but cannot change the log, nor turn its guard off."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from games import services
from games.models import GameEvent
from tests.factories import account, move, new_game

pytestmark = pytest.mark.postgres

ROLE = "dice_guard_runtime"
PASSWORD = "dice-guard-runtime-pw"


@pytest.mark.django_db
def test_the_database_refuses_to_truncate_the_log() -> None:
    alice = account("alice")
    game = move(new_game(alice), alice, type="roll")
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the test's rows are checked now
        for statement in ["TRUNCATE games_gameevent", "TRUNCATE games_game CASCADE"]:
            with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
                cursor.execute(statement)
    assert GameEvent.objects.filter(game=game).count() == game.version > 0


def _superuser_connection() -> psycopg.Connection:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    return psycopg.connect(**params, autocommit=True)


@pytest.fixture
def runtime_role(transactional_db: None) -> Iterator[str]:
    """A login role granted its rights by the command, dropped afterwards."""
    with _superuser_connection() as admin:
        if _exists(admin):
            admin.execute(f"DROP OWNED BY {ROLE}")
        admin.execute(f"DROP ROLE IF EXISTS {ROLE}")
        admin.execute(f"CREATE ROLE {ROLE} LOGIN PASSWORD '{PASSWORD}'")
    call_command("grant_runtime_role", ROLE)
    try:
        yield ROLE
    finally:
        with _superuser_connection() as admin:
            admin.execute(f"DROP OWNED BY {ROLE}")
            admin.execute(f"DROP ROLE {ROLE}")


def _exists(admin: psycopg.Connection) -> bool:
    return admin.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [ROLE]).fetchone() is not None


def test_the_runtime_role_plays_but_cannot_touch_the_log(runtime_role: str) -> None:
    alice = account("alice")
    game = move(new_game(alice), alice, type="roll")
    params = connection.get_connection_params()
    with psycopg.connect(
        host=params.get("host"),
        port=params.get("port"),
        dbname=params["dbname"],
        user=runtime_role,
        password=PASSWORD,
        autocommit=True,
    ) as app:
        assert app.execute("SELECT current_user").fetchone() == (runtime_role,)
        assert app.execute("SELECT count(*) FROM games_gameevent").fetchone() == (game.version,)
        for statement in [
            "UPDATE games_gameevent SET type = 'forged'",
            "DELETE FROM games_gameevent",
            "TRUNCATE games_gameevent",
            "TRUNCATE games_game CASCADE",
            "ALTER TABLE games_gameevent DISABLE TRIGGER games_event_append_only",
            "ALTER TABLE games_gameevent DISABLE TRIGGER ALL",
            "DROP TRIGGER games_event_append_only ON games_gameevent",
            "DROP FUNCTION games_event_append_only() CASCADE",
            "SET session_replication_role = replica",
            "CREATE TRIGGER forged BEFORE INSERT ON games_gameevent "
            "FOR EACH ROW EXECUTE FUNCTION games_event_append_only()",
        ]:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                app.execute(statement)
    version = game.version
    # The move path, as the runtime role: lock, append, save the snapshot.
    with connection.cursor() as cursor:
        cursor.execute(f"SET ROLE {runtime_role}")
        try:
            cursor.execute("SELECT current_user")
            assert cursor.fetchone() == (runtime_role,)
            game = services.game_move(
                game_id=game.pk, command={"type": "roll", "hold": []}, actor=alice
            ).game
        finally:
            cursor.execute("RESET ROLE")
    assert game.version > version
    assert list(GameEvent.objects.filter(game=game).values_list("seq", flat=True)) == list(
        range(1, game.version + 1)
    )


def test_the_command_refuses_to_run_as_the_runtime_role(runtime_role: str) -> None:
    from django.core.management.base import CommandError

    with connection.cursor() as cursor:
        cursor.execute(f"SET ROLE {runtime_role}")
        try:
            with pytest.raises(CommandError, match="runtime role itself"):
                call_command("grant_runtime_role", runtime_role)
        finally:
            cursor.execute("RESET ROLE")
