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

# Every middleware must stay async-capable: one sync-only middleware would make each open event
# stream hold a thread. Sessions and messages make their store only when read (an API token uses
# neither).
MIDDLEWARE = [
    "config.web.request_context.RequestContextMiddleware",
    "config.web.rate_limit.RateLimitMiddleware",
    "corsheaders.middleware.CorsMiddleware",  # before anything answers
    "config.web.middleware.BodyLimitMiddleware",  # before the body is read
    "django.middleware.security.SecurityMiddleware",
    "config.web.page_policy.PagePolicyMiddleware",
    "config.web.middleware.SessionMiddleware",
    "config.web.middleware.LocaleMiddleware",
    "config.vocabulary.problems.ApiProblemMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.web.middleware.MessageMiddleware",  # Django's, its storage made when first used
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# nginx refuses the same size first (dice.conf).
MAX_REQUEST_BODY_BYTES = int(os.environ.get("MAX_REQUEST_BODY_BYTES", str(1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BODY_BYTES

# CORS (the stream tier reads the same settings, games.streams.cors). Tokens go in Authorization,
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

# SQLite on a fresh machine; PostgreSQL whenever DATABASE_URL names it (docs/operations.md,
# "Connection budget").
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'var' / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
        conn_health_checks=True,
    )
}
_db = DATABASES["default"]
_options = _db.setdefault("OPTIONS", {})
_ON_POSTGRES = _db["ENGINE"] == "django.db.backends.postgresql"
if _ON_POSTGRES:
    # Django's, with its pool's check and its timestamps made cheaper (config.storage.postgresql).
    _db["ENGINE"] = "config.storage.postgresql"
# PgBouncer's transaction pooling: nothing may outlive a transaction, so no server-side cursors,
# no prepared statements and no pool of our own (docs/operations.md, "PgBouncer").
DB_PGBOUNCER = _ON_POSTGRES and env_bool("DB_PGBOUNCER", False)
if DB_PGBOUNCER:
    _db["DISABLE_SERVER_SIDE_CURSORS"] = True
    _options["prepare_threshold"] = None
elif _ON_POSTGRES and env_bool("DB_PREPARE", True):
    # A move's statements planned once per connection, not at every move (planning the
    # seats-and-game lock was half of the database's work for a move).
    _options.update(server_side_binding=True, prepare_threshold=2)
# False takes the plain ORM paths (config.storage.orm_shortcuts), should a Django upgrade break one.
ORM_SHORTCUTS = env_bool("ORM_SHORTCUTS", True)
if _ON_POSTGRES:
    # A host gone fails in seconds, not at TCP's time-out (config.web.outage). libpq's least is 2.
    _options["connect_timeout"] = 3
if _ON_POSTGRES and not DB_PGBOUNCER and env_bool("DB_POOL", True):
    _db["CONN_MAX_AGE"] = 0
    # The pool checks each connection it lends, by its socket (config.storage.postgresql), not
    # with Django's empty query: one whose server went away is never handed to a request.
    _db["CONN_HEALTH_CHECKS"] = False
    _options["pool"] = {
        "min_size": 1,
        "max_size": int(os.environ.get("DB_POOL_MAX", "8")),
        "timeout": 2,  # the wait for a new connection before the 503 (config.web.outage)
        # Short: the database is seen back within a second or so, not after psycopg_pool's
        # back-off has grown through a long outage.
        "reconnect_timeout": 2,
    }
if _db["ENGINE"] == "django.db.backends.sqlite3":
    # Writers wait for the lock, taken when the transaction begins (an upgraded read lock could
    # not wait).
    _options.update(timeout=20, transaction_mode="IMMEDIATE")
    _db["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "players.Player"
# Every sign-in (API token, /api-auth/, admin) goes through the guard (players.login_guard).
AUTHENTICATION_BACKENDS = ["players.login_guard.GuardedModelBackend"]
LOGIN_FAILURES_PER_ACCOUNT = int(os.environ.get("LOGIN_FAILURES_PER_ACCOUNT", "10"))
LOGIN_LOCKOUT_SECONDS = int(os.environ.get("LOGIN_LOCKOUT_SECONDS", "900"))
LOGIN_KNOWN_ADDRESS_DAYS = int(os.environ.get("LOGIN_KNOWN_ADDRESS_DAYS", "30"))
DELETED_NAME_HOLD_DAYS = float(os.environ.get("DELETED_NAME_HOLD_DAYS", "30"))
# Nobody passes for the server's staff (players.identity.looks_like_staff).
RESERVED_NAMES = env_list(
    "RESERVED_NAMES", "admin,administrator,moderator,staff,support,system,root"
)
SESSION_ENGINE = "players.sessions"

REDIS_URL = os.environ.get("REDIS_URL", "")
# Live notes to the streams (games.followups.live): Redis pub/sub, else a polled table.
LIVE_BUS = "redis" if REDIS_URL else "database"
LIVE_CHANNEL_PREFIX = os.environ.get(
    "LIVE_CHANNEL_PREFIX", f"dice:{(REDIS_URL.rsplit('/', 1)[-1] or '0') if REDIS_URL else '-'}"
)
# The stream tier (games.streams, games.streams.limits, players.stream_tickets).
STREAMS_DB_THREADS = int(os.environ.get("STREAMS_DB_THREADS", "4"))
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
            # Redis away: a request waits at most this, then 503 (config.web.outage).
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
# Then Croatian for Django REST framework (which ships none).
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "locale" / "drf"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "var" / "static"
# /metrics and /health/deep (config.web.internal); /health/ready's checks kept per process.
INTERNAL_TOKEN = os.environ.get("INTERNAL_TOKEN", "")
HEALTH_CACHE_SECONDS = float(os.environ.get("HEALTH_CACHE_SECONDS", "2"))

# The client's address and its bucket (config.web.client_address).
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))
IPV6_BUCKET_PREFIX = int(os.environ.get("IPV6_BUCKET_PREFIX", "64"))
if not 1 <= IPV6_BUCKET_PREFIX <= 128:
    raise ImproperlyConfigured("IPV6_BUCKET_PREFIX is a prefix length, 1 to 128")

_BROWSABLE = env_bool("BROWSABLE_API", DEBUG)
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "players.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",  # the browsable API, the admin
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # The browsable API is a development tool: production answers JSON only.
    "DEFAULT_RENDERER_CLASSES": ["config.web.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if _BROWSABLE else [])
    # for a client that asks for Accept: application/problem+json alone
    + ["config.web.renderers.ProblemJSONRenderer"],
    # JSON only: a form body (sent without a CORS preflight) would let any site register accounts
    # or try passwords from its visitors' addresses.
    "DEFAULT_PARSER_CLASSES": ["config.web.parsers.JSONParser"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "config.schema.ApiSchema",
    "EXCEPTION_HANDLER": "config.vocabulary.exception_handler.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["config.web.throttling.RateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("THROTTLE_ANON", "120/min"),
        "user": os.environ.get("THROTTLE_USER", "1200/min"),
        "auth": os.environ.get("THROTTLE_AUTH", "20/min"),
        # The reads that fold a game's log or read many games.
        "expensive": os.environ.get("THROTTLE_EXPENSIVE", "30/min"),
    },
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

TOKENS_PER_ACCOUNT = int(os.environ.get("TOKENS_PER_ACCOUNT", "10"))
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=float(os.environ.get("TOKEN_TTL_HOURS", str(24 * 30)))),
    "AUTO_REFRESH": False,
    "TOKEN_PREFIX": "dice_",
}

