# Developer commands. GNU make; every recipe line fails the target on error.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Every package with its version and hashes (pip-compile, `make lock`): a new release of
# anything, ruff and mypy included, changes nothing until the lock is regenerated.
LOCK := requirements/dev.lock

.DEFAULT_GOAL := help
.PHONY: help install lock browser-deps gnubg run superuser worker check test bench bench-openspiel bench-web \
	bench-cold bench-verify engine-compiled engine-pure test-compiled messages clean

help:
	@echo "make install          create $(VENV) and install the project with its dev tools from $(LOCK)"
	@echo "make lock             regenerate requirements/*.lock from pyproject.toml (UPGRADE=1: newest releases)"
	@echo "make browser-deps     install Debian's chromium for the browser tests (as root)"
	@echo "make run              migrate, load the demo (manage.py load_demo), serve on 127.0.0.1:8000"
	@echo "make superuser        create an admin account on the development database"
	@echo "make worker           the background jobs' worker (Celery's with CELERY_BROKER_URL, else manage.py run_jobs)"
	@echo "make check            the everyday check: ruff, mypy, migrations, every test but browser and gnubg"
	@echo "make test             the whole suite: make check's, browser and gnubg tests (and SQLite too if DATABASE_URL is set)"
	@echo "make bench            engine benchmark"
	@echo "make bench-openspiel  engine benchmark with open-spiel installed"
	@echo "make bench-web        pages under load (gunicorn, wrk, PostgreSQL) as a ratio to a bare view"
	@echo "make bench-cold       cold pages and the quick entry, server time beside a bare view"
	@echo "make bench-verify     python -m engine verify as a whole process on 1,000 games as players write them"
	@echo "make engine-compiled  compile the engine's verification path with mypyc (opt-in; make engine-pure undoes it)"
	@echo "make test-compiled    the engine's tests against the compiled modules, then pure Python again"
	@echo "make messages         update and compile the Czech translations"
	@echo "make clean            remove $(VENV), the SQLite database and caches"

install: $(STAMP)

# Reinstall only when the lock or pyproject.toml changes. The lock pins pip and setuptools
# too, so the project itself is built without fetching anything (--no-build-isolation).
$(STAMP): $(LOCK) pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r $(LOCK)
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

# requirements/dev.lock: the runtime dependencies and the [dev] extra (what `make install`
# and CI install); requirements/deploy.lock: the runtime and [deploy] (docs/deploy.md).
# Existing pins are kept unless UPGRADE=1. The lock names PyPI's files only, so a local
# pip configuration (mirrors, find-links) is ignored while compiling.
PIP_COMPILE = PIP_CONFIG_FILE=/dev/null PIP_FIND_LINKS= $(VENV)/bin/pip-compile --quiet \
	--generate-hashes --allow-unsafe --strip-extras $(if $(UPGRADE),--upgrade)
lock: install
	$(PIP_COMPILE) --extra dev --output-file requirements/dev.lock pyproject.toml
	$(PIP_COMPILE) --extra deploy --output-file requirements/deploy.lock pyproject.toml

# The browser tests (tests/browser/) drive Debian's chromium, never a downloaded one.
# Installed only as root; elsewhere the browser tests are skipped with one line at the end
# of the run (CI sets NARDY_REQUIRE_BROWSER=1 so that a missing chromium fails there).
browser-deps:
	@if command -v chromium >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update && apt-get install -y chromium; \
	else echo "chromium is missing: the browser tests will be skipped (sudo apt-get install chromium)"; \
	fi

# GNU Backgammon for tests/engine/test_gnubg_roundtrip.py (Debian: /usr/games/gnubg,
# about 20 s to install). Installed only as root with apt-get; elsewhere the test skips.
gnubg:
	@command -v gnubg >/dev/null || test -x /usr/games/gnubg || \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnubg; \
	else \
		echo "gnubg is missing: the gnubg round-trip tests will be skipped (sudo apt-get install gnubg)"; \
	fi

# A developer's server: debug on, SQLite and the local memory cache unless
# DATABASE_URL/CACHE_URL say otherwise; no services needed.
# The background jobs run in `manage.py run_jobs`, the database's worker: one for the
# users' jobs and one for the analysis, the demo's among them (both niced, the analysis
# most: the pages first), so that a long analysis never keeps an import waiting; both
# stop with the server (docs/jobs.md). One process migrates and loads the demo; `make check` runs the checks.
run: install
	DJANGO_DEBUG=1 $(PY) manage.py load_demo --migrate
	DJANGO_DEBUG=1 nice -n 5 $(PY) manage.py run_jobs --queue users --parent $$$$ & users=$$!; \
	DJANGO_DEBUG=1 nice -n 10 $(PY) manage.py run_jobs --queue analysis --parent $$$$ & \
	analysis=$$!; trap 'kill $$users $$analysis 2>/dev/null' EXIT INT TERM; \
	DJANGO_DEBUG=1 $(PY) manage.py runserver --skip-checks 127.0.0.1:8000

