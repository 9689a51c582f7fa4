"""The request-context middleware's own CPU per request (config.request_context: the request id,
the logs' context, the HTTP metrics), in this process, beside the bare view it wraps.

    .venv/bin/python bench/request_context.py [--requests 20000]

No server, no database: a RequestFactory request handed to the middleware around a view that
answers at once (as a move's view would, after resolving its URL). Prints figures; never asserts.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any


def per_request(handler: Callable[[Any], Any], requests: list[Any]) -> float:
    started = time.process_time()
    for request in requests:
        handler(request)
    return 1e6 * (time.process_time() - started) / len(requests)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=20_000)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SECRET_KEY", "bench-" + "k" * 50)
    import django

    django.setup()
    from django.http import HttpResponse
    from django.test import RequestFactory
    from django.urls import resolve

    from config.request_context import RequestContextMiddleware

    match = resolve("/api/v1/games/3f0c8b1e-0000-4000-8000-000000000000/moves/")

    def view(request: Any) -> HttpResponse:
        request.resolver_match = match
        return HttpResponse(b"{}")

    middleware = RequestContextMiddleware(view)
    factory = RequestFactory()
    path = "/api/v1/games/3f0c8b1e-0000-4000-8000-000000000000/moves/"
    for _round in range(3):
        given = [factory.post(path, HTTP_X_REQUEST_ID="abc") for _ in range(args.requests)]
        made = [factory.post(path) for _ in range(args.requests)]
        bare = per_request(view, given)
        with_id = per_request(middleware, given)
        new_id = per_request(middleware, made)
        print(
            f"bare view {bare:.1f} us; with the middleware: the client's id {with_id:.1f} us "
            f"(+{with_id - bare:.1f}), a new id {new_id:.1f} us (+{new_id - bare:.1f})"
        )


if __name__ == "__main__":
    main()
