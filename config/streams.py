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

# Thousands of open streams are long-lived objects a full collection walks: collect less often,
# and keep what exists at start-up out of every collection.
gc.collect()
gc.freeze()
gc.set_threshold(50_000, 20, 100)
