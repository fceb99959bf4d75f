"""compose.yaml, read: Docker cannot run here, so each service's image, command, health check and
variables are checked against the Dockerfile, the management commands, the Caddyfile and the
settings the app reads; and the app's environment is put through `manage.py check --deploy`."""

from __future__ import annotations

import json
import os
import re
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from tests.helpers import forked
from tests.web.live_gunicorn import ROOT

COMPOSE = ROOT / "compose.yaml"
CADDYFILE = ROOT / "deploy" / "Caddyfile"
ENV_EXAMPLE = ROOT / "deploy" / "lucie.env.example"
LONG_RUNNING = ("proxy", "app", "work", "db", "cache")
# What docker compose would take from .env for the ${...} in the file.
SAMPLE_ENV = {
    "SITE_ADDRESS": "lucie.example",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "POSTGRES_PASSWORD": "secret",
}
_VARIABLE = re.compile(r"\$\{(\w+)(?::?[-?]([^}]*))?\}")


def interpolate(value: object) -> object:
    """Compose's ${NAME}, ${NAME:-default} and ${NAME:?error}, from SAMPLE_ENV."""
    if isinstance(value, str):
        return _VARIABLE.sub(lambda m: SAMPLE_ENV.get(m[1], m[2] or ""), value)
    if isinstance(value, list):
        return [interpolate(item) for item in value]
    if isinstance(value, dict):
        return {key: interpolate(item) for key, item in value.items()}
    return value


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


@pytest.fixture(scope="module")
def services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = interpolate(compose["services"])  # type: ignore[assignment]
    return found


def variables_read_by_the_app() -> set[str]:
    """Every variable lucie/settings.py (through lucie/env.py) and gunicorn.conf.py read."""
    settings = (ROOT / "lucie" / "settings.py").read_text()
    gunicorn = (ROOT / "gunicorn.conf.py").read_text()
    names = set(re.findall(r'env_\w+\(\s*"([A-Z_]+)"', settings))
    names |= set(re.findall(r'(?:environ\.get|_whole_number)\(\s*"([A-Z_]+)"', gunicorn))
    return names


# ---------------------------------------------------------------- the services


def test_the_services_and_their_images(services: dict[str, dict[str, Any]]) -> None:
    assert set(services) == {"proxy", "app", "migrate", "work", "db", "cache"}
    assert re.fullmatch(r"caddy:2\.\d+", services["proxy"]["image"])
    assert services["db"]["image"] == "postgres:15"  # the version CI tests against
    assert re.fullmatch(r"redis:7\.\d+", services["cache"]["image"])
    for name in ("app", "migrate", "work"):
        assert services[name]["build"] == "."
        assert services[name]["image"] == "lucie:latest"
    assert (ROOT / "Dockerfile").is_file()


def test_two_app_replicas_behind_the_proxy(services: dict[str, dict[str, Any]]) -> None:
    assert services["app"]["deploy"]["replicas"] == 2
    assert "ports" not in services["app"]  # reached through the proxy only
    assert services["proxy"]["ports"] == ["80:80", "443:443"]


def test_only_the_proxy_is_reachable_from_outside(
    compose: dict[str, Any], services: dict[str, dict[str, Any]]
) -> None:
    """gunicorn has no timeout on reading a request's headers, so it is reached only through
    Caddy, which buffers each request (issue 19): no other service publishes or exposes a port,
    and the app is on an internal network of its own with the proxy."""
    for name, service in services.items():
        if name != "proxy":
            assert "ports" not in service, name
            assert "expose" not in service, name
            assert service.get("network_mode") is None, name
    networks = compose["networks"]
    assert networks["backend"]["internal"] is True
    assert "frontend" in networks
    assert not (networks["frontend"] or {}).get("internal")
    assert services["app"]["networks"] == ["backend"]
    assert set(services["proxy"]["networks"]) == {"frontend", "backend"}
    # gunicorn listens on the container's interfaces (the backend network alone), not loopback,
    # or Caddy could not reach it.
    assert services["app"]["environment"]["GUNICORN_BIND"] == "0.0.0.0:8000"


def test_the_app_runs_the_images_own_command(services: dict[str, dict[str, Any]]) -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    cmd = re.search(r"^CMD (\[.*\])$", dockerfile, re.M)
    assert cmd is not None

    assert services["app"]["command"] == json.loads(cmd[1])


def test_one_scheduler_no_sleep_loop_and_no_cron(services: dict[str, dict[str, Any]]) -> None:
    """The periodic work (prune, daily ranks, difficulty, the nightly backup) is the queue's
    periodic tasks (game/schedule.py), run by `manage.py work`: no service loops on `sleep`."""
    for name, service in services.items():
        command = " ".join(service.get("command") or [])
        assert "sleep" not in command, name
        assert "cron" not in command, name
    assert services["work"]["command"] == ["python", "manage.py", "work"]
    assert services["migrate"]["command"] == ["python", "manage.py", "migrate", "--noinput"]
    from game import schedule

    periodic = {task.__name__ for task in schedule.huey._registry._periodic_tasks}
    assert {"prune", "daily_ranks", "nightly_backups", "coming_days"} <= periodic


def test_the_workers_write_the_nightly_backup_onto_its_own_volume(
    compose: dict[str, Any], services: dict[str, dict[str, Any]]
) -> None:
    work = services["work"]
    assert work["environment"]["LUCIE_BACKUP_DIR"] == "/backups"
    assert work["volumes"] == ["backups:/backups"]
    assert "backups" in compose["volumes"]
    # The image makes /backups for its user, so a new volume takes that owner.
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"mkdir /data /backups", dockerfile)


