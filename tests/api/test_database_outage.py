"""The database out of reach is answered 503 ``service_unavailable`` with ``Retry-After``, never a
500 (config.web.outage): by the API's views, by Django's own answers, in the request's language; a
failure that is the request's own (a deadlock) stays a 500. The stream tier's refusal is
tests/streams/test_stream_outage.py's; the real outage, PostgreSQL stopped under a whole stack,
tests/reliability/test_postgres_restart.py's."""

from __future__ import annotations

from collections.abc import Callable

import psycopg
import pytest
from django import db
from django.db import connection
from django.test import Client
from psycopg import errors as pg_errors
from psycopg_pool import PoolTimeout
from rest_framework.test import APIClient

from config.storage.postgresql.base import connection_alive
from config.web import outage
from tests.api.test_problems import problem
from tests.conftest import on_postgres
from tests.factories import MakeClient, api_game, game_url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("whole_pool_wait")]

GAME = game_url("00000000-0000-4000-8000-000000000000")


def as_django_raises(cause: BaseException) -> BaseException:
    """``cause`` as Django's wrapper raises it: its own class of error, from psycopg's."""
    closed = isinstance(cause, psycopg.InterfaceError)
    error = (db.InterfaceError if closed else db.OperationalError)(str(cause))
    error.__cause__ = cause
    return error


OUTAGES: dict[str, Callable[[], BaseException]] = {
    "refused": lambda: psycopg.OperationalError("connection refused"),
    "pool timeout": lambda: PoolTimeout("couldn't get a connection after 2.00 sec"),
    "server shutting down": lambda: pg_errors.AdminShutdown("terminating connection"),
    "server starting": lambda: pg_errors.CannotConnectNow("the database system is starting up"),
    "no slot left": lambda: pg_errors.TooManyConnections("too many clients already"),
    "connection closed": lambda: psycopg.InterfaceError("the connection is closed"),
}


@pytest.mark.parametrize("name", OUTAGES)
def test_each_outage_is_recognised_raw_and_wrapped(name: str) -> None:
    cause = OUTAGES[name]()
    assert outage.out_of_reach(cause)
    assert outage.out_of_reach(as_django_raises(cause))


@pytest.mark.parametrize(
    "error",
    [
        pg_errors.DeadlockDetected("deadlock detected"),
        pg_errors.QueryCanceled("canceling statement due to statement timeout"),
        pg_errors.UniqueViolation("duplicate key"),
        db.OperationalError("database is locked"),  # SQLite's, without psycopg's under it
        RuntimeError("boom"),
    ],
)
def test_the_requests_own_failures_are_not_outages(error: BaseException) -> None:
    assert not outage.out_of_reach(error)
    assert not outage.out_of_reach(as_django_raises(error))


