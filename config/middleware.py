"""The language of each request: ``?lang=xx``, else ``Accept-Language``, else English.

Django's ``LocaleMiddleware`` reads ``Accept-Language`` (and the language cookie), falls back to
``LANGUAGE_CODE`` and sets ``Content-Language`` on every response. This subclass adds a ``lang``
query parameter for clients that cannot set headers; a ``lang`` that is not one of ``LANGUAGES``
(after reducing ``fr-CA`` to ``fr``) is ignored, so the header decides.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.middleware import locale
from django.utils import translation

QUERY_PARAMETER = "lang"


class LocaleMiddleware(locale.LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        requested = query_language(request)
        if requested is not None:
            translation.activate(requested)
            request.LANGUAGE_CODE = translation.get_language()


def query_language(request: HttpRequest) -> str | None:
    """The supported language named by ``?lang=``, or None; the parameter is consumed.

    It is taken out of ``request.GET`` so that views reading every parameter as a filter (the
    admin's change lists) do not refuse it; links built from the raw query string keep it.
    """
    if QUERY_PARAMETER not in request.GET:
        return None
    query = request.GET.copy()
    raw = query.pop(QUERY_PARAMETER)[-1]
    query._mutable = False
    request.GET = query
    code = raw.strip().lower().replace("_", "-")
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None
