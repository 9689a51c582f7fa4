"""The ASGI entry point (uvicorn): the REST API, and the event streams as async views."""

import os

from django.conf import settings
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()

if settings.DEBUG or os.environ.get("SERVE_STATIC") == "true":
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    application = ASGIStaticFilesHandler(application)