# The account's export (games.accounts.export_files): games per step, hours kept.
EXPORT_BATCH = 100
EXPORT_KEEP_HOURS = float(os.environ.get("EXPORT_KEEP_HOURS", "24"))

# How long an Idempotency-Key is kept (config.web.idempotency).
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
    # Swagger UI from the app itself, not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The API is JSON: its schema names no form encodings, nor the browsable API's ?format=.
    "PARSER_WHITELIST": ["config.web.parsers.JSONParser"],
    "RENDERER_WHITELIST": ["config.web.renderers.JSONRenderer"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema_plain_views.add_plain_views",
        "games.api.schema_forms.close_forms",
        "games.api.schema_types.name_event_types",
        "games.api.stream_schema.add_streams",
        "config.schema_examples.add_examples",
    ],
    "ENUM_NAME_OVERRIDES": {"GameKindEnum": "games.kinds.registry.kind_choices"},
}

# Celery: Redis, else a broker in files under var/ (`make run` needs no server). Delivery is at
# least once, and every task is safe to run twice.
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
# Retry for ever: Celery's default gives up after 100 tries (some 45 minutes) and exits.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_TIMEZONE = TIME_ZONE
# One queue per deployment sharing a broker. With GAMES_TIMERS=celery the timer task has a queue
# (and a worker) of its own: a due auto-confirm never waits behind other tasks.
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

