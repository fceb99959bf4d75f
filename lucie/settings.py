"""Settings for La Belle Lucie, all read from the environment.

Development needs nothing set: with no SECRET_KEY in the environment, DEBUG is on, a throwaway
key is used and the database is db.sqlite3 in the repository. A deployment sets SECRET_KEY
(which turns DEBUG off unless DJANGO_DEBUG says otherwise) and ALLOWED_HOSTS.
docs/operating.md lists every variable read here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from lucie.env import (
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_month,
    env_networks,
    env_origins,
    env_redis_url,
    env_str,
)

BASE_DIR = Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------- core

# A missing SECRET_KEY means a developer's checkout, so DEBUG defaults on there.
_SECRET_KEY_GIVEN = env_str("SECRET_KEY", "") != ""
DEBUG = env_bool("DJANGO_DEBUG", default=not _SECRET_KEY_GIVEN)

if _SECRET_KEY_GIVEN:
    SECRET_KEY = env_str("SECRET_KEY", "")
elif DEBUG:
    SECRET_KEY = "django-insecure-dev-only-never-use-this-key-in-production"
else:
    raise ImproperlyConfigured("SECRET_KEY must be set when DJANGO_DEBUG is off.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must name this site's host when DJANGO_DEBUG is off.")
CSRF_TRUSTED_ORIGINS = env_origins("CSRF_TRUSTED_ORIGINS")
# No script reads the csrftoken cookie: htmx and the timer's beacon take the token from the
# hx-headers on <body>, so a script injected into a page could not read it from the cookie.
CSRF_COOKIE_HTTPONLY = True

# First month that the daily page's calendar offers.
SITE_START_MONTH = env_month("LUCIE_SITE_START", "2026-11")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "csp",
    "lucie.apps.LucieConfig",
    "game.apps.GameConfig",
]

MIDDLEWARE = [
    # First, so that it times everything below: one log line and the metrics of each request.
    "lucie.middleware.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Above CommonMiddleware: a load balancer probes by IP address, not by a host name (and so
    # does Prometheus, for /metrics).
    "lucie.middleware.HealthCheckMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Compresses what the views and the middleware below produce: a board fragment shrinks from
    # about 21 kB to 2.5 kB. Django pads the gzip output at random against BREACH and masks the
    # CSRF token per response. Below WhiteNoise, which serves its own precompressed files (and
    # would otherwise see a tiny script gzipped into something larger).
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Inside the session middleware, so that a renewal it asks for is saved on the way out.
    "lucie.middleware.SessionRenewalMiddleware",
    # The language of a page is the language of its URL (lucie/languages.py).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # Turns a rate limit or a busy refusal that no view showed on its board into a short page.
    "game.ops.refusal_pages.LimitsMiddleware",
]

ROOT_URLCONF = "lucie.urls"
WSGI_APPLICATION = "lucie.wsgi.application"
# In front of Django's handler (lucie/wsgi.py): a request already past a rate limit is answered
# with a kept page before the middleware, the session and the database (game/ops/early_refusal.py).
WSGI_FRONT = "game.ops.early_refusal.EarlyRefusal"

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
                "game.play.prefs.context",
                "game.install.views.context",
                "lucie.languages.context",
            ],
        },
    },
    # The board alone (game/jinja.py says why): its templates are game/jinja2/board/*.jinja.
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "APP_DIRS": True,
        "OPTIONS": {"environment": "game.jinja.environment"},
    },
]

# ---------------------------------------------------------------- database


def database_config(url: str) -> dict[str, Any]:
    try:
        config: dict[str, Any] = dict(dj_database_url.parse(url, conn_health_checks=True))
    except ValueError as error:
        raise ImproperlyConfigured(f"DATABASE_URL cannot be read: {error}") from None
    if config["ENGINE"] == "django.db.backends.postgresql":
        # Django's, with a health check that asks the socket before it asks the server
        # (lucie/postgresql/base.py).
        config["ENGINE"] = "lucie.postgresql"
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # IMMEDIATE takes the write lock when a transaction opens, so two writers queue on the
        # busy timeout instead of failing mid-transaction.
        config["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA synchronous=NORMAL",
        }
    # Keep each worker thread's connection between requests: opening one per request cost a move
    # ~10 ms of its ~13 ms on SQLite (bench/load.py), and a TCP connect and login on PostgreSQL.
    # conn_health_checks above replaces a connection that has gone bad.
    config["CONN_MAX_AGE"] = 60
    return config


DATABASES = {
    "default": database_config(env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"))
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's cached_db sessions, whose key is checked before it is trusted (see lucie/sessions.py).
SESSION_ENGINE = "lucie.sessions"
# A player is remembered this long after their last visit, each visit renewing it (once a day at
# most: lucie.middleware.SessionRenewalMiddleware). 400 days, the longest Chromium keeps a
# cookie: a regular keeps a streak.
SESSION_COOKIE_AGE = 400 * 86400

# ---------------------------------------------------------------- cache

# What every app server must agree on (daily figures, the solver's answers, rate limits) goes
# through this cache, so several servers need a shared one: Redis, named by CACHE_URL. Unset, each
# process keeps its own (docs/scaling.md lists what that costs with more processes).


def cache_config(url: str | None) -> dict[str, Any]:
    """The default cache: this process's memory, or the Redis `url` names."""
    if url is None:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    return {
        # Django's RedisCache that answers from this process's memory while Redis fails, so a
        # Redis outage is never a 500 (lucie/cache.py); /healthz still names the cache.
        "BACKEND": "lucie.cache.ResilientRedisCache",
        "LOCATION": url,
        # Several sites may share one Redis: keep ours apart.
        "KEY_PREFIX": "lucie",
        # A Redis that stops answering costs a call 100 ms, not a worker thread.
        "OPTIONS": {"socket_connect_timeout": 0.1, "socket_timeout": 0.1},
    }