def test_redis_is_a_cache_that_keeps_nothing_on_disk(services: dict[str, dict[str, Any]]) -> None:
    command = services["cache"]["command"]

    assert command[0] == "redis-server"
    assert command[command.index("--save") + 1] == ""
    assert command[command.index("--appendonly") + 1] == "no"
    assert command[command.index("--maxmemory-policy") + 1] == "allkeys-lru"


# ---------------------------------------------------------------- health checks and order


def test_every_long_running_service_has_a_health_check(
    services: dict[str, dict[str, Any]],
) -> None:
    for name in LONG_RUNNING:
        check = services[name]["healthcheck"]
        assert check["test"][0] == "CMD", name
        assert check["retries"] >= 3, name
    assert "http://127.0.0.1:8000/healthz" in " ".join(services["app"]["healthcheck"]["test"])
    assert services["db"]["healthcheck"]["test"][1:] == ["pg_isready", "-U", "lucie", "-d", "lucie"]
    assert services["cache"]["healthcheck"]["test"][1:] == ["redis-cli", "ping"]


def test_the_app_health_check_is_the_images_own(services: dict[str, dict[str, Any]]) -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    image_check = re.search(r"HEALTHCHECK .*?CMD (\[.*?\])\n", dockerfile, re.S)
    assert image_check is not None

    assert services["app"]["healthcheck"]["test"] == ["CMD", *json.loads(image_check[1])]


def test_services_start_in_order(services: dict[str, dict[str, Any]]) -> None:
    def waits(name: str) -> dict[str, str]:
        return {other: rule["condition"] for other, rule in services[name]["depends_on"].items()}

    assert waits("migrate") == {"db": "service_healthy"}
    assert waits("app") == {"migrate": "service_completed_successfully", "cache": "service_healthy"}
    assert waits("work") == waits("app")
    assert services["work"]["command"] == ["python", "manage.py", "work"]
    assert waits("proxy") == {"app": "service_healthy"}


# ---------------------------------------------------------------- variables


def test_the_app_is_given_only_variables_it_reads(services: dict[str, dict[str, Any]]) -> None:
    read = variables_read_by_the_app()
    for name in ("app", "migrate", "work"):
        given = set(services[name]["environment"])
        assert given <= read, f"{name}: {sorted(given - read)} are read by nothing"
    assert {"SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "CACHE_URL"} <= set(
        services["app"]["environment"]
    )


def test_the_operating_doc_lists_every_variable_the_app_reads() -> None:
    readme = (ROOT / "docs" / "operating.md").read_text()

    missing = [
        name for name in sorted(variables_read_by_the_app()) if f"| `{name}` |" not in readme
    ]
    assert missing == []


def test_the_urls_name_the_services(services: dict[str, dict[str, Any]]) -> None:
    environment = services["app"]["environment"]
    database = urlsplit(environment["DATABASE_URL"])
    cache = urlsplit(environment["CACHE_URL"])
    db_env = services["db"]["environment"]

    assert (database.scheme, database.hostname, database.port) == ("postgres", "db", 5432)
    assert database.username == db_env["POSTGRES_USER"]
    assert database.password == db_env["POSTGRES_PASSWORD"]
    assert database.path == "/" + db_env["POSTGRES_DB"]
    assert (cache.scheme, cache.hostname, cache.port) == ("redis", "cache", 6379)


def test_metrics_are_open_to_the_backend_network(
    compose: dict[str, Any], services: dict[str, dict[str, Any]]
) -> None:
    subnet = compose["networks"]["backend"]["ipam"]["config"][0]["subnet"]

    assert subnet in services["app"]["environment"]["METRICS_ALLOW"].split(",")


def test_every_required_variable_is_in_the_example_env_file() -> None:
    required = set(re.findall(r"\$\{(\w+):\?", COMPOSE.read_text()))
    example = {
        line.split("=", 1)[0]
        for line in ENV_EXAMPLE.read_text().splitlines()
        if line and not line.startswith("#")
    }

    assert required == set(SAMPLE_ENV)
    assert required <= example


def test_the_apps_environment_passes_the_deploy_check(
    services: dict[str, dict[str, Any]],
) -> None:
    """Every value is one the settings accept (a malformed one stops the process at start)."""
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in variables_read_by_the_app() and key != "DJANGO_ALLOW_ASYNC_UNSAFE"
    }
    environ.pop("DJANGO_SETTINGS_MODULE", None)
    environ.update({key: str(value) for key, value in services["app"]["environment"].items()})
    result = forked.run("manage.py", "check", "--deploy", "--fail-level", "WARNING", env=environ)

    assert result.returncode == 0, result.stdout + result.stderr


# ---------------------------------------------------------------- the proxy


def test_the_proxy_sends_to_every_app_replica_and_keeps_metrics_inside(
    services: dict[str, dict[str, Any]],
) -> None:
    mounts = [volume.split(":") for volume in services["proxy"]["volumes"]]
    assert ["./deploy/Caddyfile", "/etc/caddy/Caddyfile", "ro"] in mounts
    caddyfile = CADDYFILE.read_text()

    assert re.search(r"dynamic a \{\s*name app\s*port 8000\b", caddyfile)
    assert "lb_policy round_robin" in caddyfile
    assert re.search(r"^\s*respond /metrics 404$", caddyfile, re.M)
    assert caddyfile.splitlines()[2] == "{$SITE_ADDRESS} {"
    assert "SITE_ADDRESS" in services["proxy"]["environment"]


def test_compose_file_paths_exist(services: dict[str, dict[str, Any]]) -> None:
    for service in services.values():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("."):
                assert (ROOT / source).exists(), source
    assert Path(ROOT / "deploy" / "lucie.env.example").is_file()
