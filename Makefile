# Two commands for a fresh machine: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test install install-test offline-runtime migrate demo messages catalogs gettext browser lint fmt run-distributed clean audit audit-tools

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[test]"
	touch $(VENV)/.installed $@

install: $(VENV)/.installed offline-runtime
install-test: $(VENV)/.installed-test offline-runtime

## The offline game's runtime: Pyodide's core files from the npm registry, at a pinned
## version and SHA-256 (tools/offline_runtime.py), into static/vendor/pyodide/ (not
## committed). Fetched once; again only when the script's pin changes.
PYODIDE_STAMP := static/vendor/pyodide/.version
$(PYODIDE_STAMP): tools/offline_runtime.py
	$(PYTHON) tools/offline_runtime.py
offline-runtime: $(PYODIDE_STAMP)

gettext:
	@command -v msgfmt >/dev/null || { echo "installing Debian's gettext"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext) \
	  || { echo "the gettext tools are missing: apt-get install gettext"; exit 2; }; }

## The browser tests' Chromium and the fonts that draw every script the site speaks
## (Debian's packages, installed once).
BROWSER_PACKAGES := chromium fonts-noto-core fonts-noto-cjk
browser:
	@missing=$$(for p in $(BROWSER_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "installing from Debian: $$missing"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) \
	  || { echo "could not install $$missing: the browser tests need them"; exit 2; }; fi

## Compile the translation catalogs (locale/*/LC_MESSAGES/*.po -> .mo). The .mo files
## are built here, not committed: `make run` and `make test` do it.
catalogs: install gettext
	$(BIN)/python manage.py compilemessages -v0 --ignore=.venv --ignore=staticfiles

## After changing user-facing strings: bring every catalog up to date with the code,
## then translate the new entries (tests/i18n fails until none is empty or fuzzy).
messages: install gettext
	$(BIN)/python manage.py makemessages --all
	$(BIN)/python manage.py makemessages --all -d djangojs

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py demo_data

## Serve the platform on the embedded default (SQLite, in-memory layer, in-process worker).
run: demo catalogs
	$(BIN)/python manage.py collectstatic --noinput -v0
	@echo "Serving on http://$(HOST):$(PORT)/  (Ctrl-C stops)"
	$(BIN)/python -m config.serve -b $(HOST) -p $(PORT) config.asgi:application

## Install with the test extras and run the whole suite (browser tests in their own run).
test: install-test catalogs
	$(BIN)/pytest -m "not e2e" --durations=25
	$(MAKE) browser
	$(BIN)/pytest -m e2e --durations=10; rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 5 ]

## Lighthouse and axe-core for `make audit`, pinned by tools/audit/package-lock.json
## and installed from it (`npm ci`), once: nothing downloads while the audit runs.
AUDIT_TOOLS := tools/audit/node_modules/.package-lock.json
$(AUDIT_TOOLS): tools/audit/package.json tools/audit/package-lock.json
	@command -v npm >/dev/null || { echo "make audit needs Node.js (20 or later) and npm"; exit 2; }
	cd tools/audit && npm ci --no-audit --no-fund
	@touch $@
audit-tools: $(AUDIT_TOOLS)

## Lighthouse's four scores and axe-core's violations for the public and signed-in
## pages, at 390 and 1280 px, in English and Arabic, on the embedded default
## (bench/audit.py; its figures go in bench/RESULTS.md).
audit: install-test catalogs browser audit-tools
	$(BIN)/python bench/audit.py

## Checks that change nothing (also the hooks of .pre-commit-config.yaml).
lint: install-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

## Format the tree and apply ruff's safe fixes.
fmt: install-test
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

## The distributed platform from platform/Procfile (needs DATABASE_URL and REDIS_URL).
run-distributed: install
	@test -n "$$DATABASE_URL" -a -n "$$REDIS_URL" || { echo "set DATABASE_URL and REDIS_URL (see platform/.env.example)"; exit 2; }
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput -v0
	$(BIN)/honcho -f platform/Procfile -d . start

clean:
	rm -rf $(VENV) staticfiles .test-db.sqlite3 test-artifacts
