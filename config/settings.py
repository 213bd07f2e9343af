"""Settings, read from the environment.

With no variables set the platform runs on the *embedded default*: SQLite, the in-memory
channel layer, a local-memory cache and a Celery worker inside the server process.
``DATABASE_URL`` and ``REDIS_URL`` switch to PostgreSQL, channels_redis, a Redis cache
and Celery over Redis with separate worker and beat processes. Every variable is listed
in ``platform/.env.example``.
"""

import re
from pathlib import Path

import django.conf.locale
import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from config.secret_key import secret_key_resolve
from config.security import DEFAULT_POLICY, static_headers

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
env_file = env.str("ENV_FILE", default="")
if env_file:
    environ.Env.read_env(env_file)

DEBUG = env.bool("DEBUG", default=False)
# Set SECRET_KEY in a deployment, the same on every host. Unset, a random key is
# generated once into SECRET_KEY_FILE (git-ignored) and kept there, so ``make run``
# needs no set-up and every process of one machine signs with the same key. Keys that
# are published in this repository are refused unless DEBUG is on.
SECRET_KEY = secret_key_resolve(
    key=env.str("SECRET_KEY", default=""),
    path=Path(env.str("SECRET_KEY_FILE", default=str(BASE_DIR / ".secret_key"))),
    debug=DEBUG,
)
ALLOWED_HOSTS = env.list(
    "ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver", "[::1]"]
)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
CSRF_FAILURE_VIEW = "config.error_views.csrf_failure"

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    # /sitemap.xml (config/crawlers.py)
    "django.contrib.sitemaps",
    "channels",
    "allauth",
    "allauth.account",
    "accounts",
    "ops",
    "games",
    "economy",
    "matchmaking",
    "leagues",
    "friends",
    "chat",
    "clubs",
    "tournaments",
    "embed",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # What the service worker keeps (/sw.js, the offline game's pages) sets no
    # cookie: above every middleware that would add one.
    "core.cookieless.CookielessMiddleware",
    # No free database connection: 503 "busy, try again", never a 500.
    "config.error_views.DatabaseBusyMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    # whitenoise, collected files first (config/storage.py)
    "config.storage.StaticMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A device cookie for every browser; a signed-in player's address and device
    # recorded, so accounts seen together are linked (RULES.md §5).
    "accounts.sightings.SightingMiddleware",
    # Django's LocaleMiddleware plus the signed-in player's profile language.
    "accounts.language.LanguageMiddleware",
    # A page offering the reader's language varies with Accept-Language.
    "accounts.language_offer.LanguageOfferVaryMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

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
                "accounts.context_processors.nav",
                # Friend requests and room invitations: one statement.
                "accounts.context_processors.nav_counts",
            ],
            "libraries": {
                "catalog": "config.catalog",
                "events": "config.events",
                "share": "config.share",
            },
        },
    },
]

# --- Database -------------------------------------------------------------------------
SQLITE_PATH = env.str("SQLITE_PATH", default=str(BASE_DIR / "db.sqlite3"))
if env.str("DATABASE_URL", default=""):
    DATABASES = {"default": env.db("DATABASE_URL")}
    # 0 under ASGI: daphne runs database calls in a pool of threads, each with its
    # own connection, and a kept one stays open idle per thread (docs/operations.md).
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=0))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": SQLITE_PATH,
            # IMMEDIATE takes the write lock at BEGIN, so two writers queue instead of
            # failing with "database is locked" when one upgrades a read lock. WAL
            # lets readers go on while one writer commits (in the default rollback
            # journal a writer blocks every reader); NORMAL syncs at checkpoints, not
            # at every commit, and WAL keeps the file consistent after a crash. A
            # writer waits up to ``timeout`` seconds for another's commit.
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL",
            },
            # A file (not :memory:) so that live-server tests share it across threads.
            "TEST": {
                "NAME": env.str(
                    "SQLITE_TEST_PATH", default=str(BASE_DIR / ".test-db.sqlite3")
                )
            },
        }
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend without the health check's SELECT 1 on a busy connection
    # (dbtools/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "dbtools.postgresql"
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # The session's time zone (UTC, as Django keeps it with USE_TZ) as a startup
    # parameter: otherwise Django sends ``SET TimeZone`` on each new connection, one
    # more statement per request (bench/page_cost.py --show lists them).
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "options", "-c TimeZone=UTC"
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# The table store (games/stores.py): the aliases of the databases that hold tables,
# a table in ``TABLE_DATABASES[(id - 1) % n]``. Each alias other than ``default``
# needs its entry in DATABASES, on the same engine.
TABLE_DATABASES = ["default"]
DATABASE_ROUTERS = ["games.stores.TableStoreRouter"]

