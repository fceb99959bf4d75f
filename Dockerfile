# La Belle Lucie: gunicorn serving Django, static files compressed and hashed at build time.
#   docker build -t lucie .
#   docker run --rm -v lucie-data:/data lucie python manage.py migrate   # once per release
#   docker run -d -p 127.0.0.1:8000:8000 -v lucie-data:/data -e GUNICORN_BIND=0.0.0.0:8000 \
#       -e SECRET_KEY=... -e ALLOWED_HOSTS=lucie.example -e DJANGO_BEHIND_TLS_PROXY=1 lucie
# then a proxy that buffers requests (Caddy, nginx) on the host sends https://lucie.example to
# 127.0.0.1:8000. Never publish gunicorn's port on a public interface: gunicorn has no timeout on
# reading a request's headers, so a few dozen slow connections sent straight to it hold every
# worker thread and stop the site (docs/operating.md, "Failing well"); the proxy reads each
# request whole before passing it on. compose.yaml runs the image behind Caddy that way.
# docs/operating.md ("Running in production") lists every variable.

# ---------------------------------------------------------------- build: dependencies, static
FROM python:3.11-slim-bookworm AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

WORKDIR /src
# Dependencies first, from pyproject.toml alone, so a code change does not reinstall them. The
# project itself runs from /app (settings find templates/ and static/ beside lucie/), so only its
# dependencies go into the virtualenv.
COPY pyproject.toml ./
RUN python -m venv /venv \
 && python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > requirements.txt \
 && /venv/bin/pip install -r requirements.txt

COPY manage.py gunicorn.conf.py ./
COPY lucie ./lucie
COPY game ./game
COPY templates ./templates
COPY static ./static
# The translations, compiled: the .mo files are committed beside their .po sources.
COPY locale ./locale
# Compressed (gzip) copies and cache-busting hashed names, made once here instead of at start.
# The key and host only let the settings load; nothing is signed or served in this step.
RUN DJANGO_DEBUG=0 SECRET_KEY=collectstatic-only ALLOWED_HOSTS=build.invalid \
    DJANGO_STATIC_ROOT=/src/staticfiles \
    /venv/bin/python manage.py collectstatic --noinput --verbosity 0

# ---------------------------------------------------------------- run
# Debian 12 (bookworm), as the machines the tests run on, whose postgresql-client-15 matches the
# PostgreSQL 15 that compose.yaml runs: `manage.py backup` calls its pg_dump, and a restore its
# pg_restore (docs/operating.md, "Backups").
FROM python:3.11-slim-bookworm

ENV PATH=/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_STATIC_ROOT=/app/staticfiles \
    DATABASE_URL=sqlite:////data/db.sqlite3
# gunicorn listens on the container's loopback (gunicorn.conf.py's default) unless GUNICORN_BIND
# says otherwise, and no port is EXPOSEd (so `docker run -P` publishes nothing): reaching it from
# outside the container is a choice made with a proxy in front, as above.

# The version comes with the package's name (15); Debian's security updates bring the rest.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-client-15 \
 && rm -rf /var/lib/apt/lists/*

# /backups: where compose.yaml's nightly backup writes (a volume takes this owner when created).
RUN useradd --system --uid 10001 --user-group --no-create-home --shell /usr/sbin/nologin lucie \
 && mkdir /data /backups \
 && chown lucie:lucie /data /backups

WORKDIR /app
COPY --from=build /venv /venv
COPY --from=build /src /app

# The SQLite database (and its WAL files) live on a volume the app user can write; with
# DATABASE_URL naming PostgreSQL the volume stays empty.
VOLUME ["/data"]
# By number, so a runtime that checks for a non-root user can tell without the image.
USER 10001:10001

# No curl in the slim image: Python's own urllib asks /healthz (200 while the database and the
# cache answer).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"]

CMD ["gunicorn", "-c", "gunicorn.conf.py", "lucie.wsgi"]
