# The two commands a newcomer needs: `make run` and `make test`.
# Both create or refresh the virtual environment in .venv by themselves, installing the exact
# versions in constraints.txt (`make lock` refreshes that file from pyproject.toml).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
LOCK := constraints.txt

.PHONY: run sandbox test lint bench lock mutation clean translations activity

$(STAMP): pyproject.toml $(LOCK)
	@if test -x $(PY); then echo "Updating .venv (pyproject.toml or $(LOCK) changed)…"; \
	else echo "Creating .venv and installing dependencies (about 30-60 s, once)…"; $(PYTHON) -m venv $(VENV); fi
	@$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip -c $(LOCK)
	@$(PY) -m pip install --quiet --disable-pip-version-check -c $(LOCK) -e '.[test,lint]'
	@$(PY) tools/lockfile.py check $(PY)
	@touch $(STAMP)
	@echo "Dependencies ready."

# Without DISCORD_TOKEN (environment or .env): the sandbox, a local Discord in your browser.
# With it: the bot on your Discord servers.
run: $(STAMP) activity
	@$(PY) -m sandbox

# The sandbox even when a token is configured.
sandbox: $(STAMP) activity
	@$(PY) -m sandbox --sandbox

# Lint first: a finding fails in seconds, before the tests. Two pytest-xdist workers: half the tests wait
# on processes, sockets and PostgreSQL rather than the CPU, so two workers on two cores take ~60% of one's time.
test: lint activity
	$(PY) -m pytest -n 2

# The Activity's page (activity/, docs/activity.md): rebuilt when its sources, its lockfile or the catalogs
# changed — `npm ci` installs exactly the lockfile's packages (no install scripts run), then esbuild bundles
# the page into activity/dist/, which the bot's web server serves. Nothing is fetched when the bot runs.
# Without Node.js the page is not built (one line says so) and everything else works.
ACTIVITY_MODULES := activity/node_modules/.package-lock.json
ACTIVITY_BUILT := activity/dist/.built
ACTIVITY_INPUTS := $(wildcard activity/src/*) activity/build.mjs activity/package.json $(ACTIVITY_MODULES) \
	tools/activity_words.py $(wildcard i18n/locale/*/LC_MESSAGES/*.po)

activity: $(STAMP)
	@if command -v npm >/dev/null 2>&1; then $(MAKE) -s --no-print-directory $(ACTIVITY_BUILT); \
	else echo "Node.js and npm are not installed: the Activity page is not built (apt-get install nodejs npm)."; fi

$(ACTIVITY_MODULES): activity/package-lock.json
	@echo "Installing the Activity page's packages from activity/package-lock.json…"
	@cd activity && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

$(ACTIVITY_BUILT): $(ACTIVITY_INPUTS)
	@$(PY) tools/activity_words.py
	@cd activity && node build.mjs
	@echo "Built the Activity page in activity/dist/."

# The habits the code keeps (docs/architecture.md, "Conventions"): ruff's rules and format, mypy's types.
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# Collect the sentences the code says into i18n/locale/hexplay.pot and merge them into every language's catalog
# (new ones arrive empty: tests/test_translations.py fails until they are translated). docs/translating.md.
translations: $(STAMP)
	$(PY) tools/translations.py

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

# Mutation testing (not part of `make test`; see docs/testing.md). mutmut is a tool, not a
# dependency of the project, so it is pinned here rather than in constraints.txt.
MUTMUT := mutmut==3.8.1
mutation: $(STAMP)
	$(PY) -m pip install --quiet --disable-pip-version-check '$(MUTMUT)'
	rm -rf mutants
	nice -n 19 $(PY) tools/mutation_run.py

# Re-resolve every dependency in a scratch environment and pin the result in constraints.txt.
lock:
	@echo "Resolving dependencies in a scratch environment (about a minute)…"
	@rm -rf .venv-lock && $(PYTHON) -m venv .venv-lock
	@.venv-lock/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	@.venv-lock/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test,lint]'
	@.venv-lock/bin/python tools/lockfile.py write .venv-lock/bin/python
	@rm -rf .venv-lock

clean:
	rm -rf $(VENV) .venv-lock .pytest_cache .hypothesis mutants activity/node_modules activity/dist activity/words.json
