"""Settings for the mahjong races site, read from the environment.

With nothing set, the site runs on SQLite and on a Redis that `manage.py serve` starts
(importing the settings starts nothing), so one command brings it up on a fresh machine.
Production sets DATABASE_URL, REDIS_URL, SECRET_KEY, ALLOWED_HOSTS and DEBUG=0 (see
docker-compose.yml and docs/OPERATIONS.md).
"""

import secrets
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.utils.csp import CSP

from infra import embedded_redis, redis_links
from infra.env import env, env_bool, env_int, env_list

BASE_DIR = Path(__file__).resolve().parent.parent
# Runtime files of a local run: the SQLite database, the embedded Redis, the secret key.
VAR_DIR = Path(env("VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DEBUG", False)


def _secret_key() -> str:
    """SECRET_KEY from the environment; a local run keeps a random one in var/."""
    key = env("SECRET_KEY")
    if key:
        return key
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "infra",
    "mahjong.apps.MahjongConfig",
    "pages",
    "accounts",
    "layouts",
    "practice",
    "rooms",
    "arenas",
    "records",
    "replays",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and JSON compressed (static files come compressed from WhiteNoise above and
    # never reach it). Django's GZip pads its output against BREACH (Django 4.2+), and
    # the CSRF token is masked anew on each page.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "accounts.identity.DeviceCookieMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.limits",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
DATABASE_URL = env("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
if DATABASE_URL.startswith("sqlite:"):
    VAR_DIR.mkdir(parents=True, exist_ok=True)
# Connections are kept between socket messages: closing one after each message (Django's
# default) made every move open a new PostgreSQL connection (docs/PERFORMANCE.md). Socket
# actions run on asyncio's default executor (cores + 4 threads per web process), so a web
# process keeps at most that many connections, each checked before reuse.
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 600), conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's statements are bound on the client and never prepared; rooms/core/hot_sql.py
    # asks for its few statements of a pair to be prepared, which psycopg allows only
    # with a threshold set (it never reaches it otherwise). A pooler must keep prepared
    # statements: session mode, or PgBouncer >= 1.21 with max_prepared_statements.
    DATABASES["default"]["OPTIONS"] = {"prepare_threshold": 1_000_000}
    # DB_POOL_SIZE > 0: Django's psycopg pool, at most that many connections per process,
    # instead of one kept per thread. Under ASGI a page's connection belongs to its
    # request, so kept ones pile up until collected (measured: docs/SCALING.md); a pool
    # hands each back. Prepared statements live on the pooled connections.
    if env_int("DB_POOL_SIZE", 0) > 0:
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them instead
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": 2,
            "max_size": env_int("DB_POOL_SIZE", 0),
            # While PostgreSQL is down no connection can be made: a move waits this long
            # for one, then is answered `unavailable` (docs/PROTOCOL.md), well before the
            # page's patience runs out (measured: 10 s left every mover without an answer).
            "timeout": 2,
        }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web server and the worker write at the same time: WAL lets readers go on, and
    # IMMEDIATE transactions wait for the lock instead of failing mid-transaction.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    # A file, not the default in-memory database: the tests' live server and Celery
    # worker threads then lock as the real site does instead of failing at once.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer and task broker ---------------------------------------------
# Unset: the embedded Redis of VAR_DIR, on a Unix socket there. Only named here, never
# started: `manage.py serve` and the test session start it (infra/embedded_redis.py).
REDIS_URL = env("REDIS_URL") or embedded_redis.url(VAR_DIR / "redis")

# The channel layer alone may be sharded over several Redis servers (a comma list, the
# same order on every host): channels-redis hashes each group and channel onto one of
# them. Unset: REDIS_URL's server, which keeps the cache, the broker and the watchers'
# leases in any case (docs/SCALING.md).
CHANNEL_REDIS_URLS = env_list("CHANNEL_REDIS_URLS") or [REDIS_URL]

CHANNEL_LAYERS = {
    "default": {
        # Measured on this machine kind: the pub/sub layer uses about half the CPU of
        # the list-based one and drops no broadcasts (docs/ARCHITECTURE.md §The channel layer).
        # channels-redis's, with its subscribers watched for a silent link
        # (infra/channel_layer.py).
        "BACKEND": "infra.channel_layer.WatchedPubSubChannelLayer",
        "CONFIG": {
            # Timeouts, keepalive and one retry on a dropped link for every shard's
            # connections (infra/redis_links.py, docs/OPERATIONS.md §Redis connections).
            "hosts": [redis_links.layer_host(url) for url in CHANNEL_REDIS_URLS],
            "prefix": env("CHANNEL_PREFIX", "mahjong"),
        },
    },
}

# --- Races ----------------------------------------------------------------------------
RACE_COUNTDOWN_SECONDS = 3  # the 3-2-1 before "go" (tests shorten it)
# After "Another game" is offered, the owner may start without those not yet Ready after
# this long: they sit the race out (rooms/lobby/rematch.py; tests shorten it).
REMATCH_READY_SECONDS = 30
DISCONNECT_GRACE_SECONDS = 30  # away this long, a CPU plays the seat (docs/RULES.md §Leaving)
# Two deliberate taps on two tiles take at least this long: a human's pair sooner than
# this after their previous one is refused `too_fast` (docs/RULES.md §Fair play; tests
# turn it off, and on where they test it).
PAIR_FLOOR_MS = env_int("PAIR_FLOOR_MS", 250)
# A practice win at an inhuman pace (mahjong/race_rules/pace.py) is flagged and kept off every table
# until an admin clears it (docs/RULES.md §Fair play; tests turn it off, and on where
# they test it: their scripted wins play pairs a few ms apart).
PRACTICE_PACE_FLAGS = True
# A practice pair that waited on the page longer than this before it was sent (the
# connection was down: docs/PRACTICE.md §Offline) marks its game "played offline": its
# pace could not be refereed, so the game is on no table.
PRACTICE_OFFLINE_AFTER_MS = 10_000
CPU_DELAY_SCALE = 1.0  # multiplies every CPU thinking time (tests speed CPUs up)
CPU_STALL_SECONDS = 30  # a CPU chain silent this long is restarted by the sweeper
SWEEP_SECONDS = env_int("SWEEP_SECONDS", 2)
# Arenas' pairing pass and clock (arenas/pairing.py) run this often.
ARENA_TICK_SECONDS = env_int("ARENA_TICK_SECONDS", 2)
# Arena creation by players, limited like rooms' (arenas/views.py).
ARENA_CREATE_PER_DEVICE = env_int("ARENA_CREATE_PER_DEVICE", 5)
ARENA_CREATE_PER_ADDRESS = env_int("ARENA_CREATE_PER_ADDRESS", 30)
ARENA_CREATE_WINDOW_SECONDS = 60 * 60
ARENA_CREATE_KEY_PREFIX = "arena-create"
# Threads (and database connections) per web process for the sockets' database work.
SOCKET_DB_THREADS = env_int("SOCKET_DB_THREADS", 6)
# Threads of their own for a running race's pairs, shuffles and give-ups, so sockets
# opening or reading snapshots never queue in front of them (rooms/live/socket_db.py).
# Few threads for the rest: each is one more holder of the interpreter's lock that a
# pair, back from the database, waits behind (docs/PERFORMANCE.md §One arena under load).
SOCKET_PLAY_THREADS = env_int("SOCKET_PLAY_THREADS", 8)
# PostgreSQL connections per web process for the pairs stored from its event loop
# (infra/async_db.py): one statement each, a few ms, so a few carry hundreds a second.
PAIR_DB_CONNECTIONS = env_int("PAIR_DB_CONNECTIONS", 4)
# How long a web process's thread keeps the interpreter lock while others wait for it
# (Python's default is 5 ms): a pair's thread waits for it after each of its queries.
WEB_GIL_SWITCH_MICROSECONDS = env_int("WEB_GIL_SWITCH_MICROSECONDS", 1000)
# A room's live standings go out at most once in this many ms (rooms/live/standings_feed.py).
# Twice a second: at 1,000 players, 250 ms cost 13% more CPU per pair and doubled the
# pairs' ack p99 (docs/PERFORMANCE.md, fifth round); a progress panel does not need more.
STANDINGS_FEED_MS = env_int("STANDINGS_FEED_MS", 500)
# A watching socket's lease (rooms/live/watchers.py): renewed by the page's ping every 15 s,
# so a killed web process's watchers stop counting within it. Longer than the ping.
WATCHER_LEASE_SECONDS = env_int("WATCHER_LEASE_SECONDS", 45)
DEAL_POOL_SIZE = env_int("DEAL_POOL_SIZE", 8)  # ready deals per level and flowers option

# The ranked queue starts a race of at least two this long after its oldest joined.
RANKED_WAIT_SECONDS = env_int("RANKED_WAIT_SECONDS", 20)
# "Race now" (docs/RULES.md §Race now): a quick race starts this long after its first
# player arrived (at once when full); alone then, the player races QUICK_RACE_CPUS CPUs.
QUICK_WAIT_SECONDS = env_int("QUICK_WAIT_SECONDS", 10)
QUICK_RACE_CPUS = 3
# A ranked race's 3-2-1 begins this long after its group forms: the waiting pages' next
# poll and the race page's load come first, so everyone matched sees the whole countdown.
RANKED_GATHER_SECONDS = env_int("RANKED_GATHER_SECONDS", 4)

# Websockets open at once per device and per address (infra/socket_cap.py; 0: no cap).
# An address may be a school or a mobile carrier's NAT, hence the larger number.
SOCKETS_PER_DEVICE = env_int("SOCKETS_PER_DEVICE", 12)
SOCKETS_PER_ADDRESS = env_int("SOCKETS_PER_ADDRESS", 300)

# Room creation per device and per address, counted in the shared cache (rooms/lobby/throttle.py).
# Accounts made and reset mails sent, per address (and per e-mail address) an hour
# (accounts/views.py): a script must not mint rated players, nor fill a stranger's inbox.
SIGN_UPS_PER_ADDRESS = env_int("SIGN_UPS_PER_ADDRESS", 5)
RESET_MAILS_PER_ADDRESS = env_int("RESET_MAILS_PER_ADDRESS", 5)
RESET_MAILS_PER_EMAIL = env_int("RESET_MAILS_PER_EMAIL", 3)
ACCOUNT_LIMITS_WINDOW_SECONDS = 60 * 60
ACCOUNT_LIMITS_KEY_PREFIX = "account-limit"
ROOM_CREATE_PER_DEVICE = env_int("ROOM_CREATE_PER_DEVICE", 10)
ROOM_CREATE_PER_ADDRESS = env_int("ROOM_CREATE_PER_ADDRESS", 60)
ROOM_CREATE_WINDOW_SECONDS = 10 * 60
ROOM_CREATE_KEY_PREFIX = "room-create"

# Shared by every web process, so the login throttle counts across all of them.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "mahjong-cache",
        "OPTIONS": redis_links.sync_options(REDIS_URL),  # docs/OPERATIONS.md §Redis connections
    },
}

