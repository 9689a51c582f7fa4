# The README's two commands: `make run` and `make test`. Everything installs into .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint format typecheck migrate messages clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

migrate: install
	mkdir -p var
	$(BIN)/python manage.py migrate --noinput

# Web, worker and scheduler together (honcho), on SQLite and a broker in files: no server needed.
run: migrate
	$(BIN)/python manage.py build_ai_tables
	HOST=$(HOST) PORT=$(PORT) PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/honcho -f config/deploy/Procfile -d . start

test: install
	mkdir -p var
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy games/rules
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

typecheck: install
	$(BIN)/mypy games/rules ai

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
