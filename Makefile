# The two commands a newcomer needs: `make run` and `make test`.
# Both create or refresh the virtual environment in .venv by themselves, installing the exact
# versions in constraints.txt (`make lock` refreshes that file from pyproject.toml).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
LOCK := constraints.txt

.PHONY: run sandbox test lint bench lock mutation clean translations

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
run: $(STAMP)
	@$(PY) -m sandbox

# The sandbox even when a token is configured.
sandbox: $(STAMP)
	@$(PY) -m sandbox --sandbox

# Lint first: a finding fails in seconds, before the tests. Two pytest-xdist workers: half the tests wait
# on processes, sockets and PostgreSQL rather than the CPU, so two workers on two cores take ~60% of one's time.
test: lint
	$(PY) -m pytest -n 2

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
	rm -rf $(VENV) .venv-lock .pytest_cache .hypothesis mutants
