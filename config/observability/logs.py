"""Log records with their context (request id, user, game): one JSON line each, or a line for
people. The context is one ``ContextVar`` per request, task or fired timer (``bind``); the
request's user and game are read only when a record is written, so a request that logs nothing
pays for none of it.
"""

from __future__ import annotations

import contextlib
import logging
import re
import secrets
from collections.abc import Iterator
from contextvars import ContextVar, Token
from typing import TYPE_CHECKING, Any, NamedTuple

from django.utils.functional import SimpleLazyObject, empty
from pythonjsonlogger.json import JsonFormatter as _JsonFormatter

if TYPE_CHECKING:
    from django.http import HttpRequest

REQUEST_ID_HEADER = "X-Request-ID"
# What a client's id may be (else one is made): short, and nothing a log reader must escape.
_VALID_ID = re.compile(r"^[A-Za-z0-9._:@/+=-]{1,128}$")
#: The context fields every record gets, in the order a JSON line shows them.
FIELDS = ("request_id", "user_id", "game_id", "task")


class LogContext(NamedTuple):
    """Immutable, and a tuple: made and replaced in well under a microsecond."""

    request_id: str | None = None
    user_id: int | None = None
    game_id: str | None = None
    task: str | None = None
    request: HttpRequest | None = None


_NONE = LogContext()  # immutable: one shared default is safe
_context: ContextVar[LogContext] = ContextVar("log_context", default=_NONE)


def new_request_id() -> str:
    return secrets.token_hex(16)


def request_id_from(value: str | None) -> str:
    if value and _VALID_ID.match(value):
        return value
    return new_request_id()


def current() -> LogContext:
    return _context.get()


def current_request_id() -> str | None:
    return _context.get().request_id


def bind(**fields: Any) -> Token[LogContext]:
    """Add fields to this context (a request, a task, a timer); ``unbind`` with the token."""
    return _context.set(_context.get()._replace(**fields))


def bind_request(request_id: str, request: HttpRequest) -> Token[LogContext]:
    return _context.set(LogContext(request_id, None, None, None, request))


def unbind(token: Token[LogContext]) -> None:
    _context.reset(token)


@contextlib.contextmanager
def bound(**fields: Any) -> Iterator[LogContext]:
    token = bind(**fields)
    try:
        yield _context.get()
    finally:
        unbind(token)


def _request_user_id(request: HttpRequest) -> int | None:
    # Only a user already loaded: a lazy one (the session's, not yet read) would cost a query.
    user = request.__dict__.get("user")
    if user is None or (isinstance(user, SimpleLazyObject) and user._wrapped is empty):
        return None
    pk = getattr(user, "pk", None)
    return pk if isinstance(pk, int) else None


def _request_game_id(request: HttpRequest) -> str | None:
    match = getattr(request, "resolver_match", None)
    value = match.kwargs.get("game_id") if match is not None else None
    return None if value is None else str(value)


class ContextFilter(logging.Filter):
    """Sets the context fields on every record (None where unknown); a field in ``extra`` wins."""

    def filter(self, record: logging.LogRecord) -> bool:
        context = _context.get()
        request = context.request
        # django.request's lines come once the middleware has returned, with their request.
        attached = getattr(record, "request", None)
        if request is None and attached is not None and hasattr(attached, "resolver_match"):
            request = attached
            context = context._replace(request_id=getattr(attached, "request_id", None))
        values = context._asdict()
        del values["request"]
        if request is not None:
            values["user_id"] = values["user_id"] or _request_user_id(request)
            values["game_id"] = values["game_id"] or _request_game_id(request)
        for name, value in values.items():
            if getattr(record, name, None) is None:
                setattr(record, name, value)
        return True


class JsonFormatter(_JsonFormatter):
    """One JSON object per line: time, level, logger, message, the known context, any ``extra``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("timestamp", "time")
        kwargs.setdefault("rename_fields", {"levelname": "level", "name": "logger"})
        kwargs.setdefault("json_ensure_ascii", False)
        super().__init__(["levelname", "name", "message"], *args, **kwargs)

    def process_log_record(self, log_data: dict[str, Any]) -> dict[str, Any]:
        ordered: dict[str, Any] = {}
        for name in ("time", "level", "logger", "message"):
            ordered[name] = log_data.pop(name, None)
        # The request id always; the rest when known.
        ordered["request_id"] = log_data.pop("request_id", None)
        for name in FIELDS[1:]:
            value = log_data.pop(name, None)
            if value is not None:
                ordered[name] = value
        log_data.pop("request", None)  # django.request's
        log_data.pop("color_message", None)  # uvicorn's, with terminal colours
        ordered.update(log_data)
        return ordered


class TextFormatter(logging.Formatter):
    """A line for people: time, level, logger, [request id and what is known], message."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s [%(context)s] %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        parts = [str(getattr(record, "request_id", None) or "-")]
        for name in FIELDS[1:]:
            value = getattr(record, name, None)
            if value is not None:
                parts.append(f"{name.removesuffix('_id')}={value}")
        # On a copy: another handler (or the same record's next format) must not see it.
        copy = logging.makeLogRecord(record.__dict__)
        copy.__dict__["context"] = " ".join(parts)
        return super().format(copy)


def logging_config(*, log_format: str, level: str, access_log: bool = False) -> dict[str, Any]:
    if log_format not in {"json", "text"}:
        raise ValueError("LOG_FORMAT must be json or text")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "config.observability.logs.ContextFilter"}},
        "formatters": {
            "json": {"()": "config.observability.logs.JsonFormatter"},
            "text": {"()": "config.observability.logs.TextFormatter"},
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "filters": ["context"],
                "formatter": log_format,
            }
        },
        "loggers": {
            "dice.access": {"level": "INFO" if access_log else "WARNING"},
            # Anyone may send a foreign Host (400 disallowed_host): no ERROR line and traceback.
            "django.security.DisallowedHost": {"level": "CRITICAL"},
        },
        "root": {"handlers": ["console"], "level": level},
    }
