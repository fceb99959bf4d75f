"""Settings come from the environment: production is locked down, typos are refused."""

from __future__ import annotations

import os
import secrets
import subprocess
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connections
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteWrapper
from pytest_django import DjangoDbBlocker

from lucie.env import (
    env_bool,
    env_int,
    env_list,
    env_month,
    env_origins,
    env_redis_url,
    env_str,
)
from lucie.settings import database_config
from tests.helpers import forked

OUR_VARIABLES = (
    "DJANGO_DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DJANGO_STATIC_MANIFEST",
    "DJANGO_SECURE_SSL_REDIRECT",
    "DJANGO_HSTS_SECONDS",
    "DJANGO_BEHIND_TLS_PROXY",
    "LUCIE_SITE_START",
    "DJANGO_LOG_LEVEL",
    "CACHE_URL",
    "METRICS_ALLOW",
    # Set for the browser tests; Django's deploy check rightly objects to it.
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run manage.py in a process of its own (tests/helpers/forked.py) with only `env` set among
    our variables."""
    environ = {k: v for k, v in os.environ.items() if k not in OUR_VARIABLES}
    environ.pop("DJANGO_SETTINGS_MODULE", None)
    environ.update(env)
    return forked.run("manage.py", *args, env=environ)


PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(64),
    "ALLOWED_HOSTS": "example.com",
}


def test_deploy_check_is_clean_with_production_environment() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    ("env", "complaint"),
    [
        ({"DJANGO_DEBUG": "maybe"}, "DJANGO_DEBUG='maybe' is not a boolean"),
        ({**PRODUCTION, "SECRET_KEY": ""}, "SECRET_KEY must be set"),
        ({**PRODUCTION, "ALLOWED_HOSTS": " , "}, "ALLOWED_HOSTS must name"),
        ({"LUCIE_SITE_START": "2026-13"}, "is not a month written YYYY-MM"),
        ({"DATABASE_URL": "nosuchdb://x/y"}, "DATABASE_URL cannot be read"),
        ({"DJANGO_LOG_LEVEL": "loud"}, "DJANGO_LOG_LEVEL='loud' must be one of"),
        ({"CSRF_TRUSTED_ORIGINS": "example.com"}, "needs a scheme"),
        ({"CACHE_URL": "memcached://127.0.0.1:11211"}, "must start with redis://"),
        ({"METRICS_ALLOW": "127.0.0.1,localhost"}, "METRICS_ALLOW entry 'localhost' is not"),
        ({"LUCIE_QUEUE_LEASE_SECONDS": "3"}, "LUCIE_QUEUE_LEASE_SECONDS='3' must be at least 4"),
    ],
)
def test_malformed_environment_is_refused_at_start(env: dict[str, str], complaint: str) -> None:
    result = manage("check", **env)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert complaint in result.stderr


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("TRUE", True),
        (" yes ", True),
        ("on", True),
        ("0", False),
        ("false", False),
        ("No", False),
        ("off", False),
        ("", None),
    ],
)
def test_env_bool_reads_the_usual_spellings(
    monkeypatch: pytest.MonkeyPatch, raw: str, expected: bool | None
) -> None:
    monkeypatch.setenv("LUCIE_TEST_FLAG", raw)

    assert env_bool("LUCIE_TEST_FLAG", default=True) is (True if expected is None else expected)


@pytest.mark.parametrize("raw", ["maybe", "2", "y es", "enabled"])
def test_env_bool_refuses_anything_else(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("LUCIE_TEST_FLAG", raw)

    with pytest.raises(ImproperlyConfigured, match="LUCIE_TEST_FLAG"):
        env_bool("LUCIE_TEST_FLAG", default=False)


def test_env_list_splits_on_commas_and_drops_blanks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUCIE_TEST_LIST", " a.example , ,b.example,")

    assert env_list("LUCIE_TEST_LIST", ["default"]) == ["a.example", "b.example"]


def test_unset_variables_fall_back_to_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LUCIE_TEST_UNSET", raising=False)

    assert env_str("LUCIE_TEST_UNSET", "x") == "x"
    assert env_list("LUCIE_TEST_UNSET", ["x"]) == ["x"]
    assert env_int("LUCIE_TEST_UNSET", 7) == 7
    assert env_month("LUCIE_TEST_UNSET", "2026-11") == "2026-11"
    assert env_redis_url("LUCIE_TEST_UNSET") is None


@pytest.mark.parametrize(
    "raw",
    [
        "redis://127.0.0.1:6379/0",
        "redis://cache",
        "rediss://user:secret@cache.example:6380/2",
        "unix:///run/redis/redis.sock?db=1",
    ],
)
def test_env_redis_url_takes_the_forms_redis_py_reads(
    monkeypatch: pytest.MonkeyPatch, raw: str
) -> None:
    monkeypatch.setenv("LUCIE_TEST_VALUE", raw)

    assert env_redis_url("LUCIE_TEST_VALUE") == raw


def test_the_queue_lease_times_the_renewals_sweeps_pickup_and_stop() -> None:
    show = (
        "from game.ops import keeper, leases; from game.management.commands import work; "
        "print(leases.LEASE_SECONDS, leases.RENEW_SECONDS, keeper.SWEEP_SECONDS, "
        "leases.PICKUP_SECONDS, work.STOP_SECONDS)"
    )
    default = manage("shell", "-c", show)
    short = manage("shell", "-c", show, LUCIE_QUEUE_LEASE_SECONDS="8")

    # The last line: Django's shell may first say what it imported.
    assert default.stdout.splitlines()[-1].split() == ["20", "5.0", "5.0", "15.0", "10.0"]
    assert short.stdout.splitlines()[-1].split() == ["8", "2.0", "2.0", "6.0", "4.0"]


def _cache_settings(**env: str) -> str:
    show = "from django.conf import settings; print(settings.CACHES)"
    result = manage("shell", "-c", show, **env)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_without_cache_url_each_process_keeps_a_memory_cache() -> None:
    assert "LocMemCache" in _cache_settings()


def test_cache_url_selects_djangos_redis_cache_guarded_with_short_timeouts() -> None:
    caches = _cache_settings(CACHE_URL="redis://127.0.0.1:6390/3")

    # lucie.cache.ResilientRedisCache is Django's RedisCache that survives an outage.
    assert "lucie.cache.ResilientRedisCache" in caches
    assert "redis://127.0.0.1:6390/3" in caches
    assert "'socket_timeout': 0.1" in caches
    assert "'socket_connect_timeout': 0.1" in caches


@pytest.mark.parametrize(
    ("reader", "raw"),
    [
        (lambda: env_int("LUCIE_TEST_VALUE", 0), "ten"),
        (lambda: env_int("LUCIE_TEST_VALUE", 0), "-5"),
        (lambda: env_month("LUCIE_TEST_VALUE", "2026-11"), "2026-1"),
        (lambda: env_month("LUCIE_TEST_VALUE", "2026-11"), "2026-00"),
        (lambda: env_origins("LUCIE_TEST_VALUE"), "example.com"),
        (lambda: env_redis_url("LUCIE_TEST_VALUE"), "127.0.0.1:6379"),
        (lambda: env_redis_url("LUCIE_TEST_VALUE"), "http://127.0.0.1:6379/0"),
        (lambda: env_redis_url("LUCIE_TEST_VALUE"), "redis://127.0.0.1:port/0"),
        (lambda: env_redis_url("LUCIE_TEST_VALUE"), "redis://127.0.0.1:99999/0"),
        (lambda: env_redis_url("LUCIE_TEST_VALUE"), "redis://127.0.0.1:0/0"),
        (lambda: env_redis_url("LUCIE_TEST_VALUE"), "redis:///0"),
        (lambda: env_redis_url("LUCIE_TEST_VALUE"), "redis://127.0.0.1:6379/zero"),
        (lambda: env_redis_url("LUCIE_TEST_VALUE"), "unix://"),
    ],
)
def test_readers_refuse_malformed_values(
    monkeypatch: pytest.MonkeyPatch, reader: object, raw: str
) -> None:
    monkeypatch.setenv("LUCIE_TEST_VALUE", raw)

    with pytest.raises(ImproperlyConfigured, match="LUCIE_TEST_VALUE"):
        reader()  # type: ignore[operator]


def test_sqlite_file_database_uses_wal_and_waits_for_the_write_lock(
    tmp_path: Path, django_db_blocker: DjangoDbBlocker
) -> None:
    config = database_config(f"sqlite:///{tmp_path / 'lucie.sqlite3'}")
    wrapper = SQLiteWrapper({**connections["default"].settings_dict, **config}, alias="wal")
    with django_db_blocker.unblock():
        try:
            with wrapper.cursor() as cursor:
                cursor.execute("PRAGMA journal_mode")
                journal = cursor.fetchone()[0]
                cursor.execute("PRAGMA busy_timeout")
                busy_ms = cursor.fetchone()[0]
        finally:
            wrapper.close()

    assert journal == "wal"
    assert busy_ms == 20_000
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def test_postgresql_is_djangos_backend_with_the_socket_first_health_check() -> None:
    config = database_config("postgres://u:p@db:5432/lucie")
    assert config["ENGINE"] == "lucie.postgresql"
    assert config["CONN_HEALTH_CHECKS"] is True
    assert "prepare_threshold" not in config.get("OPTIONS", {})
