PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium

.PHONY: run play test lint docs docs-check test-slow bench clean postgres bidder

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

# The storage tests start a throwaway cluster of Debian's postgresql (tests/pg.py); install it
# when it is missing.
postgres:
	if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
	$$sudo apt-get update -qq && \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null

run: $(STAMP)
	$(BIN)/texas42 serve

play: $(STAMP)
	$(BIN)/texas42 play

test: lint docs-check $(CHROMIUM) postgres
	$(BIN)/pytest

# Style, types and layers: ruff (lint and format), mypy --strict, import-linter's contracts.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy src/texas42
	$(BIN)/lint-imports

# The API reference of the library's layers (the faces are programs, not API).
API_MODULES := texas42 texas42.core texas42.search texas42.players texas42.services

docs: $(STAMP)
	$(BIN)/pdoc -o build/api $(API_MODULES)
	@echo "API reference: build/api/index.html"

# The API reference must build without a single warning.
docs-check: $(STAMP)
	@dir="$$(mktemp -d)"; out="$$($(BIN)/pdoc -o "$$dir" $(API_MODULES) 2>&1)"; rm -rf "$$dir"; \
	if [ -n "$$out" ]; then echo "$$out"; echo "pdoc warned: fix the docstrings above"; exit 1; fi

test-slow: $(STAMP)
	TEXAS42_EXAMPLES_SCALE=25 $(BIN)/pytest tests/core/test_properties.py tests/test_fuzz.py

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_solver.py
	$(BIN)/python benchmarks/bench_bots.py
	$(BIN)/python benchmarks/bench_server.py

# The learned bidder's shipped model from scratch: the self-play run it was trained on, played by
# expert@1, the expert of that time (the same command resumes a stopped run), then the fit
# (docs/bots.md, "Learned bidding"). Long: about 10 minutes of a core per game; BIDDER_DATA,
# BIDDER_GAMES and BIDDER_WORKERS change the run.
BIDDER_DATA ?= build/selfplay-r1
BIDDER_GAMES ?= 14
BIDDER_WORKERS ?= 2
BIDDER_MODEL := src/texas42/players/data/bidder.npz

bidder: $(STAMP)
	$(BIN)/texas42 selfplay $(BIDDER_DATA) --games $(BIDDER_GAMES) --bot expert@1 \
		--playout 'expert:objective=points,samples=24,value_samples=24' --rules standard --rules house \
		--seed 19 --chunk 2 --bid-samples 16 --workers $(BIDDER_WORKERS)
	$(BIN)/texas42 bidder train $(BIDDER_DATA) --out $(BIDDER_MODEL) --seed 0

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .hypothesis .ruff_cache build