def session_cache_config(url: str | None) -> dict[str, Any]:
    """Where sessions are cached (Django's cached_db sessions: lucie/sessions.py): the shared
    Redis, or nowhere. A session cached in one process's memory would go stale in the others
    (gunicorn runs several workers), so without CACHE_URL sessions are read from the database."""
    if url is None:
        return {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    return cache_config(url)


_CACHE_URL = env_redis_url("CACHE_URL")
CACHES: dict[str, dict[str, Any]] = {
    "default": cache_config(_CACHE_URL),
    "sessions": session_cache_config(_CACHE_URL),
}
SESSION_CACHE_ALIAS = "sessions"

# ---------------------------------------------------------------- i18n

# English at /, French and German under /fr/ and /de/ (lucie/languages.py). Each language is
# named in itself, as the footer's menu shows it.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language menu's choice, and the first visit's redirect from / (lucie/languages.py).
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SECURE = not DEBUG
# No script reads it (the language menu is a form): every cookie the site sets is HttpOnly.
LANGUAGE_COOKIE_HTTPONLY = True
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# ---------------------------------------------------------------- static files

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("DJANGO_STATIC_ROOT", str(BASE_DIR / "staticfiles")))

# Hashed names need `collectstatic` first, so they are only the default when
# DEBUG is off; tests switch them off (see tests/conftest.py).
_STATIC_MANIFEST = env_bool("DJANGO_STATIC_MANIFEST", default=not DEBUG)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "lucie.storage.ManifestStaticFilesStorage"
            if _STATIC_MANIFEST
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# ---------------------------------------------------------------- security

X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "object-src": ["'none'"],
        # Said outright although default-src covers them: the service worker (/sw.js) and the
        # web app manifest come from this site and nowhere else.
        "worker-src": ["'self'"],
        "manifest-src": ["'self'"],
    },
}

if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    # A load balancer's plain-HTTP health probe must not be redirected.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", default=31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    if env_bool("DJANGO_BEHIND_TLS_PROXY", default=False):
        # Only safe when the proxy overwrites this header on every request.
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# ---------------------------------------------------------------- limits (game/ops/limits.py)

# The admin is not served unless an operator turns it on (its login is then rate-limited).
ADMIN_ENABLED = env_bool("LUCIE_ADMIN", default=False)

# Rate limits count in Django's cache, so servers sharing a cache share the counts.
RATELIMIT_ENABLE = env_bool("LUCIE_RATE_LIMITS", default=True)
RATELIMIT_USE_CACHE = "default"
# The header a proxy in front names the client in (e.g. X-Forwarded-For); empty: the connection's
# address (REMOTE_ADDR). Only set it behind a proxy that always writes it.
CLIENT_ADDRESS_HEADER = env_str("LUCIE_CLIENT_ADDRESS_HEADER", "")
RATELIMIT_IP_META_KEY = "game.ops.limits.client_address"
# Hint and solver searches that may run at once in one process; more get "busy, try again".
COMPUTE_SLOTS = env_int("LUCIE_COMPUTE_SLOTS", default=1, minimum=1)
# The searches run in processes of each worker's own (game/ops/searches.py), at this niceness (0 to
# 19: above 0 they leave the CPU to the processes serving pages first).
COMPUTE_PROCESSES = env_bool("LUCIE_COMPUTE_PROCESSES", default=True)
COMPUTE_NICENESS = env_int("LUCIE_COMPUTE_NICENESS", default=10, minimum=0)

# ------------------------------------------------------------ the task queue (game/ops/queue.py)

