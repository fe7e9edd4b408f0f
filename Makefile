# The two commands a newcomer needs: `make run` and `make test`.
# Both create or refresh the virtual environment in .venv by themselves.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench mutation clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

run: $(STAMP)
	$(PY) -m bot

test: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

# Mutation testing (about an hour on 2 cores; not part of `make test`). See docs/testing.md.
mutation: $(STAMP)
	$(PY) -m pip install --quiet -e '.[mutation]'
	rm -rf mutants
	$(VENV)/bin/mutmut run --max-children 2 || true
	$(VENV)/bin/mutmut results

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis mutants