# --- One deployment's names on a shared Redis
# --------------------------------------------
# Redis pub/sub channels ignore the database number, so two deployments (or two test
# stacks) on one Redis server would hear each other's ``table.<id>`` groups.
# Every Redis name this deployment uses starts with this prefix: by default the
# database's name, which differs between deployments that do not share their data.
DEPLOYMENT_PREFIX = env.str(
    "DEPLOYMENT_PREFIX",
    default=re.sub(r"[^A-Za-z0-9_]", "_", Path(str(DATABASES["default"]["NAME"])).stem),
)

# --- Redis: channel layer, cache, Celery
# ------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
EMBEDDED = not REDIS_URL

if REDIS_URL:
    # Redis pub/sub, not channels_redis' list-based core layer: the core layer reads a
    # process's messages one BZPOPMIN at a time, four Redis round trips each, and at
    # 100 busy tables one daphne fell behind by hundreds of milliseconds (bench/
    # RESULTS.md). Pub/sub pushes messages to one subscribed connection and a group
    # send is one PUBLISH. It delivers at most once: a frame missed during a Redis
    # reconnect shows as a ``seq`` gap and the client resyncs (docs/protocol.md).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                # redis-py 8 defaults to a 5 s read timeout, which closes idle sockets
                # (1011) and caps a pool at 100 connections: see DESIGN.md.
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": None,
                        "socket_connect_timeout": 5,
                        "max_connections": env.int(
                            "REDIS_MAX_CONNECTIONS", default=2000
                        ),
                    }
                ],
                "prefix": f"{DEPLOYMENT_PREFIX}:asgi",
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": DEPLOYMENT_PREFIX,
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    # kombu's ack emulation keeps each task a worker holds in a Redis hash until it
    # is acknowledged, so that a worker killed outright (no warm shutdown, which
    # puts held tasks back either way) has them redelivered after the visibility
    # timeout: 6 of the 9 Redis commands of a computer move's task
    # (``bench/move_cost.py``). The table workers' tasks do not need it: each is
    # redone well within that hour by a sweep or the beat (a table's timed job by
    # ``games.sweep_overdue`` within 5 s of its deadline, a wave, a stake expiry, a
    # pairing, the rollover). Hand reviews have no sweep: their worker turns it back
    # on (``config.review_worker`` sets ``CELERY_ACK_EMULATION``).
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "visibility_timeout": 3600,
        "ack_emulation": env.bool("CELERY_ACK_EMULATION", default=False),
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://localhost/"
    CELERY_RESULT_BACKEND = "cache+memory://"
    # The memory transport polls; the default 1 s delays immediate tasks ~0.7 s.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.1}

