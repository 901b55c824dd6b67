PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium

.PHONY: run play test test-slow bench clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[all,dev]'
	touch $(STAMP)

# The browser tests drive Debian's chromium; install it when it is missing.
$(CHROMIUM):
	if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
	$$sudo apt-get update -qq && \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null

run: $(STAMP)
	$(BIN)/texas42 serve

play: $(STAMP)
	$(BIN)/texas42 play

test: $(STAMP) $(CHROMIUM)
	$(BIN)/mypy src/texas42
	$(BIN)/pytest

test-slow: $(STAMP)
	TEXAS42_EXAMPLES_SCALE=25 $(BIN)/pytest tests/core/test_properties.py

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_solver.py
	$(BIN)/python benchmarks/bench_bots.py
	$(BIN)/python benchmarks/bench_server.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .hypothesis