# Beat exactly once across machines with Redis (config.beat_lock), else Celery's own scheduler.
CELERY_BEAT_SCHEDULER = os.environ.get(
    "CELERY_BEAT_SCHEDULER",
    "config.beat_lock:SingleBeatScheduler" if REDIS_URL else "celery.beat:PersistentScheduler",
)
if CELERY_BEAT_SCHEDULER.endswith("SingleBeatScheduler") and not REDIS_URL:
    raise ImproperlyConfigured("CELERY_BEAT_SCHEDULER=...SingleBeatScheduler needs REDIS_URL")
BEAT_LEASE_KEY = os.environ.get("BEAT_LEASE_KEY", "dice:beat")
BEAT_LEASE_SECONDS = float(os.environ.get("BEAT_LEASE_SECONDS", "10"))

# Timers are fired by `manage.py run_timers` (games.timers.runner); "celery" is the former path,
# kept for comparison.
GAMES_TIMERS = os.environ.get("GAMES_TIMERS", "redis" if REDIS_URL else "database")
if GAMES_TIMERS not in {"redis", "database", "celery"}:
    raise ImproperlyConfigured("GAMES_TIMERS must be redis, database or celery")
# A key is scoped by REDIS_URL's db number, unlike a pub/sub channel (LIVE_CHANNEL_PREFIX).
GAMES_TIMERS_KEY = os.environ.get("TIMERS_KEY", "dice:timers")
# The bound on noticing a timer set while the runner slept.
GAMES_TIMERS_MAX_SLEEP = float(os.environ.get("TIMERS_MAX_SLEEP", "0.2"))
# Each holds a pooled connection while it fires.
GAMES_TIMERS_THREADS = int(os.environ.get("TIMERS_THREADS", "2"))

# The dice of games from before fair dice (games.fairness); not read from the environment: the
# tests set their own (tests/conftest.py: ``dice``).
GAMES_DICE_ROLLER = "games.rules.secure_roller"

# Games (games.services, games.ending, games.matchmaking, games.matchmaking.rated).
MAX_COMPUTER_GAMES_PER_ACCOUNT = int(os.environ.get("MAX_COMPUTER_GAMES_PER_ACCOUNT", "5"))
MAX_OPEN_GAMES_PER_ACCOUNT = int(os.environ.get("MAX_OPEN_GAMES_PER_ACCOUNT", "5"))
GAMES_COMPUTER_MOVE_DELAY = float(os.environ.get("COMPUTER_MOVE_DELAY", "1.0"))
CLAIM_GRACE_SECONDS = int(os.environ.get("CLAIM_GRACE_SECONDS", "300"))
OPEN_GAME_TTL_HOURS = float(os.environ.get("OPEN_GAME_TTL_HOURS", "24"))
MAX_OPEN_SEEKS_PER_ACCOUNT = int(os.environ.get("MAX_OPEN_SEEKS_PER_ACCOUNT", "3"))
SEEK_TTL_MINUTES = float(os.environ.get("SEEK_TTL_MINUTES", "30"))
RATED_MIN_FINISHED_GAMES = int(os.environ.get("RATED_MIN_FINISHED_GAMES", "3"))
RATED_ABORTS_PER_DAY = int(os.environ.get("RATED_ABORTS_PER_DAY", "3"))
RATED_GAMES_PER_PAIR_PER_DAY = int(os.environ.get("RATED_GAMES_PER_PAIR_PER_DAY", "3"))
LEADERBOARD_MAX_DEVIATION = float(os.environ.get("LEADERBOARD_MAX_DEVIATION", "110"))
# The turn clocks a casual game may choose (seconds per move).
TURN_CLOCK_CHOICES = (15, 30, 60, 120, 300)
# How late the sweep takes over a lost timer or computer move.
GAMES_SWEEP_GRACE_SECONDS = float(os.environ.get("SWEEP_GRACE_SECONDS", "1.0"))

# config.observability.logs: JSON lines, or text for people (`make run`).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text" if DEBUG else "json")
LOGGING = logging_config(
    log_format=LOG_FORMAT,
    level=os.environ.get("LOG_LEVEL", "INFO"),
    access_log=env_bool("ACCESS_LOG", False),
)
# In text, Celery keeps its own lines (which bench/auto_confirm_lag.py reads).
CELERY_WORKER_HIJACK_ROOT_LOGGER = LOG_FORMAT == "text"

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)

# TLS terminated by the proxy (X-Forwarded-Proto): plain HTTP redirected but the health probes.
if env_bool("HTTPS", False):
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^health/"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", True)
