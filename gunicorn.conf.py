"""gunicorn settings for La Belle Lucie.

Start with `gunicorn -c gunicorn.conf.py lucie.wsgi` from the repository root (gunicorn also reads
this file by itself when started there). Options given on the command line win over this file.
Each value below can be changed from the environment; docs/operating.md ("Running in
production") lists the variables.
"""

from __future__ import annotations

import gc
import os
import shutil
import tempfile
from typing import Any


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
# gunicorn's threaded worker, which holds back a connection just refused by a rate limit before
# reading its next request (lucie/gunicorn_worker.py; the mark is read by post_request below).
worker_class = "lucie.gunicorn_worker.HoldingThreadWorker"
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

# Logs to stdout/stderr for the container runtime or systemd to collect. Django writes one line per
# request with its duration and the view that answered (lucie.middleware.RequestLogMiddleware), so
# gunicorn's own access log is off unless GUNICORN_ACCESS_LOG=1 asks for it as well.
_access_log = os.environ.get("GUNICORN_ACCESS_LOG", "").strip().lower() in {
    "1",
    "true",
    "yes",
    "on",
}
accesslog = "-" if _access_log else None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
access_log_format = '%(h)s %(t)s "%(r)s" %(s)s %(B)s "%(a)s" %(D)sus'
# Its atoms masked (the request line may hold an embed game's or a challenge's token, or a code):
# lucie/gunicorn_logging.py.
logger_class = "lucie.gunicorn_logging.MaskedLogger"

# Prometheus metrics from several worker processes: each writes its figures to files in one folder
# and /metrics adds them up (lucie/metrics.py). The folder must be named before the app is loaded
# (preload_app, above), so it is set here: PROMETHEUS_MULTIPROC_DIR if the operator names one,
# else a fresh folder in memory. It is emptied when gunicorn starts, so counts start from zero
# with each start, as Prometheus expects of a restarted target.
_metrics_dir = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "").strip()
_metrics_dir_ours = not _metrics_dir
if _metrics_dir_ours:
    _metrics_dir = tempfile.mkdtemp(
        prefix="lucie-metrics-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None
    )
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = _metrics_dir


def on_starting(server: Any) -> None:
    os.makedirs(_metrics_dir, exist_ok=True)
    for entry in os.scandir(_metrics_dir):
        if entry.is_file() and entry.name.endswith(".db"):
            os.unlink(entry.path)


def when_ready(server: Any) -> None:
    # The app is loaded in this master (preload_app): do its one-time work here, once, so that
    # every worker forked from it starts warm (game/warm.py). A failure only costs that.
    if not server.cfg.preload_app:
        return
    try:
        from game.warm import warm

        warm()
    except Exception:
        server.log.exception("could not warm the app before starting its workers")
    # What the master holds now is kept for the life of every worker: moved out of the garbage
    # collector's reach, so that no worker's collection (the last one, at its exit, included)
    # walks it and copies every page it shares with the master. A worker's exit took some 0.4 s
    # of CPU without this and 0.1 s with it; stopping gunicorn on this 2-core machine, 5 to 10 s
    # under load.
    gc.freeze()


def post_worker_init(worker: Any) -> None:
    # Each worker starts its first compute process as it starts (game/ops/searches.py), not on
    # its first search. A failure only costs that: it starts on the first search instead.
    try:
        from game.ops import searches

        searches.start_computing()
    except Exception:
        worker.log.exception("could not start the worker's compute process")


def post_request(worker: Any, req: Any, environ: dict[str, Any], resp: Any) -> None:
    # A request the early refusal answered: its connection waits before its next request is read.
    from game.ops.early_refusal import HOLD_KEY

    hold = getattr(worker, "hold", None)  # absent when another worker class is asked for
    if hold is not None and environ.get(HOLD_KEY):
        hold(environ["gunicorn.socket"])


def child_exit(server: Any, worker: Any) -> None:
    # A worker that died or was replaced keeps its counts (they are totals); only figures that
    # describe live processes would be dropped here.
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server: Any) -> None:
    if _metrics_dir_ours:
        shutil.rmtree(_metrics_dir, ignore_errors=True)
