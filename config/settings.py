"""One settings module, read from the environment.

Development needs nothing set but ``DEBUG=true`` (``make run`` sets it): SQLite, an in-process
cache and broker. ``DEBUG`` is off unless set, and then the servers refuse to start with the
development ``SECRET_KEY`` or a ``*`` in ``ALLOWED_HOSTS`` (``config.production``).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from corsheaders.defaults import default_headers
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.observability.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
DEV_SECRET_KEY = "dev-only-insecure-secret-key-change-me"
SECRET_KEY = os.environ.get("SECRET_KEY", DEV_SECRET_KEY)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "corsheaders",
    "rest_framework",
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "players",
    "games",
    "games.tournaments",
    "games.matchmaking",
    "games.accounts",  # after games: its admin adds to the games' (admin.site.unregister)
]

# Sessions, CSRF, authentication and messages serve the admin and the browsable API. A request with
# an API token uses none of them: the project's session and message middleware make their store
# only when it is read (CSRF and authentication already do no work until asked).
MIDDLEWARE = [
    # X-Request-ID, logs' context, HTTP metrics
    "config.web.request_context.RequestContextMiddleware",
    # RateLimit, RateLimit-Policy: what the request's throttle counted (config.web.throttling)
    "config.web.rate_limit.RateLimitMiddleware",
    "corsheaders.middleware.CorsMiddleware",  # CORS_ALLOWED_ORIGINS: before anything answers
    # A body past the limit is refused before it is read.
    "config.web.middleware.BodyLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",  # Referrer-Policy: same-origin, too
    "config.web.page_policy.PagePolicyMiddleware",  # the pages' CSP (/, /play/, the admin)
    "config.web.middleware.SessionMiddleware",  # Django's, its store made when first read
    "config.web.middleware.LocaleMiddleware",  # ?lang=, else Accept-Language, else English
    # Under /api/v1/: Django's own errors (404, 405, 413, 500 pages) as problems, as the API's
    "config.vocabulary.problems.ApiProblemMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.web.middleware.MessageMiddleware",  # Django's, its storage made when first used
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# No request of the API or the admin is near this; nginx refuses the same size first (dice.conf).
MAX_REQUEST_BODY_BYTES = int(os.environ.get("MAX_REQUEST_BODY_BYTES", str(1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BODY_BYTES

# CORS (django-cors-headers; the stream tier answers by the same settings, games.streams.cors): a
# page on one of these origins (``https://play.example.org``, comma-separated; none by default)
# may call the API and open its streams. Tokens go in Authorization (or ?token= for EventSource),
# so no credentials (cookies) are allowed across origins.
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS", "")
CORS_URLS_REGEX = r"^/api/v1/"
CORS_ALLOW_HEADERS = (
    *default_headers,
    "accept-language",
    "idempotency-key",
    "if-match",
    "if-none-match",
    "last-event-id",
)
# What a page may read of an answer (a browser hides every other header from it).
CORS_EXPOSE_HEADERS = [
    "X-Request-ID",
    "ETag",
    "Content-Language",
    "Retry-After",
    "RateLimit",
    "RateLimit-Policy",
    "Idempotent-Replayed",
    "Allow",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite on a fresh machine; PostgreSQL (psycopg 3) whenever DATABASE_URL names it.
#
# Connection budget on PostgreSQL (docs/operations.md, "Connection budget"): each process holds
# at most one connection per thread that reads: a gunicorn sync worker 1, a stream-tier process
# STREAMS_DB_THREADS, a Celery worker its concurrency. Across every machine their sum must stay
# under the server's max_connections, or PgBouncer in front takes the excess (DB_PGBOUNCER).
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'var' / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
        conn_health_checks=True,
    )
}
_ON_POSTGRES = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
# Behind PgBouncer in transaction pooling, a server connection serves a client only for one
# transaction: nothing may outlive it. So no server-side cursors (``.iterator()`` fetches in
# chunks instead), no prepared statements (psycopg prepares a query run often, per connection),
# and no pool of our own (PgBouncer is the pool). Django sets the time zone per connection only
# when the server's differs: give the database ``timezone = 'UTC'`` (docs/operations.md,
# "PgBouncer").
DB_PGBOUNCER = _ON_POSTGRES and env_bool("DB_PGBOUNCER", False)
if DB_PGBOUNCER:
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = None
elif _ON_POSTGRES and env_bool("DB_PREPARE", True):
    # Parameters bound by the server, and a statement run twice on a connection prepared there:
    # PostgreSQL then plans a move's statements once per connection instead of at every move
    # (planning the seats-and-game lock was half of the database's work for a move).
    DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = True
    DATABASES["default"]["OPTIONS"]["prepare_threshold"] = 2
# The hot paths' shortcuts through Django's internals (config.storage.orm_shortcuts); false takes
# the plain ORM path of each, should a Django upgrade break one before it is mended.
ORM_SHORTCUTS = env_bool("ORM_SHORTCUTS", True)
if _ON_POSTGRES:
    # With the database's host gone, a connection fails in seconds, not at the system's TCP
    # time-out (minutes); the request is answered 503 (config.web.outage). libpq's least is 2.
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = 3
if _ON_POSTGRES and not DB_PGBOUNCER and env_bool("DB_POOL", True):
    # A small pool per process (psycopg_pool): a request, a task or a stream read borrows a
    # connection and gives it back, without a new connection each time.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # The pool checks each connection it lends: one whose server went away (a restart) is
    # replaced, never handed to a request. Its check asks the socket, not the server
    # (config.storage.postgresql), so Django's own (an empty query each time) is off.
    DATABASES["default"]["ENGINE"] = "config.storage.postgresql"
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": 1,
        "max_size": int(os.environ.get("DB_POOL_MAX", "8")),
        # Each thread has an idle connection at hand, so a wait is for a new connection: this
        # bounds it, the database stopped or restarting, before the 503 (config.web.outage).
        "timeout": 2,
        # A reconnection gives up after this, and the next borrower starts another at once: the
        # pool sees the database back within a second or so, not after psycopg_pool's back-off
        # (1, 2, 4 ... s between tries) has grown through a long outage.
        "reconnect_timeout": 2,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers wait for the lock instead of failing at once: the move path is one short transaction,
    # which takes the write lock when it begins (a read lock upgraded later could not wait).
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "players.Player"
# Every sign-in (API token, /api-auth/, admin) goes through the guard (players.login_guard): an
# address tries THROTTLE_AUTH times a minute; an account that failed LOGIN_FAILURES_PER_ACCOUNT
# times in LOGIN_LOCKOUT_SECONDS refuses addresses it was never signed in from until then.
AUTHENTICATION_BACKENDS = ["players.login_guard.GuardedModelBackend"]
LOGIN_FAILURES_PER_ACCOUNT = int(os.environ.get("LOGIN_FAILURES_PER_ACCOUNT", "10"))
LOGIN_LOCKOUT_SECONDS = int(os.environ.get("LOGIN_LOCKOUT_SECONDS", "900"))
LOGIN_KNOWN_ADDRESS_DAYS = int(os.environ.get("LOGIN_KNOWN_ADDRESS_DAYS", "30"))
# A deleted account's username is refused to new accounts for this many days (players.name_holds).
DELETED_NAME_HOLD_DAYS = float(os.environ.get("DELETED_NAME_HOLD_DAYS", "30"))
# Names no player may take, as a username or a display name, nor any lookalike of them in any case
# (players.identity.looks_like_staff): nobody passes for the server's staff.
RESERVED_NAMES = env_list(
    "RESERVED_NAMES", "admin,administrator,moderator,staff,support,system,root"
)
# Django's database sessions, each signed-in one indexed by its account (players.sessions).
SESSION_ENGINE = "players.sessions"

REDIS_URL = os.environ.get("REDIS_URL", "")
# Live notes to the streams (games.followups.live): Redis pub/sub, else a table the stream
# processes poll.
LIVE_BUS = "redis" if REDIS_URL else "database"
LIVE_CHANNEL_PREFIX = os.environ.get(
    "LIVE_CHANNEL_PREFIX", f"dice:{(REDIS_URL.rsplit('/', 1)[-1] or '0') if REDIS_URL else '-'}"
)
# The stream tier (games.streams): threads for its database reads, per process.
STREAMS_DB_THREADS = int(os.environ.get("STREAMS_DB_THREADS", "4"))
# What one client may hold of the stream tier (games.streams.limits): streams open at once per
# address and per account, opens a minute per address, and the lifetime of a stream, after which
# the tier ends it and the client reconnects with Last-Event-ID. A stream ticket
# (players.stream_tickets) opens the account stream once, within STREAM_TICKET_SECONDS.
STREAMS_PER_ADDRESS = int(os.environ.get("STREAMS_PER_ADDRESS", "32"))
STREAMS_PER_ACCOUNT = int(os.environ.get("STREAMS_PER_ACCOUNT", "8"))
STREAM_OPENS_PER_MINUTE = int(os.environ.get("STREAM_OPENS_PER_MINUTE", "60"))
STREAM_MAX_SECONDS = float(os.environ.get("STREAM_MAX_SECONDS", "1800"))
STREAM_TICKET_SECONDS = int(os.environ.get("STREAM_TICKET_SECONDS", "60"))
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # Redis away: a request waits at most this, then is answered 503 (config.web.outage).
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("fr", _("French")),
    ("uk", _("Ukrainian")),
    ("el", _("Greek")),
    ("hr", _("Croatian")),
    ("ru", _("Russian")),
]
# The project's catalogues, then Croatian for Django REST framework (which ships none).
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "locale" / "drf"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "var" / "static"
# Every middleware must stay async-capable: one sync-only middleware would make each open event
# stream hold a thread. Static files (admin, Swagger UI) are served by the ASGI app in DEBUG
# (config/asgi.py) and by the front proxy from STATIC_ROOT (collectstatic) in production.

# /metrics and /health/deep (config.web.internal): with this token as "Authorization: Bearer ...",
# else from this machine only. /health/ready keeps its checks this long per process.
INTERNAL_TOKEN = os.environ.get("INTERNAL_TOKEN", "")
HEALTH_CACHE_SECONDS = float(os.environ.get("HEALTH_CACHE_SECONDS", "2"))

# How many proxies of our own stand in front of the web tier, each appending to X-Forwarded-For:
# the client's address is that many entries from its end (config.web.client_address). 0 (make run:
# clients connect straight to the server) ignores the header; make serve and docker-compose set 1.
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))
# Every per-address count (throttles, the sign-in guard, the stream caps) counts an IPv6 client
# by its first IPV6_BUCKET_PREFIX bits, one /64 by default: a subnet is one customer's, and a
# whole address would give it 2^64 buckets (config.web.client_address.address_bucket).
IPV6_BUCKET_PREFIX = int(os.environ.get("IPV6_BUCKET_PREFIX", "64"))
if not 1 <= IPV6_BUCKET_PREFIX <= 128:
    raise ImproperlyConfigured("IPV6_BUCKET_PREFIX is a prefix length, 1 to 128")

_BROWSABLE = env_bool("BROWSABLE_API", DEBUG)
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "players.auth.TokenAuthentication",  # knox's tokens, one query per request
        "rest_framework.authentication.SessionAuthentication",  # the browsable API, the admin
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # The browsable API is a development tool: production answers JSON only.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if _BROWSABLE else [])
    # for a client that asks for Accept: application/problem+json alone
    + ["config.web.renderers.ProblemJSONRenderer"],
    # JSON only: a form body (a web page's hidden form, sent without a CORS preflight) would let
    # any site register accounts or try passwords from its visitors' addresses. The admin and
    # /api-auth/ are Django's own forms, not the API's parsers.
    "DEFAULT_PARSER_CLASSES": ["config.web.parsers.JSONParser"],  # DRF's, bounded in depth
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "config.schema.ApiSchema",  # + each operation's problems
    "EXCEPTION_HANDLER": "config.vocabulary.exception_handler.api_exception_handler",
    # One counter per request: the view's scope, else "user" once authenticated, else "anon".
    "DEFAULT_THROTTLE_CLASSES": ["config.web.throttling.RateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("THROTTLE_ANON", "120/min"),
        "user": os.environ.get("THROTTLE_USER", "1200/min"),
        "auth": os.environ.get("THROTTLE_AUTH", "20/min"),
        # The reads that fold a game's log or read many games (analysis, its picture, replay,
        # a player's statistics, the account's export), per account, else per address.
        "expensive": os.environ.get("THROTTLE_EXPENSIVE", "30/min"),
    },
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

# Hashed, revocable tokens; a bot keeps one for a month unless TOKEN_TTL_HOURS says otherwise.
# A new sign-in past this many live tokens of one account ends the oldest (players.services).
TOKENS_PER_ACCOUNT = int(os.environ.get("TOKENS_PER_ACCOUNT", "10"))
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=float(os.environ.get("TOKEN_TTL_HOURS", str(24 * 30)))),
    "AUTO_REFRESH": False,
    "TOKEN_PREFIX": "dice_",
}

# The account's export (games.accounts.export_files): written by the workers this many games a step,
# kept this long once ready (or once asked for, if it never is), then deleted.
EXPORT_BATCH = 100
EXPORT_KEEP_HOURS = float(os.environ.get("EXPORT_KEEP_HOURS", "24"))

# Idempotency-Key on the requests that create (config.web.idempotency): how long a key is kept; a
# retry after that creates again.
IDEMPOTENCY_KEY_TTL = timedelta(hours=float(os.environ.get("IDEMPOTENCY_KEY_HOURS", "24")))

SPECTACULAR_SETTINGS = {
    "TITLE": "Dice games server API",
    "DESCRIPTION": (
        "Play dice games against people and the computer (`GET kinds/` lists them). Every "
        "move is an event; every error has a stable `code`.\n\n"
        "Every field is typed but three, free-form by design: a problem's `params`, whose "
        "members each code names for itself (`max`, `dice`...: `GET errors/{code}/` has its "
        "words); a kind's `options` in `GET kinds/`, itself a JSON Schema (of `Options`); the "
        "analysis's `move` and `best_move`, a `Move`, or where a seat left the game its reason "
        "(`resigned`, `claimed`, `timed_out`) against `play_on`."
    ),
    "VERSION": "1.0.0",
    "OAS_VERSION": "3.1.0",
    "LICENSE": {"name": "MIT", "identifier": "MIT"},
    "CONTACT": {"name": "The project's issue tracker"},
    "SERVERS": [{"url": "http://localhost:8000", "description": "`make run`, on this machine"}],
    "TAGS": [
        {"name": "games", "description": "Games: create, join, play, read, replay, analyse"},
        {"name": "matchmaking", "description": "Seeks: wait for an opponent of your choosing"},
        {"name": "tournaments", "description": "Scheduled tournaments, their rounds, standings"},
        {"name": "accounts", "description": "Register, sign in, tokens, your account and data"},
        {"name": "players", "description": "Profiles, statistics and leaderboards"},
        {"name": "streams", "description": "Server-Sent Events: a game's events, your notes"},
        {"name": "errors", "description": "The catalogue of error codes, one page each"},
        {"name": "health", "description": "Operators: liveness, readiness, metrics"},
    ],
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI served from the app itself, not from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The API is JSON: its schema names no form encodings, nor the browsable API's ?format=.
    "PARSER_WHITELIST": ["config.web.parsers.JSONParser"],
    "RENDERER_WHITELIST": ["rest_framework.renderers.JSONRenderer"],
    # The enum names' hook (drf-spectacular's default), the plain views' entries, then ours.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema_plain_views.add_plain_views",
        "games.api.schema_forms.close_forms",  # each event's data: exactly one schema
        "games.api.schema_types.name_event_types",
        "games.api.stream_schema.add_streams",  # the stream tier's endpoints
        "config.schema_examples.add_examples",  # recorded requests and answers, problems
    ],
    "ENUM_NAME_OVERRIDES": {
        "GameKindEnum": "games.kinds.registry.kind_choices",
    },
}

# Celery: Redis when REDIS_URL is set; otherwise a broker in files under var/, so `make run` needs
# no server. Delivery is at least once (late acks, one message at a time, a short visibility
# timeout) and every task is safe to run twice.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL or "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_dir = BASE_DIR / "var" / "broker"
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "control_folder": str(_broker_dir / "control"),
    }
    _broker_dir.joinpath("control").mkdir(parents=True, exist_ok=True)
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "30"))
    }
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker that lost the broker tries again for as long as it takes (Celery's default gives up
# after 100 tries, some 45 minutes, and exits): a long Redis outage ends with the workers back.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_TIMEZONE = TIME_ZONE
# The queue tasks are sent to and workers read (`celery worker --queues`): its own per deployment
# (or test server) sharing a broker, so none takes another's tasks. With GAMES_TIMERS=celery the
# timer task (games.tasks.fire_timer, registered as games.tasks.timeout) has a queue of its own,
# served by a worker that does nothing else: a due auto-confirm never waits behind computer moves,
# tournament rounds or the sweep (which catches lost timers from the default queue).
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "celery")
CELERY_TIMERS_QUEUE = (
    "timers" if CELERY_TASK_DEFAULT_QUEUE == "celery" else f"{CELERY_TASK_DEFAULT_QUEUE}-timers"
)
CELERY_TASK_ROUTES = {"games.tasks.timeout": {"queue": CELERY_TIMERS_QUEUE}}


def _every(task: str, seconds: float, expires: int) -> dict[str, object]:
    """A beat entry: ``task`` every ``seconds``, dropped if not run within ``expires`` seconds."""
    return {"task": task, "schedule": seconds, "options": {"expires": expires}}


CELERY_BEAT_SCHEDULE = {
    "sweep-automatic-moves": _every(
        "games.tasks.sweep_automatic_moves", float(os.environ.get("SWEEP_SECONDS", "1.0")), 5
    ),
    "purge-idempotency-keys": _every("players.tasks.purge_idempotency_keys", 3600.0, 600),
    "purge-username-holds": _every("players.tasks.purge_username_holds", 3600.0, 600),
    "sweep-account-exports": _every("players.tasks.sweep_account_exports", 60.0, 120),
    "tick-tournaments": _every(
        "games.tournaments.tasks.tick_tournaments",
        float(os.environ.get("TOURNAMENT_TICK_SECONDS", "5.0")),
        30,
    ),
    "expire-open-games": _every(
        "games.tasks.expire_open_games", float(os.environ.get("OPEN_GAME_SWEEP_SECONDS", "60")), 120
    ),
    "expire-seeks": _every(
        "games.matchmaking.tasks.expire_seeks",
        float(os.environ.get("SEEK_SWEEP_SECONDS", "60")),
        120,
    ),
}

# Beat exactly once across machines (config.beat_lock): with Redis, every machine may run a beat
# and only the holder of a lease (a Redis key, BEAT_LEASE_KEY, held BEAT_LEASE_SECONDS and renewed
# every third of that) sends the periodic tasks; another takes over when the holder dies. Without
# Redis (make run: one beat), Celery's own scheduler.
CELERY_BEAT_SCHEDULER = os.environ.get(
    "CELERY_BEAT_SCHEDULER",
    "config.beat_lock:SingleBeatScheduler" if REDIS_URL else "celery.beat:PersistentScheduler",
)
if CELERY_BEAT_SCHEDULER.endswith("SingleBeatScheduler") and not REDIS_URL:
    raise ImproperlyConfigured("CELERY_BEAT_SCHEDULER=...SingleBeatScheduler needs REDIS_URL")
BEAT_LEASE_KEY = os.environ.get("BEAT_LEASE_KEY", "dice:beat")
BEAT_LEASE_SECONDS = float(os.environ.get("BEAT_LEASE_SECONDS", "10"))

# Timers (a kind's auto-confirm, the turn clock) are fired by the timers process, `manage.py
# run_timers` (games.timers.runner): from a Redis sorted set when REDIS_URL is set ("redis"), else
# from the games' deadlines in the database ("database", the embedded default). "celery" is the
# former path, ETA tasks on the timers queue and its own worker, kept for comparison.
GAMES_TIMERS = os.environ.get("GAMES_TIMERS", "redis" if REDIS_URL else "database")
if GAMES_TIMERS not in {"redis", "database", "celery"}:
    raise ImproperlyConfigured("GAMES_TIMERS must be redis, database or celery")
# The sorted set, in REDIS_URL's db (a key is scoped by the db number, unlike a pub/sub channel).
GAMES_TIMERS_KEY = os.environ.get("TIMERS_KEY", "dice:timers")
# The longest the runner sleeps without looking at the wheel: the bound on noticing a timer set
# while it slept, which matters only for one due sooner than that (the auto-confirm's 3 s and a
# turn clock are far longer; the computer's pause under a turn clock is 1 s by default).
GAMES_TIMERS_MAX_SLEEP = float(os.environ.get("TIMERS_MAX_SLEEP", "0.2"))
# Timers fired at once per runner process (their database round trips overlap); each holds a
# pooled connection while it fires.
GAMES_TIMERS_THREADS = int(os.environ.get("TIMERS_THREADS", "2"))

# The server's dice (games.fairness.dice): every game rolls by the seeds it committed to at its
# start (games.fairness.seeds), a game from before fair dice by the system's cryptographic RNG.
# Not read from the environment; the tests set a roller of their own (tests/conftest.py: ``dice``),
# and the games they start then commit to nothing.
GAMES_DICE_ROLLER = "games.rules.secure_roller"

# Games with a computer seat one account may have open or in play at once (games.services).
MAX_COMPUTER_GAMES_PER_ACCOUNT = int(os.environ.get("MAX_COMPUTER_GAMES_PER_ACCOUNT", "5"))
# Open games (waiting for players) one account may have at once: the lobby is not one account's.
MAX_OPEN_GAMES_PER_ACCOUNT = int(os.environ.get("MAX_OPEN_GAMES_PER_ACCOUNT", "5"))
# The computer's pause between its moves, so clients can show the dice (0 in tests and benchmarks).
GAMES_COMPUTER_MOVE_DELAY = float(os.environ.get("COMPUTER_MOVE_DELAY", "1.0"))
# Ending games (games.ending): how long the seat to play must be idle before a claim, in a game
# without a turn clock; how long a game may wait for players before it is cancelled.
CLAIM_GRACE_SECONDS = int(os.environ.get("CLAIM_GRACE_SECONDS", "300"))
OPEN_GAME_TTL_HOURS = float(os.environ.get("OPEN_GAME_TTL_HOURS", "24"))
# Matchmaking (games.matchmaking): open seeks per account (409 past it), how long a seek waits.
MAX_OPEN_SEEKS_PER_ACCOUNT = int(os.environ.get("MAX_OPEN_SEEKS_PER_ACCOUNT", "3"))
SEEK_TTL_MINUTES = float(os.environ.get("SEEK_TTL_MINUTES", "30"))
# Rated play that cannot be farmed (games.matchmaking.rated): the finished games a rated seek
# needs, the aborts in 24 h that refuse it, the rated games per pair in 24 h (later ones are
# unrated), and the deviation above which a rating is provisional (off the leaderboards).
RATED_MIN_FINISHED_GAMES = int(os.environ.get("RATED_MIN_FINISHED_GAMES", "3"))
RATED_ABORTS_PER_DAY = int(os.environ.get("RATED_ABORTS_PER_DAY", "3"))
RATED_GAMES_PER_PAIR_PER_DAY = int(os.environ.get("RATED_GAMES_PER_PAIR_PER_DAY", "3"))
LEADERBOARD_MAX_DEVIATION = float(os.environ.get("LEADERBOARD_MAX_DEVIATION", "110"))
# The turn clocks a casual game may choose at creation (seconds per move; none: no clock).
TURN_CLOCK_CHOICES = (15, 30, 60, 120, 300)
# How late past its due time the sweep takes over a timer or a computer move whose task is lost.
GAMES_SWEEP_GRACE_SECONDS = float(os.environ.get("SWEEP_GRACE_SECONDS", "1.0"))

# One JSON line per record (config.observability.logs: time, level, logger, message, request id,
# user, game), or a line for people: json unless DEBUG (`make serve`), text for `make run`.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text" if DEBUG else "json")
LOGGING = logging_config(
    log_format=LOG_FORMAT,
    level=os.environ.get("LOG_LEVEL", "INFO"),
    # A line per HTTP request (logger dice.access: method, path, status, time; its route).
    access_log=env_bool("ACCESS_LOG", False),
)
# In JSON, Celery's worker and beat log through the same handler; in text they keep Celery's own
# lines (its format, which bench/auto_confirm_lag.py reads).
CELERY_WORKER_HIJACK_ROOT_LOGGER = LOG_FORMAT == "text"

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)

# HTTPS=true where clients reach the service over TLS (terminated by the proxy, which says so in
# X-Forwarded-Proto): plain HTTP is redirected (but the health probes), HSTS for a year.
if env_bool("HTTPS", False):
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^health/"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", True)