# Searches no request waits on (a review, a day's difficulty, a Show a win past a request's
# budget, the nightly prune) are jobs that workers take (`manage.py work`). On one machine the
# queue is a SQLite file beside the database (or LUCIE_QUEUE_PATH); with QUEUE_URL it is that
# Redis, which workers on other machines share.
QUEUE_URL = env_redis_url("QUEUE_URL")
# The queue's name in that Redis (or file): sites sharing one Redis need names of their own.
QUEUE_NAME = env_str("LUCIE_QUEUE_NAME", "lucie")
_database_file = str(DATABASES["default"]["NAME"])
QUEUE_PATH = env_str(
    "LUCIE_QUEUE_PATH",
    str(Path(_database_file).with_suffix(".queue.sqlite3"))
    if DATABASES["default"]["ENGINE"].endswith("sqlite3")
    else str(BASE_DIR / "queue.sqlite3"),
)
# Worker processes `manage.py work` runs, each at this niceness (0 to 19), so that the processes
# serving pages go first on a shared machine.
QUEUE_WORKERS = env_int("LUCIE_QUEUE_WORKERS", default=1, minimum=1)
QUEUE_NICENESS = env_int("LUCIE_QUEUE_NICENESS", default=10, minimum=0)
# A running job's lease (game/ops/leases.py): a worker killed or frozen loses its job after this
# long. Its renewals and the keeper's sweeps come every quarter of it, a job asked for is expected
# on a worker within three quarters, and a stopping `manage.py work` kills what has not ended
# within half. Shorter hands a dead worker's job on sooner, for more writes to the job's row.
QUEUE_LEASE_SECONDS = env_int("LUCIE_QUEUE_LEASE_SECONDS", default=20, minimum=4)
# A job's budget, in seconds of CPU (not of the wall clock: a loaded machine slows a job down but
# never makes it give up sooner). A review's solves each get REVIEW_SOLVE_CPU_SECONDS.
REVIEW_CPU_SECONDS = env_int("LUCIE_REVIEW_CPU_SECONDS", default=120, minimum=1)
REVIEW_SOLVE_CPU_SECONDS = env_int("LUCIE_REVIEW_SOLVE_CPU_SECONDS", default=30, minimum=1)
# A Show a win that a request's search (2 s) could not decide is searched again by a job, with
# this many seconds of CPU (game/board/show_a_win_job.py).
SHOW_A_WIN_CPU_SECONDS = env_int("LUCIE_SHOW_A_WIN_CPU_SECONDS", default=60, minimum=1)
# A queue Redis that stops answering costs a call this long (seconds), then is skipped a while.
QUEUE_TIMEOUT = 0.1
# Jobs open at once (waiting or running) per kind (game/ops/asking.py): past it the page says the
# queue is full, in the player's words. A flood of one kind never refuses another kind.
QUEUE_CAPS = {
    "review": env_int("LUCIE_REVIEW_QUEUE_CAP", default=20, minimum=1),
    # Positions a request cannot decide are rare; a script that finds many from many addresses
    # fills the queue no further than this (the board then says it cannot look further now).
    "show_a_win": env_int("LUCIE_SHOW_A_WIN_QUEUE_CAP", default=20, minimum=1),
    "difficulty": env_int("LUCIE_DIFFICULTY_QUEUE_CAP", default=10, minimum=1),
    "nightly": 10,
}
# The nightly backup (game/schedule.py): written into this folder, verified, and kept
# BACKUP_KEEP_DAYS days; unset, no nightly backup is made (`manage.py backup` still works).
BACKUP_DIR = env_str("LUCIE_BACKUP_DIR", "")
BACKUP_KEEP_DAYS = env_int("LUCIE_BACKUP_KEEP_DAYS", default=14, minimum=1)

# ---------------------------------------------------------------- metrics (lucie/metrics.py)

# The app's checks that /healthz runs beside the database's and the cache's, and the figures
# /metrics reads at each scrape, by dotted path (lucie imports nothing from game).
HEALTH_CHECKS = {"queue": "game.ops.watch.health"}
METRICS_COLLECTORS = ["game.ops.watch.QueueCollector"]

# Who may read /metrics: the connection's address must be in one of these networks. Prometheus
# scrapes each app server directly; the proxy in front does not pass /metrics on.
METRICS_ALLOW = env_networks("METRICS_ALLOW", ["127.0.0.0/8", "::1"])

# ---------------------------------------------------------------- logging

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    # Every line passes the secrets' mask: Django's own 4xx lines (django.request) and
    # django.security's carry the path as asked, tokens and all (lucie/logmask.py).
    "filters": {"secrets": {"()": "lucie.logmask.MaskSecrets"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["secrets"]},
    },
    "root": {
        "handlers": ["console"],
        "level": env_choice("DJANGO_LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR")),
    },
}