# --- Celery (worker and periodic scheduler) -------------------------------------------
CELERY_BROKER_URL = embedded_redis.celery_url(REDIS_URL)
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = 30
CELERY_TASK_TIME_LIMIT = 60
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Longer than any countdown or delay a task is scheduled with, so Redis does not
# redeliver a task that is merely waiting for its time.
# The broker's connections get the same timeouts and keepalive as every Redis link
# (docs/OPERATIONS.md §Redis connections); kombu's own check of its BRPOP connection
# runs every health_check_interval, so a worker on a cut link is back within about
# brpop_timeout (1 s) + 2 × 2 s of the heal.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 2 * 60 * 60,
    **redis_links.timeouts(CELERY_BROKER_URL, redis_links.BROKER_COMMAND_TIMEOUT_SECONDS),
}
# Grading deals takes seconds; it gets its own queue and worker so that CPU steps and
# the sweeper never wait behind it.
# The nightly backup too: a dump of minutes must not hold a CPU step's worker.
CELERY_TASK_ROUTES = {
    "rooms.tasks.refill_pool*": {"queue": "pools"},
    "infra.tasks.backup_database": {"queue": "pools"},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
HEARTBEAT_SECONDS = env_int("HEARTBEAT_SECONDS", 5)
CELERY_BEAT_SCHEDULE = {
    "heartbeat": {"task": "infra.tasks.heartbeat", "schedule": HEARTBEAT_SECONDS},
    "sweep": {"task": "rooms.tasks.sweep", "schedule": SWEEP_SECONDS},
    "refill-deal-pools": {"task": "rooms.tasks.refill_pools", "schedule": 60},
    # Arenas (arenas/tasks.py): their clock and pairing every few seconds, the scheduled
    # ones created ahead of time (idempotent: docs/RULES.md §Arenas).
    "arena-tick": {"task": "arenas.tasks.tick", "schedule": ARENA_TICK_SECONDS},
    "arena-schedules": {"task": "arenas.tasks.create_scheduled", "schedule": 60},
}

# --- Backups (infra/backups.py, docs/OPERATIONS.md §Backups) ---------------------------
# Where backups are written (the compose `backups` volume), how many are kept, and at
# which hours (UTC, a crontab hour field: "3", "*/6", "3,15"; "off": never) the
# scheduler takes one, at 17 minutes past.
BACKUP_DIR = Path(env("BACKUP_DIR", str(VAR_DIR / "backups")))
BACKUP_KEEP = env_int("BACKUP_KEEP", 14)
BACKUP_HOURS = env("BACKUP_HOURS", "3")
if BACKUP_HOURS.lower() != "off":
    CELERY_BEAT_SCHEDULE["backup-database"] = {
        "task": "infra.tasks.backup_database",
        "schedule": crontab(minute=17, hour=BACKUP_HOURS),
    }

# --- Accounts and e-mail --------------------------------------------------------------
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "me"
LOGOUT_REDIRECT_URL = "home"
# Django's validators in the site's words (tú in Spanish): accounts/passwords.py.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"accounts.passwords.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]
# Password-reset mail goes out by SMTP when EMAIL_HOST is set; otherwise (development)
# it is printed on the console. Django 6.1's MAILERS, not the deprecated EMAIL_* settings.
_email_host = env("EMAIL_HOST")
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "mahjong@localhost")
if _email_host and not DEBUG:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": _email_host,
                "port": env_int("EMAIL_PORT", 587),
                "username": env("EMAIL_HOST_USER"),
                "password": env("EMAIL_HOST_PASSWORD"),
                "use_tls": env_bool("EMAIL_USE_TLS", True),
                "timeout": 10,
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}