# Tasks go to a queue of this deployment's own (a worker consumes only it).
CELERY_TASK_DEFAULT_QUEUE = f"{DEPLOYMENT_PREFIX}.tasks"
# Hand reviews (docs/review.md) have a queue of their own, consumed by a worker of
# one thread (``config.review_worker``; the embedded default runs one in-process):
# seconds of CPU each, they never take a thread the table jobs wait for.
REVIEW_QUEUE = f"{DEPLOYMENT_PREFIX}.reviews"
CELERY_TASK_ROUTES = {"games.review_hand": {"queue": REVIEW_QUEUE}}
# Deeper reviews a player may ask for per hour.
REVIEW_DEEP_PER_HOUR = env.int("REVIEW_DEEP_PER_HOUR", default=5)
# Reviews a signed-in player may queue per hour (by opening a hand's review page);
# a visitor who is not signed in never queues one, only reads those already made.
REVIEW_REQUESTS_PER_HOUR = env.int("REVIEW_REQUESTS_PER_HOUR", default=20)
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
# Nothing reads a task's result: storing one costs a SETEX, a PUBLISH and the
# sender's SUBSCRIBE per task (``send_task`` by name ignores the task's own
# ``ignore_result``, so the default must say it).
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 4
# Celery's Django fix-up closes the database connection before and after every task
# unless this is set: a new PostgreSQL connection per computer move otherwise.
CELERY_DB_REUSE_MAX = env.int("CELERY_DB_REUSE_MAX", default=1000)
CELERY_TIMEZONE = "UTC"
# A broker restart must not end the worker: retry connecting for ever, at start-up
# too. Tasks running at the loss are left to finish (cancelling them kills a threads
# pool worker: "TaskPool does not implement kill_job"); the unacknowledged ones go
# back to the queue and table jobs are idempotent by ``seq``. Celery 5.7 dies in
# ``restore_unacked`` here (pyproject.toml).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # The ledger, every finish and every stake pot (ops/audit.py).
    "ops-audit": {"task": "ops.audit", "schedule": 3600.0},
    "games-sweep-overdue": {"task": "games.sweep_overdue", "schedule": 5.0},
    # Turn clocks run out here, within a second of their deadline (games/sweep.py);
    # a sweep not started within the second is dropped, the next one does its work.
    "games-clock-sweep": {
        "task": "games.clock_sweep",
        "schedule": 1.0,
        "options": {"expires": 1.0},
    },
    "games-finish-sweep": {"task": "games.finish_sweep", "schedule": 10.0},
    "games-practice-expire": {"task": "games.practice_expire", "schedule": 600.0},
    # Ended embedded games and their guests (embed/services.py).
    "embed-purge": {"task": "embed.purge", "schedule": 900.0},
    "matchmaking-waves": {
        "task": "matchmaking.waves",
        "schedule": env.float("MATCHMAKING_WAVE_SECONDS", default=2.0),
    },
    "matchmaking-stake-sweep": {"task": "matchmaking.stake_sweep", "schedule": 5.0},
    "tournaments-sitgo-sweep": {"task": "tournaments.sitgo_sweep", "schedule": 5.0},
    "tournaments-swiss-sweep": {"task": "tournaments.swiss_sweep", "schedule": 5.0},
    # /healthz: proves beat, the broker and a worker run (ops/heartbeat.py).
    "ops-heartbeat": {
        "task": "ops.heartbeat",
        "schedule": 5.0,
        "options": {"expires": 10},
    },
}

# --- League (docs/league.md; points, zones and rewards default in leagues/conf.py)
# The week ends Monday 00:00 UTC: hour and minute explicit (a bare day_of_week fires
# every minute of Monday). The hourly run closes any week a downtime missed.
CELERY_BEAT_SCHEDULE["leagues-rollover"] = {
    "task": "leagues.rollover",
    "schedule": crontab(minute=0, hour=0, day_of_week="mon"),
}
CELERY_BEAT_SCHEDULE["leagues-rollover-catch-up"] = {
    "task": "leagues.rollover",
    "schedule": crontab(minute=17, hour="*"),
}
# --- Tournaments: arenas (docs/tournaments.md, "Arenas")
# The scheduler creates each pool's arenas up to a day ahead; the tick starts and
# ends them and pairs the free players of each live one (and runs on every join).
CELERY_BEAT_SCHEDULE["tournaments-arenas-schedule"] = {
    "task": "tournaments.arenas_schedule",
    "schedule": 300.0,
}
CELERY_BEAT_SCHEDULE["tournaments-arenas-tick"] = {
    "task": "tournaments.arenas_tick",
    "schedule": env.float("TOURNAMENTS_ARENA_TICK_SECONDS", default=3.0),
}
# Run the in-process worker when a server (config.asgi) starts on the embedded default.
EMBEDDED_WORKER = env.bool("EMBEDDED_WORKER", default=EMBEDDED)

# --- Accounts
# ---------------------------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
SITE_ID = 1
# E-mails in the recipient's language (accounts/adapter.py).
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="none")
ACCOUNT_PRESERVE_USERNAME_CASING = True
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_USERNAME_VALIDATORS = "accounts.validators.username_validators"
ACCOUNT_LOGOUT_ON_GET = False
# allauth's per-address limits, merged over its defaults. Sign-ups: 20 a minute per
# address unless SIGNUP_RATE_LIMIT says otherwise (the browser tests' server signs up
# every test's players from 127.0.0.1).
ACCOUNT_RATE_LIMITS = {"signup": env.str("SIGNUP_RATE_LIMIT", default="20/m/ip")}
# URL names: the home page's address in the language of the moment (/es/ for a
# player who reads Spanish), not the English bare one.
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation."
        "UserAttributeSimilarityValidator"
    },
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 8},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

