"""The request-context middleware's own CPU per request (config.web.request_context: the request id,
the logs' context, the HTTP metrics), in this process, beside the bare view it wraps.

    .venv/bin/python bench/request_context.py [--requests 20000] [--smoke]

No server, no database: a RequestFactory request handed to the middleware around a view that
answers at once (as a move's view would, after resolving its URL). Prints figures; never asserts
on time. ``--smoke``: 200 requests a round; it checks that the middleware did its work on every
request timed (the client's id answered back, a new id made otherwise, each request counted once
in the HTTP metrics).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Checks, parse_args  # a sibling module: the benches are scripts, not a package

ROUNDS = 3
SMOKE: dict[str, Any] = {"requests": 200}


def per_request(handler: Callable[[Any], Any], requests: list[Any]) -> float:
    started = time.process_time()
    for request in requests:
        handler(request)
    return 1e6 * (time.process_time() - started) / len(requests)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20_000)
    args = parse_args(parser, argv, SMOKE)
    checks = Checks(args.smoke)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SECRET_KEY", "bench-" + "k" * 50)
    import django

    django.setup()
    from django.http import HttpResponse
    from django.test import RequestFactory
    from django.urls import resolve
    from prometheus_client import REGISTRY

    from config.observability import logs
    from config.web.request_context import RequestContextMiddleware

    path = "/api/v1/games/3f0c8b1e-0000-4000-8000-000000000000/moves/"
    match = resolve(path)

    def view(request: Any) -> HttpResponse:
        request.resolver_match = match
        return HttpResponse(b"{}")

    def counted() -> float:
        labels = {"route": match.view_name, "method": "POST", "status": "200"}
        return REGISTRY.get_sample_value("dice_http_requests_total", labels) or 0.0

    middleware = RequestContextMiddleware(view)
    factory = RequestFactory()
    client_id = "abc"
    for _round in range(ROUNDS):
        given = [factory.post(path, HTTP_X_REQUEST_ID=client_id) for _ in range(args.requests)]
        made = [factory.post(path) for _ in range(args.requests)]
        before = counted()
        bare = per_request(view, given)
        with_id = per_request(middleware, given)
        new_id = per_request(middleware, made)
        timed = counted() - before
        print(
            f"bare view {bare:.1f} us; with the middleware: the client's id {with_id:.1f} us "
            f"(+{with_id - bare:.1f}), a new id {new_id:.1f} us (+{new_id - bare:.1f})"
        )
        checks.expect(
            timed == 2 * args.requests,
            f"requests timed through the middleware counted in its metrics ({match.view_name}): "
            f"{timed:.0f} of {2 * args.requests}",
        )
    if checks.enabled:
        # what the timed requests had done to them, on requests of their own
        header = logs.REQUEST_ID_HEADER
        echoed = [middleware(factory.post(path, HTTP_X_REQUEST_ID=client_id))[header]]
        fresh = {middleware(factory.post(path))[header] for _ in range(10)}
        checks.expect(echoed == [client_id], f"the client's id answered back: {echoed}")
        checks.expect(
            len(fresh) == 10 and client_id not in fresh,
            f"a new id for each request without one: {len(fresh)} ids for 10",
        )
    return checks.exit_code()


if __name__ == "__main__":
    sys.exit(main())
