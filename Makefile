PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-slow typecheck bench clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[all,dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/texas42 play

test: $(STAMP)
	$(BIN)/mypy src/texas42
	$(BIN)/pytest -m "not slow"

test-slow: $(STAMP)
	$(BIN)/pytest -m slow

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .hypothesis