# --- Static files ---------------------------------------------------------------------
STATIC_URL = "/static/"
# Where collectstatic writes and the web processes read (bench/scale gives each topology
# its own, docs/SCALING.md).
STATIC_ROOT = Path(env("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "infra.static_storage.ModuleManifestStorage"},
}
# Serve straight from the apps when collectstatic has not run (tests, a first start),
# and fall back to unhashed names instead of failing.
WHITENOISE_USE_FINDERS = True
WHITENOISE_MANIFEST_STRICT = False

# --- Internationalisation -------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- Security -------------------------------------------------------------------------
SECURE_COOKIES = env_bool("SECURE_COOKIES", not DEBUG)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", False)
if BEHIND_TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Cookies only over HTTPS means the site is HTTPS only: browsers are told so for a year
# (sent on HTTPS responses only), and plain HTTP through the proxy is redirected, except
# the health check a load balancer may call in plain HTTP.
SECURE_HSTS_SECONDS = env_int("HSTS_SECONDS", 365 * 24 * 60 * 60 if SECURE_COOKIES else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", False)
SECURE_SSL_REDIRECT = env_bool("SSL_REDIRECT", SECURE_COOKIES and BEHIND_TLS_PROXY)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^livez$"]
# Every script, style, image and socket comes from this site; no inline script runs
# (the pages carry their data as json_script blocks, which are not executed).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],  # CSP level 3: 'self' covers ws(s):// to this host
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    # The service worker (/sw.js) and the web app manifest come from this site too
    # (docs/ARCHITECTURE.md §Installable and offline).
    "worker-src": [CSP.SELF],
    "manifest-src": [CSP.SELF],
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOG_LEVEL = env("LOG_LEVEL", "INFO").upper()
# Celery's own line for every task (the worker's "received" and "succeeded", beat's
# "Sending due task") would come every 2 s from the sweeper and the heartbeat alone and
# scroll everything else away: shown only at LOG_LEVEL=DEBUG. Tasks log at INFO themselves
# when they act (rooms/tasks.py); failures are logged at ERROR and always show.
# (Not named CELERY_*: Celery would read it as one of its settings.)
TASK_CHATTER_LOGGERS = ("celery.app.trace", "celery.worker.strategy", "celery.beat")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Django's default console handler (DEBUG only) would print its lines a second
        # time; they reach the root handler above. (ADMINS is empty: no error mail to keep.)
        "django": {"handlers": []},
        **{
            name: {"level": "DEBUG" if LOG_LEVEL == "DEBUG" else "WARNING"}
            for name in TASK_CHATTER_LOGGERS
        },
    },
}
