# Everyday commands. `make run` and `make test` set up .venv on first use.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: help install run test check lint format bench-load bench-scale

help:
	@echo "make run      set up .venv if needed, migrate, serve on http://127.0.0.1:8000/ with the queue's workers"
	@echo "make test     the whole test suite (SQLite; PostgreSQL when DATABASE_URL is set)"
	@echo "make check    the quick lane: lint, then the tests a change most likely breaks (under a minute)"
	@echo "make lint     ruff, and mypy (strict for game/engine)"
	@echo "make format   ruff format"
	@echo "make bench-load  gunicorn under wrk: move vs bare view, long games, bytes (needs wrk)"
	@echo "make bench-scale two gunicorn servers vs one on DATABASE_URL (PostgreSQL) and CACHE_URL (Redis)"

$(PY):
	"$$(scripts/find-python)" -m venv $(VENV)

# Reinstall only when pyproject.toml changed since the last install.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

install: $(STAMP)

# The queue's workers (reviews, daily difficulty, Show a win searched on, the nightly prune) run
# beside the server, on a SQLite queue next to the database, and stop with it.
run: $(STAMP)
	$(PY) manage.py migrate
	$(PY) manage.py work & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
	$(PY) manage.py runserver 127.0.0.1:8000

# Three pytest-xdist workers (each with a database of its own) on two cores: many tests wait on a
# server, a subprocess or a socket, and a third worker fills those waits (the tests without a
# browser took 245 s at three against about 345 s at two: docs/testing.md). A worker that runs
# out of tests takes some of another's. `make test PYTEST_WORKERS=` runs in one process.
PYTEST_WORKERS ?= -n 3 --dist worksteal

# Python keeps each module's compiled bytecode unless PYTHONDONTWRITEBYTECODE says not to, and
# some machines set it (this project's development machine does). Then every pytest process
# rewrites and compiles every test module again, and every server or command a test starts
# compiles whatever has no cache yet: collecting the suite cost 5.0 s of CPU per process against
# 2.4 s with the caches (docs/testing.md). The caches are git-ignored.
unexport PYTHONDONTWRITEBYTECODE

test: $(STAMP)
	$(PY) -m pytest $(PYTEST_WORKERS) $(PYTEST_ARGS)

# The quick lane: lint, then the engine's and the board's tests and those of each folder the change
# touched (scripts/touched_tests.py reads git), none of them slow or in a browser.
check: lint
	$(PY) -m pytest -q -n 2 -m "not slow and not browser" $$($(PY) scripts/touched_tests.py)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy lucie game

format: $(STAMP)
	$(VENV)/bin/ruff format .

# Not part of CI: needs `apt-get install -y wrk` and a quiet machine (see docs/benchmarks.md).
bench-load: $(STAMP)
	$(PY) bench/load.py

# Not part of CI: needs wrk, and DATABASE_URL (PostgreSQL) and CACHE_URL (Redis) in the environment.
bench-scale: $(STAMP)
	$(PY) bench/scale.py