# An account for the admin on a developer's machine (the settings need DJANGO_DEBUG=1 or
# a DJANGO_SECRET_KEY to start).
superuser: install
	DJANGO_DEBUG=1 $(PY) manage.py createsuperuser

# The tests run in parallel (pytest-xdist): WORKERS=auto is one worker per core; WORKERS=0
# runs them in this process. Each worker has its own test database (pytest-django) and
# its own Redis database (CACHE_URL's + the worker's number, config/settings_test.py).
WORKERS ?= auto
PYTEST = $(PY) -m pytest -n $(WORKERS)
LINT = $(PY) -m ruff check . && $(PY) -m ruff format --check . && $(PY) -m mypy && \
	DJANGO_SETTINGS_MODULE=config.settings_test $(PY) manage.py makemigrations --check --dry-run

# The everyday check of a change: lint, format, types, migrations and every test that
# needs no browser and no gnubg (about 8 minutes on a busy 2-core machine; docs/testing.md).
check: install
	$(LINT)
	$(PYTEST) -m "not browser and not gnubg" --ignore=tests/browser

# The whole suite, as CI runs it: browser and gnubg tests included (installed as root when
# missing, skipped elsewhere), then the database tests again on SQLite when DATABASE_URL
# names another database. The browser tests run apart: the session's Playwright (sync API)
# keeps an event loop running in its worker, where the async socket tests cannot start.
test: install browser-deps gnubg
	$(LINT)
	$(PYTEST) --ignore=tests/browser
	$(PYTEST) tests/browser
	if [ -n "$${DATABASE_URL:-}" ]; then \
		echo "DATABASE_URL was set: database tests again on SQLite"; \
		env -u DATABASE_URL $(PYTEST) tests/tournaments; \
	fi

bench: install
	$(PY) -m engine bench

bench-openspiel: install
	$(PY) -m pip install --quiet -e '.[dev,bench]'
	$(PY) -m engine bench

# Needs PostgreSQL (BENCH_DATABASE_URL, default the local server's nardy_bench) and wrk
# (Debian's package, installed here as root).
bench-web: install
	@command -v wrk >/dev/null || if [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; \
	else echo "wrk is missing: sudo apt-get install wrk"; exit 1; fi
	$(PY) tools/bench_web.py

# The same tournaments (built when missing), in-process: no gunicorn or wrk needed.
bench-cold: install
	$(PY) tools/bench_cold.py

# `python -m engine verify FILE` timed as a child process (CPU time, start-up included)
# on long games as players write them, beside `python -c pass`. GAMES=10000
# for a larger file.
bench-verify: install
	$(PY) tools/bench_verify_process.py --games $(or $(GAMES),1000)

# game rooms over real WebSockets: uvicorn on PostgreSQL (BENCH_DATABASE_URL, default db h4)
# and the Redis channel layer (BENCH_CHANNEL_LAYER_URL, default db 12); docs/online.md
bench-play: install
	$(PY) tools/bench_play.py --games $(or $(GAMES),50) $(BENCH_PLAY_ARGS)

# Opt-in: the modules `verify` runs through compiled with mypyc (it comes with the pinned
# mypy; needs gcc and the Python headers), some 1.5x faster. The .so files are build
# artifacts beside the .py files (gitignored) and Python prefers them while they exist;
# `make engine-pure` removes them. Not part of `make install` or `make test`: a compile
# takes minutes of a busy machine, and the pure Python engine is the one CI tests.
engine-compiled: install
	$(PY) tools/compile_engine.py

engine-pure:
	$(PY) tools/compile_engine.py --clean

# The engine's tests against the compiled modules (then pure Python again, even when
# they fail).
test-compiled: engine-compiled
	NARDY_ENGINE_COMPILED=1 $(PY) -m pytest tests/engine; status=$$?; $(PY) tools/compile_engine.py --clean; exit $$status

messages: install
	DJANGO_DEBUG=1 $(PY) manage.py makemessages --locale cs --ignore '.venv/*'
	DJANGO_DEBUG=1 $(PY) manage.py compilemessages --locale cs --ignore '.venv/*'

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles build *.egg-info \
		.mypy_cache .ruff_cache .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find engine -name '*.so' -delete

# The background jobs' worker (docs/jobs.md): Celery's with CELERY_BROKER_URL, e.g.
# CELERY_BROKER_URL=redis://127.0.0.1:6379/0 make worker (the app servers set it too),
# reading the users' queue and the analysis queue; without it the database's worker.
worker: install
	if [ -n "$${CELERY_BROKER_URL:-}" ]; then $(PY) -m celery -A config worker -l info; \
	else $(PY) manage.py run_jobs; fi
