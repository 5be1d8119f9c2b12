"""Settings, all from the environment with safe defaults for a club's own machine.

With nothing set: SQLite under var/, DEBUG off, Celery tasks run eagerly, a secret key made
once and kept in var/secret_key. Production sets DATABASE_URL, DJANGO_SECRET_KEY,
DJANGO_ALLOWED_HOSTS, CELERY_BROKER_URL and DJANGO_HTTPS=1 (see docs/operations.md).
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.utils.translation import gettext_lazy as _

from ledger.env import env_bool, env_email, env_int, env_list, env_networks, env_str

# The generic admin, form and view classes take type arguments at run time too (mypy reads
# them: `admin.TabularInline[Seat, Table]`).
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("LEDGER_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def _secret_key() -> str:
    key = env_str("DJANGO_SECRET_KEY")
    if key:
        return key
    # A key of our own, made once per installation, so that sessions survive restarts
    # without anyone having to invent one.
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(64), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()


SECRET_KEY = _secret_key()
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "ledger.clubs",
    "ledger.api",
    "ledger.web",
    "ledger.referee",
    "ledger.play",
    "ledger.formats",
    "ledger.signup",
    "ledger.federation",
    "ledger.hub",
    "ledger.night",
    "ledger.notify",
]

MIDDLEWARE = [
    # X-Forwarded-Proto believed only from LEDGER_TRUSTED_PROXIES (ledger/web/addresses.py).
    "ledger.web.addresses.ForwardedProtoMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Content-Security-Policy on every answer (ledger/web/csp.py).
    "ledger.web.csp.SitePolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Too large, too deep or NaN: refused before any view reads the body.
    "ledger.web.limits.RequestLimitsMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, so that it sees the view's exceptions first.
    "ledger.web.middleware.DatabaseUnavailableMiddleware",
]

# A request to the API that carries a token (``Authorization: Token …``) and no session
# cookie is a program's, not a browser's: it skips the middleware only browsers need
# (static files, sessions and the login they carry, CSRF, messages, framing, htmx) and
# keeps the rest: security headers, the content policy, its language, the size limits and
# the database-unavailable answer (ledger/wsgi.py).
BROWSER_ONLY_MIDDLEWARE = frozenset(
    {
        "whitenoise.middleware.WhiteNoiseMiddleware",
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
        "django.contrib.messages.middleware.MessageMiddleware",
        "django.middleware.clickjacking.XFrameOptionsMiddleware",
        "django_htmx.middleware.HtmxMiddleware",
    }
)
TOKEN_API_MIDDLEWARE = [m for m in MIDDLEWARE if m not in BROWSER_ONLY_MIDDLEWARE]

ROOT_URLCONF = "ledger.urls"
WSGI_APPLICATION = "ledger.wsgi.application"
ASGI_APPLICATION = "ledger.asgi.application"

# --- live tables (ledger/play/live.py): the channel layer that carries each move's notice
# to the sockets. In memory within one web process; with CHANNEL_REDIS_URL (e.g.
# redis://127.0.0.1:6379/3) every web process and worker shares it, so `python -m
# ledger.serve` may run several processes (docs/operations.md).
CHANNEL_REDIS_URL = env_str("CHANNEL_REDIS_URL")


def redis_channel_layer(url: str, prefix: str = "ledger-live") -> dict[str, Any]:
    """The channel layer on the Redis at ``url``, its keys under ``prefix`` (a test run
    keeps to a prefix of its own). Each socket waits on Redis for up to 5 s at a time
    (channels-redis's blocking pop): the client's read timeout must be longer than that
    wait, or a socket waiting on a busy machine gets a read timeout where Redis was about
    to answer "nothing yet", and stops hearing its table (redis-py's default equals it)."""
    return {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [{"address": url, "socket_timeout": 15}], "prefix": prefix},
    }


CHANNEL_LAYERS = {
    "default": redis_channel_layer(CHANNEL_REDIS_URL)
    if CHANNEL_REDIS_URL
    else {"BACKEND": "channels.layers.InMemoryChannelLayer"}
}

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'ledger.sqlite3'}"),
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
    )
}
# Each test run may name its own test database (the Makefile gives the PostgreSQL pass one
# per run), so two runs on one server never drop each other's tables.
if env_str("LEDGER_TEST_DATABASE_NAME"):
    DATABASES["default"]["TEST"] = {"NAME": env_str("LEDGER_TEST_DATABASE_NAME")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers go on while a result is written; the busy timeout makes a second
    # writer wait for the lock instead of failing at once.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
elif env_bool("LEDGER_PREPARED_STATEMENTS", True):
    # The write path's fixed statements ask to be prepared (ledger/clubs/storage/rows.py); no other
    # statement reaches the count, and Django's own cursors never prepare.
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 2**31 - 1
LEDGER_PREPARED_STATEMENTS = env_bool("LEDGER_PREPARED_STATEMENTS", True)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# With CACHE_URL (e.g. redis://127.0.0.1:6379/1) every web process shares one cache, so the
# login and referee-check rate limits count across processes; memory per process otherwise.
CACHE_URL = env_str("CACHE_URL")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
    if CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # The rate limits' counts (failed logins, referee checks) must be shared by every web
    # process: Redis with CACHE_URL, else files under var/ that all processes of this
    # machine share (gunicorn's workers each had their own count: 20 failures for 10).
    "limits": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
    if CACHE_URL
    else {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(VAR_DIR / "limits-cache"),
    },
}
RATELIMIT_USE_CACHE = "limits"
# The proxies (addresses or networks) whose X-Forwarded-For names the client; nobody's by
# default, so a client cannot pick the address its failed logins are counted under
# (ledger/web/addresses.py, docs/operations.md).
LEDGER_TRUSTED_PROXIES = env_networks("LEDGER_TRUSTED_PROXIES")
RATELIMIT_IP_META_KEY = "ledger.web.addresses.client_address"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "it"
LANGUAGES = [("it", _("Italian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Short dates day first in English too (ledger/web/dateformats/en/formats.py).
FORMAT_MODULE_PATH = ["ledger.web.dateformats"]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Rome")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed names need `collectstatic` first (the Procfile's release step does
    # it); a laptop serves the files straight from the apps.
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if env_bool("DJANGO_STATIC_MANIFEST", False)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = True  # serve straight from the apps when collectstatic was not run

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- security: strict when served over HTTPS (DJANGO_HTTPS=1), usable on a laptop otherwise
HTTPS = env_bool("DJANGO_HTTPS", False)

# Results written by one process at the same moment share a transaction (see
# ledger/clubs/storage/groupcommit.py); 0 makes every request commit on its own.
LEDGER_GROUP_COMMIT = env_bool("LEDGER_GROUP_COMMIT", True)
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31536000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
# Not the client's X-Forwarded-Proto itself: the scheme a trusted proxy (LEDGER_TRUSTED_PROXIES)
# gave in it, which ledger.web.addresses.ForwardedProtoMiddleware copies here; from anyone
# else the header is ignored.
SECURE_PROXY_SSL_HEADER = ("LEDGER_FORWARDED_PROTO", "https") if HTTPS else None
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Scripts, styles, images and connections from the site itself only; no inline scripts or
# handler attributes, no eval (except the digital tables' board: ledger/web/csp.py). Styles
# may be inline (htmx adds its own, the pages set a few attributes). Forms post to the site.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# --- API
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "ledger.api.auth.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "ledger.api.pagination.Pages",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "ledger.api.errors.exception_handler",
    # One request body per operation, JSON (the imports' file upload alone is multipart): a
    # client generated from the schema then has one model per body, not three.
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Club ledger API",
    "DESCRIPTION": (
        "Record table results for Tarocco Siciliano, Er Giò, The Bridge's Game, San Marco and "
        "3D cardChess; read standings; settle disputes with the rules engines."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # operationIds and tags from the path after /api/v1/ ("results_create"), stable as long
    # as the paths are.
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # A choice set used by more than one field gets one name of its own.
    "ENUM_NAME_OVERRIDES": {"FileKindEnum": "ledger.api.serializers.FILE_KINDS"},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "ledger.api.schema.document_errors",
        "ledger.api.schema.type_summaries",
    ],
}

# --- Celery: eager (in-process) unless a broker is configured
# `manage.py backup` writes here (keep it on another disk than the database) and keeps the
# newest LEDGER_BACKUP_KEEP backups.
LEDGER_BACKUP_DIR = Path(env_str("LEDGER_BACKUP_DIR", str(BASE_DIR / "backups")))
LEDGER_BACKUP_KEEP = env_int("LEDGER_BACKUP_KEEP", 7)

CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", CELERY_BROKER_URL)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Without a broker, the jobs a request must not wait for (webhook deliveries, the ratings
# replay after a correction, checkpoints) run in a thread after the commit; 0: at once.
LEDGER_JOBS_IN_THREADS = env_bool("LEDGER_JOBS_IN_THREADS", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

# --- tamper evidence: checkpoints of each club's journal, signed with a key kept out of
# the database (ledger/clubs/storage/signing.py, docs/security.md). Without LEDGER_SIGNING_KEY or
# LEDGER_SIGNING_KEY_FILE a development key is made in var/ledger-signing.key.
LEDGER_SIGNING_KEY = env_str("LEDGER_SIGNING_KEY")
LEDGER_SIGNING_KEY_FILE = env_str("LEDGER_SIGNING_KEY_FILE")
# The key that seals a running digital game's seed, deal and moves (ledger/play/sealing.py,
# docs/security.md): comma-separated 32-byte keys, the first sealing, all opening (rotation).
# Without LEDGER_SEALING_KEYS or LEDGER_SEALING_KEY_FILE a development key is made in
# var/ledger-sealing.key.
LEDGER_SEALING_KEYS = env_str("LEDGER_SEALING_KEYS")
LEDGER_SEALING_KEY_FILE = env_str("LEDGER_SEALING_KEY_FILE")
# A checkpoint is signed once a club's journal has grown by this many lines since the last
# one, at every round's end, and by the periodic job (`manage.py sign_checkpoints`, or the
# worker's beat every LEDGER_CHECKPOINT_SECONDS).
LEDGER_CHECKPOINT_EVERY = env_int("LEDGER_CHECKPOINT_EVERY", 200)
# ...but at most one such checkpoint per club every this many seconds from one web process:
# a burst of writes (an import, a busy night's API) does not sign every few milliseconds;
# the lines written meanwhile are covered by the next checkpoint.
LEDGER_CHECKPOINT_MIN_SECONDS = env_int("LEDGER_CHECKPOINT_MIN_SECONDS", 10)
LEDGER_CHECKPOINT_SECONDS = env_int("LEDGER_CHECKPOINT_SECONDS", 600)
CELERY_BEAT_SCHEDULE = {
    "sign-checkpoints": {
        "task": "ledger.clubs.tasks.sign_checkpoints",
        "schedule": float(LEDGER_CHECKPOINT_SECONDS),
    },
    "retry-webhooks": {"task": "ledger.clubs.tasks.retry_webhooks", "schedule": 30.0},
    "retry-notifications": {"task": "ledger.notify.tasks.retry_notifications", "schedule": 60.0},
    # A table's clock is decided on every board and move too; this catches a turn nobody
    # is looking at.
    "play-clocks": {"task": "ledger.play.tasks.check_clocks", "schedule": 5.0},
}

# --- webhooks: where deliveries may go (ledger/clubs/webhooks.py)
# http:// targets (development only) and loopback, private or link-local addresses are
# refused unless these are set.
LEDGER_WEBHOOKS_ALLOW_HTTP = env_bool("LEDGER_WEBHOOKS_ALLOW_HTTP", False)
LEDGER_WEBHOOKS_ALLOW_PRIVATE = env_bool("LEDGER_WEBHOOKS_ALLOW_PRIVATE", False)
LEDGER_WEBHOOK_TIMEOUT = env_int("LEDGER_WEBHOOK_TIMEOUT", 5)
LEDGER_WEBHOOK_ATTEMPTS = env_int("LEDGER_WEBHOOK_ATTEMPTS", 8)

# What a request may carry (ledger/web/limits.py): a 413 beyond the size, a 400 beyond the
# depth. An import's file may be LEDGER_IMPORT_MAX_BYTES (5 MB by default).
LEDGER_MAX_BODY_BYTES = env_int("LEDGER_MAX_BODY_BYTES", 1_000_000)
LEDGER_IMPORT_MAX_BYTES = env_int("LEDGER_IMPORT_MAX_BYTES", 5 * 1024 * 1024)
LEDGER_MAX_JSON_DEPTH = env_int("LEDGER_MAX_JSON_DEPTH", 64)
# An import's budget of work (ledger/clubs/transfer/imports.py, docs/imports.md): at most this many
# rows (a longer file is refused before anything is written), this many seconds, and this
# many refused rows; a job over its time or its refusals stops, rolling back the batch it
# was in.
LEDGER_IMPORT_MAX_ROWS = env_int("LEDGER_IMPORT_MAX_ROWS", 20_000)
LEDGER_IMPORT_MAX_SECONDS = env_int("LEDGER_IMPORT_MAX_SECONDS", 120)
LEDGER_IMPORT_MAX_REFUSED = env_int("LEDGER_IMPORT_MAX_REFUSED", 500)

# Venues that sync to a hub (ledger/hub, docs/operations.md). On the hub: an upload's size
# (one chunk of a venue's journal), and whether uploads are taken over HTTPS only (on when
# the site is, DJANGO_HTTPS=1). At a venue: whether the hub's address may be plain HTTP
# (never needed but for a test hub on another machine of a closed network), and how many
# journal lines each upload of the office's button carries.
LEDGER_HUB_UPLOAD_MAX_BYTES = env_int("LEDGER_HUB_UPLOAD_MAX_BYTES", 64 * 1024 * 1024)
LEDGER_HUB_HTTPS_ONLY = env_bool("LEDGER_HUB_HTTPS_ONLY", HTTPS)
LEDGER_HUB_ALLOW_HTTP = env_bool("LEDGER_HUB_ALLOW_HTTP", False)
LEDGER_HUB_CHUNK_LINES = max(1, env_int("LEDGER_HUB_CHUNK_LINES", 500))

# --- notifications (ledger/notify): e-mail through any SMTP server named by one URL
# (EMAIL_URL=smtp://user:password@host:587?tls=1, smtps://host:465; unset: printed on the
# console), Web Push signed with the site's VAPID keys, and links back to the site.
_email = env_email("EMAIL_URL")
EMAIL_BACKEND = str(_email["EMAIL_BACKEND"])
EMAIL_FILE_PATH = str(_email.get("EMAIL_FILE_PATH", VAR_DIR / "mail"))
EMAIL_HOST = str(_email.get("EMAIL_HOST", "localhost"))
EMAIL_PORT = int(str(_email.get("EMAIL_PORT", 25)))
EMAIL_HOST_USER = str(_email.get("EMAIL_HOST_USER", ""))
EMAIL_HOST_PASSWORD = str(_email.get("EMAIL_HOST_PASSWORD", ""))
EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL", False))
EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS", False))
EMAIL_TIMEOUT = int(str(_email.get("EMAIL_TIMEOUT", 10)))
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Club ledger <ledger@localhost>")
# The address the messages' links start with (the site as its players reach it).
LEDGER_SITE_URL = env_str("LEDGER_SITE_URL", "http://localhost:8000").rstrip("/")
# Web Push: the VAPID key pair (the private key as base64url of its 32 bytes or as PEM; the
# public key as base64url of its uncompressed point, the one the browser subscribes with) and
# the contact the push services may write to. Without keys, nothing is sent by push.
LEDGER_VAPID_PRIVATE_KEY = env_str("LEDGER_VAPID_PRIVATE_KEY")
LEDGER_VAPID_PUBLIC_KEY = env_str("LEDGER_VAPID_PUBLIC_KEY")
LEDGER_VAPID_SUBJECT = env_str("LEDGER_VAPID_SUBJECT", "mailto:ledger@localhost")
# A message is tried this many times, waiting twice as long each time, before it is failed.
LEDGER_NOTIFY_ATTEMPTS = env_int("LEDGER_NOTIFY_ATTEMPTS", 5)
# A digital table's turn is told after this many seconds, if the player has not moved and
# is not on the table's page.
LEDGER_TURN_NOTICE_SECONDS = env_int("LEDGER_TURN_NOTICE_SECONDS", 120)