def failing_reads(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> None:
    from games import selectors

    def broken(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr(selectors, "game_get", broken)


def unavailable(response: object, status: int = 503) -> None:
    body = problem(response, status, "service_unavailable")
    assert response["Retry-After"] == str(outage.RETRY_AFTER_SECONDS)  # type: ignore[index]
    assert body["retry_after"] == outage.RETRY_AFTER_SECONDS
    assert body["field"] is None


@pytest.mark.parametrize("name", OUTAGES)
def test_a_view_whose_database_is_out_of_reach_answers_503(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    failing_reads(monkeypatch, as_django_raises(OUTAGES[name]()))
    response = APIClient(raise_request_exception=False).get(GAME)
    unavailable(response)
    assert "Traceback" not in response.content.decode()


def test_the_words_are_in_the_requests_language(monkeypatch: pytest.MonkeyPatch) -> None:
    failing_reads(monkeypatch, as_django_raises(PoolTimeout("no connection")))
    response = APIClient().get(GAME, HTTP_ACCEPT_LANGUAGE="fr")
    unavailable(response)
    assert response.json()["detail"].startswith("Le service ne peut pas joindre")


def test_a_deadlock_stays_a_server_error(monkeypatch: pytest.MonkeyPatch) -> None:
    failing_reads(monkeypatch, as_django_raises(pg_errors.DeadlockDetected("deadlock")))
    response = APIClient(raise_request_exception=False).get(GAME)
    problem(response, 500, "server_error")
    assert "Retry-After" not in response


def test_a_move_whose_database_fails_mid_way_answers_503(
    make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The failure inside the move's transaction, from the service the view calls."""
    from games import services

    ann = make_client()
    game = api_game(ann)

    def gone(*args: object, **kwargs: object) -> None:
        raise as_django_raises(pg_errors.AdminShutdown("terminating connection"))

    monkeypatch.setattr(services, "game_move", gone)
    response = ann.post(game_url(game["id"], "moves/"), {"type": "roll"})
    unavailable(response)


def test_djangos_own_answer_under_the_api_is_a_503_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    """A middleware that read the database (no DRF view to handle it): Django's handler500."""
    from config.web.middleware import LocaleMiddleware

    def gone(self: object, request: object) -> None:
        raise as_django_raises(psycopg.OperationalError("server closed the connection"))

    monkeypatch.setattr(LocaleMiddleware, "process_request", gone)
    client = Client(raise_request_exception=False)
    unavailable(client.get(GAME))
    outside = client.get("/play/")
    assert outside.status_code == 503
    assert outside["Retry-After"] == str(outage.RETRY_AFTER_SECONDS)
    assert outside["Content-Type"].startswith("text/plain")


def test_djangos_own_500_stays_a_500_for_anything_else(monkeypatch: pytest.MonkeyPatch) -> None:
    from config.web.middleware import LocaleMiddleware

    def broken(self: object, request: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(LocaleMiddleware, "process_request", broken)
    client = Client(raise_request_exception=False)
    problem(client.get(GAME), 500, "server_error")
    assert client.get("/play/").status_code == 500


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_pooled_connection_whose_server_went_away_is_never_lent(
    make_client: MakeClient,
) -> None:
    """The server ends the pooled connections (as a restart does): the next request is served on
    a new one, not refused: the pool checks what it lends (config.storage.postgresql)."""
    ann = make_client()
    game = api_game(ann)
    connection.close()  # back to the pool, idle, with any other of this process
    with psycopg.connect(**connection.get_connection_params()) as other:
        ended = other.execute(
            "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    assert ended and all(done for _pid, done in ended)
    assert ann.get(game_url(game["id"])).status_code == 200
    connection.ensure_connection()
    assert connection.connection is not None
    assert connection.connection.info.backend_pid not in {pid for pid, _done in ended}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_once_out_of_reach_requests_wait_briefly_until_a_connection_is_lent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pool = getattr(connection, "pool", None)  # PostgreSQL's wrapper alone has one
    if pool is None:
        pytest.skip("no pool of our own (DB_POOL off, or PgBouncer)")
    whole = pool.timeout
    assert whole > outage.BRIEF_WAIT_SECONDS
    with monkeypatch.context() as patched:
        failing_reads(patched, as_django_raises(PoolTimeout("no connection")))
        unavailable(APIClient().get(GAME))
    assert pool.timeout == outage.BRIEF_WAIT_SECONDS
    assert APIClient().get(GAME).status_code == 404  # served: a connection was lent
    assert pool.timeout == whole


def test_the_waits_for_the_database_are_bounded() -> None:
    """What keeps a request from hanging on a stopped database: seconds, not the 30 s of old."""
    options = connection.settings_dict["OPTIONS"]
    if not on_postgres():
        pytest.skip("PostgreSQL's connection options")
    assert options["connect_timeout"] <= 5
    pool = options.get("pool")
    if pool:
        assert pool["timeout"] <= 5
        assert pool["reconnect_timeout"] <= 5
        # and a connection whose server went away is never lent (config.storage.postgresql)
        lender = getattr(connection, "pool", None)
        assert lender is not None and lender._check is connection_alive
