# The README's two commands: `make run` and `make test`. Everything installs into .venv: what runs
# the server (pyproject's dependencies) for `make run`, `serve` and `migrate`; the dev extra as
# well (tests, linters, type checker, browser driver) for `make test` and the other tools.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8000
# make serve: the WSGI tier and the stream tier listen on loopback, the proxy on HOST:PORT.
API_PORT ?= $(shell echo $$(($(PORT) + 1)))
STREAMS_PORT ?= $(shell echo $$(($(PORT) + 2)))
WEB_CONCURRENCY ?= $(shell echo $$((2 * $$(nproc))))
STREAM_WORKERS ?= 1
NGINX_WORKERS ?= 1
NGINX_DIR ?= $(CURDIR)/var/nginx/$(PORT)
# Prometheus multiprocess mode (config/observability/metrics.py): one directory for the processes of one
# `make run` or `make serve`, emptied before they start.
PROMETHEUS_MULTIPROC_DIR ?= $(CURDIR)/var/prometheus/$(PORT)
# supervisord's configuration and files for the processes of one `make run` or `make serve`.
SUPERVISOR_DIR ?= $(CURDIR)/var/supervisor/$(PORT)

.PHONY: install install-run run serve lock test lint format typecheck migrate messages \
	compilemessages examples clients clean

