PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-slow bench clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[all,dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/texas42 play

test: $(STAMP)
	$(BIN)/mypy src/texas42
	$(BIN)/pytest

test-slow: $(STAMP)
	TEXAS42_EXAMPLES_SCALE=25 $(BIN)/pytest tests/test_properties.py

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_solver.py
	$(BIN)/python benchmarks/bench_bots.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .hypothesis
