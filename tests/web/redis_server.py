"""A Redis server of a test's own, which the test may freeze (SIGSTOP), thaw or stop.

Never the Redis that CACHE_URL names: a test that freezes the shared one would stall every other
test using it. Skipped without Debian's `redis-server`, except under CI, where it is a failure.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class RedisServer:
    process: subprocess.Popen[bytes]
    port: int

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def freeze(self) -> None:
        """The process stops answering, its socket still open: every call waits its timeout."""
        os.kill(self.process.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        os.kill(self.process.pid, signal.SIGCONT)

    def stop(self) -> None:
        """Gone: every connection is refused at once."""
        self.thaw()
        self.process.terminate()
        self.process.wait(timeout=10)


def start_redis() -> RedisServer:
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is not installed (apt-get install redis-server)")
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2) as connection:
                connection.sendall(b"PING\r\n")
                if connection.recv(16).startswith(b"+PONG"):
                    return RedisServer(process, port)
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("redis-server did not start")


@contextmanager
def redis_server() -> Iterator[RedisServer]:
    server = start_redis()
    try:
        yield server
    finally:
        if server.process.poll() is None:
            server.thaw()
            server.process.kill()
            server.process.wait(timeout=10)
