"""Settings of the anchor, the smallest Django project doing what a move does in the database.

bench/serve.py serves it with the project's own gunicorn command line (config/deploy/
gunicorn.conf.py: the same sync workers, the same count) on the project's database, so that the
project's figures can be read against what Django itself costs on this machine. Nothing of the
project is imported: no apps, no authentication, no throttles, no translations.

``ANCHOR_MIDDLEWARE``: ``django`` (the default) runs the middleware list of Django's
``startproject`` (and installs the contrib apps it needs); ``none`` runs none at all, the floor.
``ANCHOR_STATEMENTS``: ``django`` (the default) is Django's own (parameters bound by the client,
every statement planned at every run); ``prepared`` prepares them on the server as the project
does (its ``DB_PREPARE``).
"""

from __future__ import annotations

import os

import dj_database_url

DEBUG = False
# The anchor is only ever served to the bench on loopback; a fresh key per process is enough.
SECRET_KEY = os.environ.get("SECRET_KEY") or os.urandom(32).hex()
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

MIDDLEWARE_SET = os.environ.get("ANCHOR_MIDDLEWARE", "django")
if MIDDLEWARE_SET not in ("django", "none"):
    raise ValueError(f"ANCHOR_MIDDLEWARE must be 'django' or 'none', not {MIDDLEWARE_SET!r}")

INSTALLED_APPS = ["rest_framework"]
MIDDLEWARE: list[str] = []
if MIDDLEWARE_SET == "django":
    # Session, auth and messages middleware need their apps; none of them touches the database
    # unless a view reads request.session or request.user, which the anchor's views never do.
    INSTALLED_APPS = [
        "django.contrib.auth",
        "django.contrib.contenttypes",
        "django.contrib.sessions",
        "django.contrib.messages",
        *INSTALLED_APPS,
    ]
    MIDDLEWARE = [
        "django.middleware.security.SecurityMiddleware",
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.common.CommonMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
        "django.contrib.messages.middleware.MessageMiddleware",
        "django.middleware.clickjacking.XFrameOptionsMiddleware",
    ]

ROOT_URLCONF = "anchor.urls"
WSGI_APPLICATION = "anchor.wsgi.application"

# The project's database. One persistent connection per sync worker, the cheapest way Django
# keeps one (the project borrows its worker's connection from a psycopg pool instead).
DATABASES = {
    "default": dj_database_url.parse(
        os.environ["DATABASE_URL"], conn_max_age=None, conn_health_checks=False
    )
}
STATEMENTS = os.environ.get("ANCHOR_STATEMENTS", "django")
if STATEMENTS not in ("django", "prepared"):
    raise ValueError(f"ANCHOR_STATEMENTS must be 'django' or 'prepared', not {STATEMENTS!r}")
if STATEMENTS == "prepared":
    DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = True
    DATABASES["default"]["OPTIONS"]["prepare_threshold"] = 2
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

USE_TZ = True
TIME_ZONE = "UTC"
USE_I18N = False

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "DEFAULT_THROTTLE_CLASSES": [],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    # No authentication: request.user is None, and django.contrib.auth need not be installed.
    "UNAUTHENTICATED_USER": None,
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
