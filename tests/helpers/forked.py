"""`python manage.py ...` and `python -c ...` for the tests, each in a process of its own, forked
from one that has already imported Django and the libraries (never the site's settings).

A command a test runs as an operator would (a backup, a restore, a migration of a scratch
database) spent most of its CPU starting: importing Django, huey, redis, psycopg and Jinja took
0.3 of the 0.46 s of CPU a small `manage.py backup` cost, and the backup tests start some sixty.
A process forked from one that holds those modules skips that: 0.14 s. It is still a process of
its own, with exactly the environment and arguments the test gives, in the project's root, its own
standard output and error, its exit code as Python gives it (a SystemExit's code, 1 and the
traceback for an uncaught exception), and its settings read from that environment when Django
sets up, as `python manage.py` does: the server imports nothing that reads the settings or the
environment when imported (prometheus_client does, so it is not among them).

Each pytest process starts its server on first use; a second command asked for while one runs
(from another thread) gets a plain `run_python` (tests/helpers/processes.py), as does a test that
needs an interpreter with nothing imported (tests/engine/test_independence.py).
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from tests.helpers.processes import ROOT, run_python

# Imported once by the server; none of them reads the settings or the environment on import.
PRELOADED = (
    "django.core.management",
    "django.db.models",
    "django.urls",
    "django.http",
    "django.template",
    "django.forms",
    "django.contrib.auth.hashers",
    "huey.api",
    "huey.storage",
    "redis",
    "psycopg",
    "jinja2",
    "game.engine",
)

# The server (started in the project's root, where its children stay): reads one job a line
# (JSON) on its standard input, forks, answers the child's pid, then its exit code, each a line.
# The child leaves the loop and becomes the command.
SERVER = """
import importlib, json, os, runpy, sys
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)

def serve():
    for line in sys.stdin:
        job = json.loads(line)
        pid = os.fork()
        if pid == 0:
            return job
        print(json.dumps({"pid": pid}), flush=True)
        _, status = os.waitpid(pid, 0)
        print(json.dumps({"code": os.waitstatus_to_exitcode(status)}), flush=True)
    return None

job = serve()
if job is not None:
    os.environ.clear()
    os.environ.update(job["env"])
    for fd, path, flags in ((0, os.devnull, os.O_RDONLY),
                            (1, job["out"], os.O_WRONLY), (2, job["err"], os.O_WRONLY)):
        opened = os.open(path, flags)
        os.dup2(opened, fd)
        os.close(opened)
    args = job["args"]
    if args[0] == "-c":
        sys.argv = ["-c", *args[2:]]
        sys.path[0] = ""
        exec(compile(args[1], "<string>", "exec"), {"__name__": "__main__"})
    else:
        sys.argv = list(args)
        sys.path[0] = os.path.dirname(os.path.abspath(args[0]))
        runpy.run_path(args[0], run_name="__main__")
"""


class Server:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.process: subprocess.Popen[bytes] | None = None
        self.read = b""

    def _started(self) -> subprocess.Popen[bytes]:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                [sys.executable, "-c", SERVER, json.dumps(PRELOADED)],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
            self.read = b""
        return self.process

    def _answer(self, process: subprocess.Popen[bytes], until: float | None) -> dict[str, int]:
        """The server's next line, or {} when `until` (monotonic) passes first."""
        assert process.stdout is not None
        while b"\n" not in self.read:
            wait = None if until is None else max(0.0, until - time.monotonic())
            ready, _, _ = select.select([process.stdout], [], [], wait)
            if not ready:
                return {}
            chunk = os.read(process.stdout.fileno(), 4096)
            if not chunk:
                raise RuntimeError("the tests' fork server ended (tests/helpers/forked.py)")
            self.read += chunk
        line, self.read = self.read.split(b"\n", 1)
        answer: dict[str, int] = json.loads(line)
        return answer

    def run(
        self, args: Sequence[str], env: Mapping[str, str], timeout: float
    ) -> subprocess.CompletedProcess[str]:
        with tempfile.TemporaryDirectory(prefix="lucie-forked-") as folder:
            out, err = Path(folder) / "out", Path(folder) / "err"
            out.touch()
            err.touch()
            process = self._started()
            assert process.stdin is not None
            job = {"args": list(args), "env": dict(env), "out": str(out), "err": str(err)}
            process.stdin.write((json.dumps(job) + "\n").encode())
            process.stdin.flush()
            pid = self._answer(process, None)["pid"]
            ended = self._answer(process, time.monotonic() + timeout)
            if not ended:
                os.kill(pid, signal.SIGKILL)
                self._answer(process, None)
                raise subprocess.TimeoutExpired([sys.executable, *args], timeout)
            return subprocess.CompletedProcess(
                [sys.executable, *args], ended["code"], out.read_text(), err.read_text()
            )

    def stop(self) -> None:
        """End the server and wait for it, so that its CPU and its children's count in the
        process that started it (as for any command the tests wait for)."""
        if self.process is not None and self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


_server = Server()
atexit.register(_server.stop)


def run(
    *args: str, env: Mapping[str, str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`python ARGS` (a script and its arguments, or `-c CODE ...`) from the project's root with
    exactly `env`, as tests/helpers/processes.py's `run_python` gives it, forked from the server
    (a plain `run_python` while the server runs another command)."""
    if not _server.lock.acquire(blocking=False):
        return run_python(*args, env=env, timeout=timeout)
    try:
        return _server.run(args, env, timeout)
    finally:
        _server.lock.release()
