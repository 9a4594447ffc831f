# Developer commands. GNU make; every recipe line fails the target on error.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help install run test bench bench-openspiel messages clean

help:
	@echo "make install          create $(VENV) and install the project with its dev tools"
	@echo "make run              migrate, load the demo (manage.py load_demo), serve on 127.0.0.1:8000"
	@echo "make test             ruff, mypy, migrations check, pytest (and SQLite too if DATABASE_URL is set)"
	@echo "make bench            engine benchmark"
	@echo "make bench-openspiel  engine benchmark with open-spiel installed"
	@echo "make messages         update and compile the Czech translations"
	@echo "make clean            remove $(VENV), the SQLite database and caches"

install: $(STAMP)

# Reinstall only when pyproject.toml changes.
$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	$(PY) manage.py runserver 127.0.0.1:8000

test: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest
	if [ -n "$${DATABASE_URL:-}" ]; then \
		echo "DATABASE_URL was set: database tests again on SQLite"; \
		env -u DATABASE_URL $(PY) -m pytest tests/tournaments; \
	fi

bench: install
	$(PY) -m engine bench

bench-openspiel: install
	$(PY) -m pip install --quiet -e '.[dev,bench]'
	$(PY) -m engine bench

messages: install
	$(PY) manage.py makemessages --locale cs --ignore '.venv/*'
	$(PY) manage.py compilemessages --locale cs --ignore '.venv/*'

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles build *.egg-info \
		.mypy_cache .ruff_cache .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