EMAIL_BACKEND = env.str(
    "EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="dominoes@localhost")

# --- Internationalisation
# ---------------------------------------------------------------
LANGUAGE_CODE = "en"
# Native names: the switcher shows each language in itself (no flags), in the
# order of the rules page the site grew from (Latin scripts, then the others).
LANGUAGES = [
    ("id", "Bahasa Indonesia"),
    ("ms", "Bahasa Melayu"),
    ("ca", "Català"),
    ("de", "Deutsch"),
    ("en", "English"),
    ("es", "Español"),
    ("fil", "Filipino"),
    ("fr", "Français"),
    ("it", "Italiano"),
    ("nl", "Nederlands"),
    ("pl", "Polski"),
    ("pt-br", "Português (Brasil)"),
    ("vi", "Tiếng Việt"),
    ("tr", "Türkçe"),
    ("ru", "Русский"),
    ("uk", "Українська"),
    ("ar", "العربية"),
    ("fa", "فارسی"),
    ("he", "עברית"),
    ("hi", "हिन्दी"),
    ("th", "ไทย"),
    ("zh-hans", "简体中文"),
    ("zh-hant", "繁體中文"),
    ("ja", "日本語"),
    ("ko", "한국어"),
]
# Django ships no Filipino; Tagalog browsers (tl) read it. Django's own table sends
# zh-TW/zh-HK to zh-hant, zh-CN/zh-SG to zh-hans and pt/pt-PT to pt-br.
EXTRA_LANG_INFO = {
    "fil": {"bidi": False, "code": "fil", "name": "Filipino", "name_local": "Filipino"},
    "tl": {"fallback": ["fil"]},
}
django.conf.locale.LANG_INFO.update(EXTRA_LANG_INFO)
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600  # a year: the choice outlives the session
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files
# -----------------------------------------------------------------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles"))
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    # /static/offline/pure.zip: the offline game's Python (games/offline_static.py)
    "games.offline_static.PureZipFinder",
]
# Where that finder writes the zip it builds (ignored by git).
OFFLINE_BUILD_DIR = env.str(
    "OFFLINE_BUILD_DIR", default=str(BASE_DIR / "build" / "static")
)

# --- Security
# ---------------------------------------------------------------------------
# Sessions read from the cache (Redis, or this process's memory on the embedded
# default) and written through to the database: a page and its sockets look the
# session up without a statement (bench/page_cost.py).
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Behind the proxy of platform/nginx every request reaches daphne from 127.0.0.1:
# trust the one proxy's X-Forwarded-Proto and X-Forwarded-For. allauth's per-address
# rate limits (10 failed log-ins a minute) then count each player's own address, not
# the proxy's for the whole site; ``config.serve`` gives daphne ``--proxy-headers``
# from the same setting, so REMOTE_ADDR is the player's too.
BEHIND_PROXY = env.bool("BEHIND_PROXY", default=False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_PROXY else None
# The last X-Forwarded-For address is the one our proxy appended: a client cannot
# forge it.
ALLAUTH_TRUSTED_PROXY_COUNT = 1 if BEHIND_PROXY else 0
# Linked accounts (accounts.sightings, docs/economy.md "Linked accounts"): the
# addresses (the forwarded one behind the proxy) and device cookies a player is seen
# with, kept as HMACs, the most recent few of each kind for a bounded time. Accounts
# sharing one never sit at one stake or event table together (RULES.md §5).
ACCOUNT_DEVICE_COOKIE = "device"
ACCOUNT_DEVICE_COOKIE_DAYS = 730
ACCOUNT_SIGHTINGS_KEPT = env.int("ACCOUNT_SIGHTINGS_KEPT", default=10)
ACCOUNT_SIGHTING_DAYS = env.int("ACCOUNT_SIGHTING_DAYS", default=90)
ACCOUNT_SIGHTING_REFRESH_SECONDS = 3600
# HTTPS only once the site is served over HTTPS (secure cookies say it is). Including
# subdomains and asking for the browsers' preload list bind every host of the domain
# for as long: the domain's owner decides (README).
SECURE_HSTS_SECONDS = env.int(
    "HSTS_SECONDS", default=365 * 24 * 3600 if SESSION_COOKIE_SECURE else 0
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("HSTS_PRELOAD", default=False)
SILENCED_SYSTEM_CHECKS = [
    *([] if SECURE_HSTS_INCLUDE_SUBDOMAINS else ["security.W005"]),
    *([] if SECURE_HSTS_PRELOAD else ["security.W021"]),
]
# Plain HTTP is redirected to HTTPS by Django too, except the probes a load balancer
# or Prometheus sends straight to a daphne process.
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=SESSION_COOKIE_SECURE)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
# Scripts, styles and images from this site only; no inline code (config/security.py).
CONTENT_SECURITY_POLICY = env.str("CONTENT_SECURITY_POLICY", default=DEFAULT_POLICY)

# --- Embedded game (docs/embed.md)
# New embedded games one client address may start an hour; 0 lifts the limit.
EMBED_RATE_LIMIT = env.int("EMBED_RATE_LIMIT", default=60)

# --- WebSockets
# -------------------------------------------------------------------------
WS_MAX_FRAME_BYTES = env.int("WS_MAX_FRAME_BYTES", default=8192)
# Sockets one player may hold open of each kind (table, lobby, presence): one per
# open page; the next is closed with 4429 (docs/protocol.md).
WS_SOCKETS_PER_PLAYER = env.int("WS_SOCKETS_PER_PLAYER", default=8)
# Seconds a player whose last page closed still counts as online (friends, the
# online count): a page change or a reload fits in them (accounts.presence).
PRESENCE_OFFLINE_GRACE_SECONDS = env.float(
    "PRESENCE_OFFLINE_GRACE_SECONDS", default=5.0
)

# --- Computer players
# -------------------------------------------------------------------------
# How fast this machine runs the hard bot's search against the machine its work
# budget was calibrated on (games.bots.machine): "auto" measures it once per
# process at the first hard decision; a number fixes it (same moves everywhere).
_bot_speed = env.str("BOT_MACHINE_SPEED", default="auto").strip().lower()
BOT_MACHINE_SPEED: float | None = None
if _bot_speed != "auto":
    try:
        BOT_MACHINE_SPEED = float(_bot_speed)
    except ValueError:
        BOT_MACHINE_SPEED = -1.0
    if not 0.1 <= BOT_MACHINE_SPEED <= 4.0:
        raise ImproperlyConfigured(
            f"BOT_MACHINE_SPEED must be 'auto' or a number from 0.1 to 4, "
            f"not {_bot_speed!r}"
        )

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django.channels.server": {"level": "WARNING"},
        "daphne": {"level": "WARNING"},
        "celery": {"level": "WARNING"},
        "kombu": {"level": "WARNING"},
    },
}