$(RUN_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

# The dev set includes the runtime one: the same editable install, with the extra.
$(DEV_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(DEV_STAMP)

install-run: $(RUN_STAMP)

# The browser tests' axe-core (tests/webclient/package-lock.json), from the npm registry.
AXE := tests/webclient/node_modules/axe-core/axe.min.js

$(AXE): tests/webclient/package-lock.json
	@command -v npm >/dev/null || { echo "make install needs npm (Debian: apt-get install npm)"; exit 1; }
	npm ci --prefix tests/webclient --no-audit --no-fund --loglevel=error
	touch $(AXE)

install: $(DEV_STAMP) $(AXE)

migrate: install-run
	mkdir -p var
	$(BIN)/python manage.py migrate --noinput

# Web, worker and scheduler together, on SQLite and a broker in files: no server needed. Each
# process is supervised (config/deploy/supervise.py: supervisor restarts one that dies).
# Their metrics, the worker's and the timers' too, add up at /metrics (one multiprocess directory).
run: migrate compilemessages
	$(BIN)/python manage.py build_ai_tables
	rm -rf $(PROMETHEUS_MULTIPROC_DIR) && mkdir -p $(PROMETHEUS_MULTIPROC_DIR)
	DEBUG=$${DEBUG:-true} HOST=$(HOST) PORT=$(PORT) PROMETHEUS_MULTIPROC_DIR=$(PROMETHEUS_MULTIPROC_DIR) \
		PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python config/deploy/supervise.py config/deploy/Procfile \
		$(SUPERVISOR_DIR)

# The production web tier, exactly as deployed (docker-compose runs the same three commands):
# gunicorn (WSGI: the REST API, admin, docs) and uvicorn (the event streams, games.streams) behind
# nginx on HOST:PORT, which routes by path. Settings from the environment (DATABASE_URL,
# REDIS_URL, SECRET_KEY, ...); DEBUG is off unless set. Needs nginx (Debian: nginx-light).
# Migrations are not run here: `manage.py migrate` once per release, not once per web machine.
# Logs in JSON unless LOG_FORMAT says otherwise; the metrics of gunicorn's workers and of the
# stream tier's add up at /metrics (PROMETHEUS_MULTIPROC_DIR, emptied here first). More than one
# gunicorn worker needs REDIS_URL (their throttle and sign-in counts are shared there): gunicorn's
# configuration, run first, refuses to start them without it.
serve: install-run compilemessages
	@WEB_CONCURRENCY=$(WEB_CONCURRENCY) $(BIN)/python config/deploy/gunicorn.conf.py
	@command -v nginx >/dev/null || { echo "make serve needs nginx: apt-get install nginx-light"; exit 1; }
	mkdir -p var
	rm -rf $(PROMETHEUS_MULTIPROC_DIR) && mkdir -p $(PROMETHEUS_MULTIPROC_DIR)
	DEBUG=$${DEBUG:-false} $(BIN)/python manage.py collectstatic --noinput -v 0
	DEBUG=$${DEBUG:-false} LOG_FORMAT=$${LOG_FORMAT:-json} TRUSTED_PROXIES=$${TRUSTED_PROXIES:-1} \
		PROMETHEUS_MULTIPROC_DIR=$(PROMETHEUS_MULTIPROC_DIR) \
		LISTEN=$(HOST):$(PORT) API_BIND=127.0.0.1:$(API_PORT) \
		API_UPSTREAM=127.0.0.1:$(API_PORT) STREAMS_PORT=$(STREAMS_PORT) \
		STREAMS_UPSTREAM=127.0.0.1:$(STREAMS_PORT) STATIC_ROOT=$(CURDIR)/var/static \
		NGINX_WORKERS=$(NGINX_WORKERS) NGINX_DIR=$(NGINX_DIR) \
		WEB_CONCURRENCY=$(WEB_CONCURRENCY) STREAM_WORKERS=$(STREAM_WORKERS) \
		PATH="$(CURDIR)/$(BIN):$$PATH" sh -c '$(BIN)/python config/deploy/render_nginx.py $(NGINX_DIR) \
		&& exec $(BIN)/python config/deploy/supervise.py config/deploy/Procfile.serve $(SUPERVISOR_DIR)'

# The image's dependencies, every one pinned (config/deploy/requirements.lock): the project's
# own pins and what they pull in, resolved in a clean virtualenv. Run after changing pyproject's
# dependencies; tests/serving/test_production.py checks the two agree.
lock:
	rm -rf var/lockenv && python3 -m venv var/lockenv
	var/lockenv/bin/pip install --quiet --disable-pip-version-check .
	( echo "# make lock: every package of the image, pinned (generated; do not edit)"; \
	  var/lockenv/bin/pip freeze --disable-pip-version-check --exclude-editable | grep -v '^dice-server' ) \
		> config/deploy/requirements.lock
	rm -rf var/lockenv build

test: install
	mkdir -p var
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy config games players ai tests
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest

# The schema's example requests and answers (config/schema_examples.json), recorded from the API
# itself in a transaction rolled back at the end. Re-run after an answer's shape changes.
examples: install migrate
	$(BIN)/python -m tests.contract.record_examples

# Clients generated from the API's schema into var/clients/: a Python package
# (openapi-python-client) and TypeScript types (openapi-typescript, pinned in
# tests/contract/typescript/, needs Node.js). The tests make both the same way and use them.
clients: install
	mkdir -p var/clients/typescript
	$(BIN)/python manage.py spectacular --format openapi-json --file var/clients/schema.json
	rm -rf var/clients/python
	$(BIN)/openapi-python-client generate --path var/clients/schema.json --meta none \
		--output-path var/clients/python
	cd tests/contract/typescript && npm ci --no-audit --no-fund --silent
	tests/contract/typescript/node_modules/.bin/openapi-typescript var/clients/schema.json \
		-o var/clients/typescript/api.d.ts

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Every package and the tests strictly, with the Django and DRF plugins (pyproject: [tool.mypy]).
typecheck: install
	$(BIN)/mypy config games players ai tests

# Translations with Babel (pure Python: no GNU gettext needed). `messages` re-extracts the code's
# gettext strings into every catalogue of locale/ (a new string arrives untranslated, and
# tests/i18n fails until it is translated) and compiles them all; the .mo files are committed, and
# `run` recompiles any catalogue edited since. locale/drf/ is Croatian for Django REST framework,
# which ships none. The keywords are those tests/i18n/test_catalogues.py extracts with.
LOCALES := en fr uk el hr ru
PO_FILES := $(wildcard locale/*/LC_MESSAGES/django.po locale/drf/*/LC_MESSAGES/django.po)
MO_FILES := $(PO_FILES:.po=.mo)
BABEL_KEYWORDS := -k gettext_lazy -k gettext_noop -k ngettext_lazy:1,2 -k pgettext_lazy:1c,2 \
	-k npgettext_lazy:1c,2,3

messages: install
	mkdir -p var
	$(BIN)/pybabel extract -F locale/babel.cfg $(BABEL_KEYWORDS) --add-location=file \
		--project=dice-server --version=0.1.0 -o var/django.pot config games players ai
	for lang in $(LOCALES); do \
		$(BIN)/pybabel update -i var/django.pot -d locale -D django -l $$lang -N \
			--ignore-obsolete --init-missing --ignore-pot-creation-date || exit 1; \
	done
	$(BIN)/python locale/english.py locale/en/LC_MESSAGES/django.po
	$(BIN)/pybabel compile -d locale -D django --statistics
	$(BIN)/pybabel compile -d locale/drf -D django --statistics

compilemessages: $(MO_FILES)

%.mo: %.po | $(RUN_STAMP)
	$(BIN)/pybabel compile -D django -i $< -o $@

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
