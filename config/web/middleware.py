"""The project's middleware: ``?lang=`` before ``Accept-Language`` (for clients that cannot set
headers), and sessions and messages that cost nothing to a request that does not use them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.conf import settings
from django.contrib.messages import middleware as messages
from django.contrib.messages.storage import default_storage
from django.contrib.sessions import middleware as sessions
from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest, HttpResponse
from django.middleware import locale
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin
from django.utils.functional import SimpleLazyObject, empty

from config.vocabulary.problems import problem_response
from config.vocabulary.refusals import Refusal

if TYPE_CHECKING:
    from django.http.request import _ImmutableQueryDict

QUERY_PARAMETER = "lang"


class LocaleMiddleware(locale.LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        requested = query_language(request)
        if requested is not None:
            translation.activate(requested)
            request.LANGUAGE_CODE = translation.get_language()


def query_language(request: HttpRequest) -> str | None:
    """The language of ``?lang=``, taken out of ``request.GET`` (the admin's filters refuse it)."""
    if QUERY_PARAMETER not in request.GET:
        return None
    query = request.GET.copy()
    raw = query.pop(QUERY_PARAMETER)[-1]
    query._mutable = False
    # Made immutable again, as Django's own request.GET is: the stubs' (stub-only) type for it.
    request.GET = cast("_ImmutableQueryDict", query)
    try:  # LookupError for an empty code too
        return translation.get_supported_language_variant(raw.strip().lower().replace("_", "-"))
    except LookupError:
        return None


class SessionMiddleware(sessions.SessionMiddleware):
    """Django's, with the session store made when something first reads ``request.session``."""

    def process_request(self, request: HttpRequest) -> None:
        session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        request.session = cast(
            SessionBase, SimpleLazyObject(lambda: self.SessionStore(session_key))
        )

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        # With a session cookie, Django deletes one that cannot be a session key even unread.
        unread = _never_read(request, "session") and not settings.SESSION_SAVE_EVERY_REQUEST
        if unread and settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return response
        return super().process_response(request, response)


class MessageMiddleware(messages.MessageMiddleware):
    """Django's, with the message storage made only when a view or template uses it."""

    def process_request(self, request: HttpRequest) -> None:
        # Django's MessageMiddleware sets this private attribute, which HttpRequest's stub does
        # not declare; the messages framework reads it by that name.
        request._messages = SimpleLazyObject(lambda: default_storage(request))  # type: ignore[attr-defined]

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if _never_read(request, "_messages"):
            return response
        return super().process_response(request, response)


def _never_read(request: HttpRequest, attribute: str) -> bool:
    value = request.__dict__.get(attribute)
    return isinstance(value, SimpleLazyObject) and value._wrapped is empty


class BodyLimitMiddleware(MiddlewareMixin):
    """Refuses a body longer than ``MAX_REQUEST_BODY_BYTES`` by its ``Content-Length``, before
    anything reads it (Django's ``RequestDataTooBig`` comes only then, as an HTML page)."""

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        limit = int(settings.MAX_REQUEST_BODY_BYTES)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # not a number: Django reads no body for it either
        if length > limit:
            refusal = Refusal.REQUEST_TOO_LARGE.error(params={"limit": limit})
            return problem_response(request, refusal)
        return None
