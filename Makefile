# Two commands on a fresh machine: `make demo` and `make test`.
# Each creates the virtual environment on first use and installs what it needs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/chunkwise chunk samples --summary

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2

# everything but the model-heavy tests (marked slow): about a minute
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 -m "not slow"

# type checks and lint, zero errors (CI runs them after the tests): src/ strictly, the
# tests' bodies too (test functions need not be annotated)
lint: $(STAMP)
	$(BIN)/python -m mypy
	$(BIN)/python -m mypy tests --allow-untyped-defs --allow-incomplete-defs \
		--allow-untyped-calls --allow-any-generics --no-warn-return-any
	$(BIN)/python -m ruff check src tests benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