# Hashed, compressed static files (config/storage.py) need `collectstatic`, which
# `make run` and `make run-distributed` do; STATIC_MANIFEST=0 serves the files as
# they are from the apps' folders (the tests' own servers).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "config.storage.StaticStorage"
        if env.bool("STATIC_MANIFEST", default=True)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# Serve files straight from the apps' folders when nothing was collected (tests, dev).
WHITENOISE_USE_FINDERS = env.bool("WHITENOISE_USE_FINDERS", default=True)
WHITENOISE_AUTOREFRESH = DEBUG
# The offline game's worker script carries its own Content-Security-Policy.
WHITENOISE_ADD_HEADERS_FUNCTION = static_headers

# --- Matchmaking (RULES.md §4-§6)
# ---------------------------------------------------------------------------
# The online pools: one table shape each (variant preset, seats, partnership), a
# target for a match of some 5-10 hands where the variant allows it, and "hands":
# the mean hands per match at that target, shown on the pool's card. Both measured
# with the engine's medium bots by ``.venv/bin/python bench/pool_lengths.py``
# (40 matches per pool and target). Block scores only the blocked hands' difference
# (about 26 hands to 100 with two players): its smallest target, 50, takes ~13.
MATCHMAKING_POOLS: list[dict[str, object]] = [
    {"key": "block-2", "variant": "block", "seats": 2, "options": {"target": 50},
     "hands": 13},
    {"key": "draw-2", "variant": "draw", "seats": 2, "options": {"target": 100},
     "hands": 9},
    {"key": "draw-4p", "variant": "draw", "seats": 4, "partnership": True,
     "options": {"target": 100}, "hands": 6},
    {"key": "all_fives-2", "variant": "all_fives", "seats": 2,
     "options": {"target": 150}, "hands": 7},
    {"key": "all_fives-4p", "variant": "all_fives", "seats": 4, "partnership": True,
     "options": {"target": 150}, "hands": 5},
    {"key": "fives-2", "variant": "fives", "seats": 2, "options": {"target": 150},
     "hands": 5},
    {"key": "catalan-4p", "variant": "catalan", "seats": 4, "partnership": True,
     "options": {"target": 100}, "hands": 6},
    {"key": "spider-2", "variant": "spider", "seats": 2, "options": {"target": 100},
     "hands": 8},
]  # fmt: skip
MATCHMAKING_WAVE_SECONDS = env.float("MATCHMAKING_WAVE_SECONDS", default=2.0)
# Tables a wave seats per transaction: it seats every group it matched, batch after
# batch, and a batch holds its players' search rows locked while it runs; on SQLite
# it holds the write lock of the whole database, so every move waits for it there.
# Measured by ``bench/matchmaker.py drain --batch N`` (10,000 players, two and four
# seats; medians, load 2.4-3.9): SQLite, a batch of 50 tables 25-42 ms (100: 69-71,
# 200: 103-209) and the drain 3.8 s; PostgreSQL, 100 tables 44-87 ms and the drain
# 3.0-3.3 s (50: 4.7 s; 200: 3.2 s).
MATCHMAKING_SEAT_BATCH_TABLES = env.int(
    "MATCHMAKING_SEAT_BATCH_TABLES",
    default=50 if DATABASES["default"]["ENGINE"].endswith("sqlite3") else 100,
)
# A wave holds its pool this long past its last seating batch: a wave whose worker
# died frees the pool after it (a batch takes well under a second).
MATCHMAKING_WAVE_LEASE_SECONDS = 30.0
MATCHMAKING_BACKFILL_SECONDS = env.float("MATCHMAKING_BACKFILL_SECONDS", default=15.0)
# A search no lobby socket has held (connect or ping) this long is dropped.
MATCHMAKING_ABANDON_SECONDS = env.float("MATCHMAKING_ABANDON_SECONDS", default=60.0)
# Allowed rating gap in displayed points: at once, per second waited, at most.
MATCHMAKING_RATING_GAP = (100.0, 20.0, 600.0)
MATCHMAKING_CLOCK_SECONDS = 30
# Each pool's turn clocks, chosen on Find and on an open table ("seek"): a time per
# turn plus a bank drawn on once a turn's time runs out. "slow" is the default.
MATCHMAKING_SPEEDS: dict[str, dict[str, int]] = {
    "fast": {"clock_seconds": 10, "bank_seconds": 60},
    "slow": {"clock_seconds": 30, "bank_seconds": 120},
}
MATCHMAKING_HAND_PAUSE_SECONDS = env.int("MATCHMAKING_HAND_PAUSE_SECONDS", default=15)
MATCHMAKING_BOT_SPEED = env.str("MATCHMAKING_BOT_SPEED", default="normal")
MATCHMAKING_PROVISIONAL_TABLES = 10
MATCHMAKING_PROVISIONAL_SIGMA = 6.5
# Leavers: the first offence warns; then 5 min, x3 per further offence in 24 h.
MATCHMAKING_CLOCK_RUNOUTS = 2
MATCHMAKING_COOLDOWN_MINUTES = 5
MATCHMAKING_COOLDOWN_FACTOR = 3
MATCHMAKING_COOLDOWN_MAX_MINUTES = 24 * 60
MATCHMAKING_COOLDOWN_WINDOW_HOURS = 24

