"""The database (or Redis) out of reach: the request is not at fault and the server is not
broken, so it is answered 503 ``service_unavailable`` with ``Retry-After``, never a 500, by every
tier (the API's exception handler, ``handler500``, the stream tier's reads).

Once a process has met the outage, its requests wait for a connection only
``BRIEF_WAIT_SECONDS`` until one is lent again: a sync worker held the pool's whole wait by each
request would make the requests queued behind it wait that many times over.
"""

from __future__ import annotations

import logging
import sys

import psycopg
import redis
from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.views import defaults

from config.vocabulary.errors import ApiError
from config.vocabulary.problems import API_PREFIX, problem_response
from config.vocabulary.refusals import Refusal

log = logging.getLogger(__name__)

#: About the time the pool takes to notice the database is back.
RETRY_AFTER_SECONDS = 2
#: About what making a connection takes; the first connection lent gives the whole wait back.
BRIEF_WAIT_SECONDS = 0.25
# SQLSTATEs of a server that cannot serve anyone: connection exception, no resource left, shutdown
# or start-up. A failure without a state is the connection's own.
_SERVER_STATES = ("08", "53", "57P01", "57P02", "57P03")


def out_of_reach(exc: BaseException | None) -> bool:
    """Whether ``exc`` or its cause says the database or Redis cannot be reached."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, psycopg.InterfaceError):  # a connection already closed
            return True
        if isinstance(exc, redis.ConnectionError | redis.TimeoutError):  # loading included
            return True
        if isinstance(exc, psycopg.OperationalError):
            state = exc.sqlstate
            return state is None or state.startswith(_SERVER_STATES)
        exc = exc.__cause__ or exc.__context__
    return False


def unavailable(cause: BaseException | None = None) -> ApiError:
    """The refusal of a request the database failed, logged once for the operators."""
    if cause is not None:
        log.warning("database or Redis out of reach: %s: %s", type(cause).__name__, cause)
    pool = getattr(connection, "pool", None)  # PostgreSQL's, with the pool option only
    if pool is not None:
        pool.timeout = BRIEF_WAIT_SECONDS
    error = Refusal.SERVICE_UNAVAILABLE.error()
    error.wait = RETRY_AFTER_SECONDS
    return error


@receiver(connection_created)
def _reachable_again(sender: object, connection: BaseDatabaseWrapper, **kwargs: object) -> None:
    """A connection lent (Django "connects" at each borrow): the pool's whole wait again."""
    pool = getattr(connection, "pool", None)
    if pool is not None and pool.timeout == BRIEF_WAIT_SECONDS:
        pool.timeout = connection.settings_dict["OPTIONS"]["pool"].get("timeout", 30.0)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: 503 when the database is out of reach, else 500; problems under the API."""
    api = request.path.startswith(API_PREFIX)
    if not out_of_reach(sys.exc_info()[1]):
        if api:
            return problem_response(request, Refusal.SERVER_ERROR.error())
        return defaults.server_error(request)
    error = unavailable()
    if api:
        response = problem_response(request, error)
    else:
        words = str(error.detail)
        response = HttpResponse(words, status=error.status_code, content_type="text/plain")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
