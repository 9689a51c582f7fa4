"""The stream tier's ASGI entry point: ``uvicorn config.streams:application``."""

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from config.production import refuse_unsafe_settings  # noqa: E402  (needs the app registry)
from games.streams.app import StreamApp  # noqa: E402

refuse_unsafe_settings()

application = StreamApp()

# Thousands of open streams are thousands of long-lived objects (sockets, tasks, queues) that a
# full collection walks each time: collect young objects less often, and keep what exists at
# start-up (Django, the app registry) out of every collection.
gc.collect()
gc.freeze()
gc.set_threshold(50_000, 20, 100)
