# The README's commands. `make test` alone sets everything up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup test report bench lint docs clean golden

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev,notebooks]"
	touch $(STAMP)

# The suite runs on two processes (pytest-xdist; whole files per process), after the
# big kernels were compiled once each, in parallel (tests/warm_cache.py).
test: $(STAMP)
	$(BIN)/python tests/warm_cache.py
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

report: $(STAMP)
	$(BIN)/thousand report --rules classic --out reports/classic --force

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/solver.py

lint: $(STAMP)
	$(BIN)/ruff check sim analysis tests benchmarks
	$(BIN)/ruff format --check sim analysis tests benchmarks
	$(BIN)/mypy

docs: $(STAMP)  ## regenerate docs/rules.md's options table and docs/data.md's column tables
	$(BIN)/python -m sim.docs docs/rules.md docs/data.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

golden: $(STAMP)  ## regenerate the golden traces after an intended engine change
	$(BIN)/python tests/golden_traces.py --regenerate