# --- Arenas (tournaments.arenas; docs/tournaments.md). Times are UTC. "hourly"
# entries start at ``minute`` past every hour, "daily" ones at ``hour``:``minute``.
TOURNAMENTS_ARENA_SCHEDULE: list[dict[str, object]] = [
    {"pool": "draw-2", "every": "hourly", "minute": 0, "minutes": 45},
    {"pool": "block-2", "every": "hourly", "minute": 30, "minutes": 45},
    {"pool": "all_fives-2", "every": "daily", "hour": 18, "minute": 0, "minutes": 60},
    {"pool": "fives-2", "every": "daily", "hour": 19, "minute": 0, "minutes": 60},
    {"pool": "spider-2", "every": "daily", "hour": 20, "minute": 0, "minutes": 60},
    {"pool": "draw-4p", "every": "daily", "hour": 20, "minute": 30, "minutes": 90},
    {"pool": "all_fives-4p", "every": "daily", "hour": 21, "minute": 0, "minutes": 90},
    {"pool": "catalan-4p", "every": "daily", "hour": 21, "minute": 30, "minutes": 90},
]  # fmt: skip
TOURNAMENTS_ARENA_AHEAD_HOURS = env.int("TOURNAMENTS_ARENA_AHEAD_HOURS", default=24)
# Games between the same two accounts in one arena, at most.
TOURNAMENTS_ARENA_PAIR_CAP = 3
# Standings are pushed to an arena's sockets at most once per this many seconds.
TOURNAMENTS_ARENA_STANDINGS_SECONDS = 2.0
# Prizes by final rank: (coins, XP) for rank 1, 2, ...; boosters and VIP multiply them.
TOURNAMENTS_ARENA_PRIZES: list[tuple[int, int]] = [
    (1000, 300), (600, 200), (400, 150), (250, 100), (250, 100),
    (150, 60), (150, 60), (150, 60), (150, 60), (150, 60),
]  # fmt: skip
# An arena whose clock ended still waits for its games in progress, this long at most.
TOURNAMENTS_ARENA_GRACE_MINUTES = 120
# Earning needs playing (RULES.md §5; docs/tournaments.md, "Rewards"): only players
# with an earning game in the arena are ranked for a prize; none is paid unless at
# least this many such players are in the field.
TOURNAMENTS_ARENA_MIN_FIELD = 4
# A team battle's club prize (coins, XP) to each counted player of the winning club
# with an earning game (tournaments/arenas/battles.py), boosted like any prize.
TOURNAMENTS_BATTLE_CLUB_PRIZE = (300, 100)
# All the prizes of one arena together are at most this (coins, XP) per earning game
# played in it (each player's own earning games, summed); the table above is cut
# down in proportion when it asks for more. 20 coins keeps arena prizes inside
# docs/economy.md's range per active player-hour (`.venv/bin/python bench/economy.py`).
TOURNAMENTS_ARENA_PRIZE_PER_GAME: tuple[int, int] = (20, 8)

