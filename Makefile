# The README's commands. `make test` alone sets everything up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup notebooks test test-all report report-check bench lint docs locale clean golden

setup: $(STAMP)

# pip compiles the installed packages' bytecode on one core (about 50 s of a fresh
# `make test`); compileall does the same on every core.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -e ".[dev]"
	$(BIN)/python -m compileall -q -j 0 $$($(BIN)/python -c "import sysconfig; print(sysconfig.get_path('purelib'))") > /dev/null
	touch $(STAMP)

# JupyterLab, to open notebooks/ (`.venv/bin/jupyter lab notebooks/`); the tests run the
# notebooks without it.
notebooks: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[dev,notebooks]"

# The suite runs on two processes (pytest-xdist; whole files per process), after the
# compiled code was built once, in two groups in parallel (tests/warm_cache.py).
# `make test` leaves out the long statistical and differential runs (marker `slow`);
# `make test-all` runs them too.
# The bytecode is compiled first: where PYTHONDONTWRITEBYTECODE is set, every test
# process and subprocess would otherwise compile the sources again (5 s a process);
# for the same reason pytest may write its own (assertion-rewritten) bytecode of the
# tests (3 s of collection a process).
test: $(STAMP)
	$(BIN)/python -m compileall -q sim analysis tests
	$(BIN)/python tests/warm_cache.py
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder -m "not slow"

test-all: $(STAMP)
	$(BIN)/python -m compileall -q sim analysis tests
	$(BIN)/python tests/warm_cache.py
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder

report: $(STAMP)
	$(BIN)/thousand report --rules classic --out reports/classic --force

# Renders reports/classic and a small `--vs app` comparison report in headless Chromium
# (installed from the system's packages when missing), saves screenshots beside them and
# fails on a broken image or link, a console error or a table wider than the page.
# Not part of `make test`: it needs a system package.
report-check: $(STAMP)
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  (DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium || \
	   (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium)) || \
	  (sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium)
	$(BIN)/thousand report --rules classic --vs app --out build/report-vs-app --force --quiet \
	  --deals 200000 --hands 50000 --games 5000 --safe-deals 20000 --safe-sample 4 \
	  --guide-duel-deals 2000
	$(BIN)/python tests/report_check.py reports/classic build/report-vs-app

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/solver.py

lint: $(STAMP)
	$(BIN)/ruff check sim analysis tests benchmarks
	$(BIN)/ruff format --check sim analysis tests benchmarks
	$(BIN)/mypy

locale: $(STAMP)  ## extract the marked strings into sim/locale/, merge every .po, compile the .mo files
	$(BIN)/python -m sim.i18n

docs: $(STAMP)  ## regenerate docs/rules.md's options table and docs/data.md's column tables
	$(BIN)/python -m sim.jobs.docs docs/rules.md docs/data.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

golden: $(STAMP)  ## regenerate the golden traces after an intended engine change
	$(BIN)/python tests/golden_traces.py --regenerate
