"""The first middleware: each request's id (``X-Request-ID``) bound for its log records, and its
HTTP metrics by route; no query, no Redis. Sync and async alike.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from functools import lru_cache
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase
from prometheus_client import Counter, Histogram

from config.observability import logs
from config.observability.metrics import HTTP_REQUESTS, HTTP_SECONDS

UNMATCHED = "unmatched"
access_log = logging.getLogger("dice.access")
_META_KEY = "HTTP_" + logs.REQUEST_ID_HEADER.upper().replace("-", "_")


# The metrics' children by label (a bounded set), found once each.
@lru_cache(maxsize=4096)
def _requests(route: str, method: str, status: int) -> Counter:
    return HTTP_REQUESTS.labels(route, method, str(status))


@lru_cache(maxsize=1024)
def _seconds(route: str) -> Histogram:
    return HTTP_SECONDS.labels(route)


class RequestContextMiddleware:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        started = time.perf_counter()
        token = self._begin(request)
        try:
            response: HttpResponseBase = self.get_response(request)
        finally:
            logs.unbind(token)
        return self._end(request, response, started)

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        token = self._begin(request)
        try:
            get_response: Callable[[HttpRequest], Awaitable[HttpResponseBase]] = self.get_response
            response = await get_response(request)
        finally:
            logs.unbind(token)
        return self._end(request, response, started)

    @staticmethod
    def _begin(request: HttpRequest) -> Any:
        request_id = logs.request_id_from(request.META.get(_META_KEY))
        request.request_id = request_id  # type: ignore[attr-defined]
        return logs.bind_request(request_id, request)

    @staticmethod
    def _end(request: HttpRequest, response: HttpResponseBase, started: float) -> HttpResponseBase:
        response[logs.REQUEST_ID_HEADER] = request.request_id  # type: ignore[attr-defined]
        # The resolved URL's name, else its pattern: a scan of random paths adds no series.
        match = getattr(request, "resolver_match", None)
        route = (match.view_name or match.route or UNMATCHED) if match is not None else UNMATCHED
        seconds = time.perf_counter() - started
        _requests(route, request.method or "", response.status_code).inc()
        _seconds(route).observe(seconds)
        if access_log.isEnabledFor(logging.INFO):
            access_log.info(
                "%s %s %s %.1f ms",
                request.method,
                request.path,
                response.status_code,
                1000 * seconds,
                extra={"route": route, "status": response.status_code, "request": request},
            )
        return response