# --- timed jobs run by the socket server itself (games.local_ticks)
# A server process (daphne) runs the light timed jobs its own moves queue (an easy
# or medium computer's move, a stand-in's, the next hand, a late first deal) on its
# own loop and threads, without a Celery task: publishing one and a worker taking
# it is about a quarter of the CPU of a move (`bench/ws_load.py --local-ticks both`).
# A hard computer's move (a tenth of a second or more) still goes to a worker. Off:
# every job goes to Celery. Either way a lost job is the overdue sweep's.
GAMES_LOCAL_TICKS = env.bool("GAMES_LOCAL_TICKS", default=True)

# --- TV (games.tv)
# How long a channel's pick of its best live game is kept for the viewers who come
# meanwhile: without it every new viewer (and every viewer whose game ended) ranks
# every live table of the channel. A pick that ended within the time is ranked
# again at once. 0: rank on every request.
TV_PICK_SECONDS = env.float("TV_PICK_SECONDS", default=2.0)

# --- the fair deal (games.fairness, docs/fairness.md)
# RULES.md §1.1: every new table commits to a hash chain and deals its first hand
# once every person seated has sent a client seed, or this many seconds after the
# start. The test suite turns fair deals off for the tests that pin deals by the
# table's integer seed (tests/conftest.py); the tests of fairness turn them on.
GAMES_FAIR_DEALS = True
GAMES_FAIR_SEED_SECONDS = 3.0
# Chains drawn ahead into a reserve (RULES.md §1.1 allows it), taken in one statement
# by the tables a matchmaker wave or an arena's pairing round seats together: enough
# for two rounds of 1,000 arena players. Topped up by this many per run of the task
# below (about 30 ms of hashing), so one run holds SQLite's write lock briefly.
GAMES_CHAIN_RESERVE = env.int("GAMES_CHAIN_RESERVE", default=1000)
GAMES_CHAIN_RESERVE_BATCH = 250
CELERY_BEAT_SCHEDULE["games-chain-reserve"] = {
    "task": "games.chain_reserve_fill",
    "schedule": 10.0,
    "options": {"expires": 10.0},
}
# The bots' queue (api/bot_queue.py): pairs bots and backfills their tables.
CELERY_IMPORTS = ("api.bot_queue",)
CELERY_BEAT_SCHEDULE["api-bot-queue"] = {
    "task": "api.bot_queue.pair",
    "schedule": 2.0,
    "options": {"expires": 2.0},
}

# --- the offline practice game (games.offline_upload)
# The largest finished offline game a player may upload, in bytes of JSON: the
# longest matches measured (Draw on the double-twelve set to 250) are ~40 KB.
GAMES_OFFLINE_UPLOAD_MAX_BYTES = env.int(
    "GAMES_OFFLINE_UPLOAD_MAX_BYTES", default=256 * 1024
)
# Uploads one player may have replayed in an hour (a long match is ~0.15 s of CPU);
# the browser keeps the others and sends them later. 0 lifts the limit.
GAMES_OFFLINE_UPLOADS_PER_HOUR = env.int("GAMES_OFFLINE_UPLOADS_PER_HOUR", default=60)

