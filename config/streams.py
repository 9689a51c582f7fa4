"""The stream tier's ASGI entry point: ``uvicorn config.streams:application``.

Only the event streams (``games.streams``); the REST API, the admin and the docs are the WSGI
tier's (``config.wsgi``, under gunicorn). A front proxy routes between them by path.
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from games.streams.app import StreamApp  # noqa: E402  (needs the app registry)

application = StreamApp()
