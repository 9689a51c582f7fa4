"""One ASGI process serving everything, for ``make run``: the stream requests to the stream
tier's application, the rest to Django's ASGI handler. Production serves the API through WSGI and
the streams through ``config.streams``: Django's ASGI handler costs a thread hop per request.
"""

import os
from typing import Any

from django.conf import settings
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application: Any = get_asgi_application()

from config.web.body_limit import limit_body  # noqa: E402  (needs the app registry)
from games.streams.app import StreamApp  # noqa: E402  (needs the app registry)
from games.streams.routes import is_stream_request  # noqa: E402

if settings.DEBUG or os.environ.get("SERVE_STATIC") == "true":
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    django_application = ASGIStaticFilesHandler(django_application)

# No nginx counts the body's bytes in front of this process (config.web.body_limit).
django_application = limit_body(django_application)

streams = StreamApp()


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        await streams(scope, receive, send)  # Django has no lifespan; the stream hub does
        return
    if scope["type"] == "http":
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if is_stream_request(scope["path"], scope.get("query_string", b""), headers):
            await streams(scope, receive, send)
            return
    await django_application(scope, receive, send)
