"""gunicorn settings for La Belle Lucie.

Start with `gunicorn -c gunicorn.conf.py lucie.wsgi` from the repository root (gunicorn also reads
this file by itself when started there). Options given on the command line win over this file.
Each value below can be changed from the environment; README.md ("Running in production") lists
the variables.
"""

from __future__ import annotations

import os


def _whole_number(name: str, default: int, minimum: int = 1) -> int:
    """An environment variable read as a whole number; a typo stops the start, never guessed at."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        number = int(text)
    except ValueError:
        raise SystemExit(f"{name}={text!r} is not a whole number.") from None
    if number < minimum:
        raise SystemExit(f"{name}={text!r} must be at least {minimum}.")
    return number


def _cores() -> int:
    # The cores this process may run on: a container limited by cpuset sees its own share.
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


# Loopback by default: a host exposes the port through a proxy. The Docker image binds 0.0.0.0.
bind = [os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")]

# A request spends much of its time waiting on the database, so run more processes than cores
# (the usual 2 x cores + 1), each with a few threads so a slow client or a browser that opens
# several connections at once does not hold a whole process. Capped so a big host does not start
# dozens of ~60 MB processes against one SQLite file.
workers = _whole_number("WEB_CONCURRENCY", min(2 * _cores() + 1, 12))
worker_class = "gthread"
threads = _whole_number("GUNICORN_THREADS", 2)

# A request that has not answered in 30 s is stuck: the master kills the worker and starts another.
timeout = _whole_number("GUNICORN_TIMEOUT", 30)
graceful_timeout = 20
# Behind a proxy that keeps connections open, idle keep-alive connections are cheap with gthread.
keepalive = 5

# Load Django once in the master, then fork: workers start (and restart after a crash) at once.
# Nothing opens a database connection while the app loads, so no connection is shared by forks.
preload_app = True

# The workers' heartbeat files go to memory where there is /dev/shm (in Docker, /tmp is disk).
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"

# gunicorn 27 otherwise opens a control socket under ~/.gunicorn, which a container's non-root
# user may not be able to create and which nothing here uses.
control_socket_disable = True

# Logs to stdout/stderr for the container runtime or systemd to collect. The access log ends with
# the time the request took, in microseconds.
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
access_log_format = '%(h)s %(t)s "%(r)s" %(s)s %(B)s "%(a)s" %(D)sus'