# --- friend rooms (matchmaking.rooms)
# The table page of a friend room links back to its room (for Rematch) by this URL
# name, taking the table's id: config wires games to the app that owns the rooms.
GAMES_FRIEND_ROOM_URL = "room-of-table"
# What a finished online or stake table offers instead of the practice form: "Find
# another table" (a POST taking the table's id, to the app that seated it) and the
# way back to that app's lobby, by URL name.
GAMES_AGAIN_URLS = {"online": "table-again", "stake": "stake-again"}
GAMES_LOBBY_URLS = {"online": "lobby", "stake": "stakes"}
# A rematch both players accept (a JSON URL taking the table's id): online tables
# only, since a stake table's next table goes through its own books.
GAMES_REMATCH_OFFER_URLS = {"online": "table-rematch-offer"}
# An invitation lapses after this long, or when the room starts.
ROOM_INVITATION_MINUTES = env.int("ROOM_INVITATION_MINUTES", default=15)
# Invitations one person may send in a minute, across rooms.
ROOM_INVITATIONS_PER_MINUTE = env.int("ROOM_INVITATIONS_PER_MINUTE", default=10)
# Friend requests one player may send in 24 hours (answered or not).
FRIEND_REQUESTS_PER_DAY = env.int("FRIEND_REQUESTS_PER_DAY", default=20)

# Clubs (clubs/): how many clubs a player may belong to (their own included), how
# many requests to join they may send in 24 hours, and how many members a club holds
# (its chat reaches every member online, so a club stays a size people know).
CLUBS_PER_PLAYER = env.int("CLUBS_PER_PLAYER", default=10)
CLUB_REQUESTS_PER_DAY = env.int("CLUB_REQUESTS_PER_DAY", default=10)
CLUB_MEMBERS_MAX = env.int("CLUB_MEMBERS_MAX", default=300)

# Stake tables (matchmaking/stakes/, docs/economy.md "Stake tables"): the shapes a
# player can sit at, each with its engine options, and how long a table may wait for
# its last player before it is cancelled and every entry refunded. The stakes are
# the economy's entry fees (ECONOMY_ENTRY_FEES).
STAKE_SHAPES: dict[str, dict[str, object]] = {
    "block-2": {"variant": "block", "seats": 2, "target": 50},  # as its online pool
    "draw-4p": {"variant": "draw", "seats": 4, "partnership": True},
    "all_fives-2": {"variant": "all_fives", "seats": 2},
}
STAKE_FILL_SECONDS = env.int("STAKE_FILL_SECONDS", default=90)
# Stakes are unlocked by play (RULES.md §5): the rated tables (finished online or
# stake tables the player played themselves, with another person) needed before
# sitting at each stake. A stake missing here is open to everyone.
# A JSON object in the environment overrides it ({"100": 3, ...}; {} opens every stake).
STAKES_UNLOCK: dict[int, int] = {
    int(stake): int(needed)
    for stake, needed in env.json(
        "STAKES_UNLOCK", default={100: 3, 250: 10, 500: 20, 1000: 40}
    ).items()
}
# The audit's ``dumping`` part looks at stake tables settled this many days back.
STAKE_DUMPING_AUDIT_DAYS = 7
# Stake sit-and-gos (docs/tournaments.md): every table 4 players of Block.
SITGO_GAME: dict[str, object] = {"variant": "block", "target": 50}
SITGO_FILL_SECONDS = env.int("SITGO_FILL_SECONDS", default=600)
SITGO_NOSHOW_SECONDS = env.int("SITGO_NOSHOW_SECONDS", default=120)

# The open API (api/, docs/api.md): per token, JSON requests and moves at API_RATE a
# second on average with bursts of API_BURST, and at most API_STREAMS open NDJSON
# streams; a player holds at most API_TOKENS_PER_PLAYER live tokens. Streams send an
# empty line every API_KEEPALIVE_SECONDS so that proxies keep them open.
API_RATE = env.float("API_RATE", default=20.0)
API_BURST = env.int("API_BURST", default=40)
API_STREAMS = env.int("API_STREAMS", default=4)
API_TOKENS_PER_PLAYER = 20
API_KEEPALIVE_SECONDS = env.float("API_KEEPALIVE_SECONDS", default=7.0)
