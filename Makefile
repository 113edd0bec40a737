# The README's commands. `make test` alone sets everything up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup notebooks test test-all report report-polish report-check bench lint docs players locale clean golden weights

setup: $(STAMP)

# pip compiles the installed packages' bytecode on one core (about 50 s of a fresh
# `make test`); compileall does the same on every core, leaving out the packages' own
# tests, which nothing here imports.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -e ".[dev]"
	$(BIN)/python -m compileall -q -j 0 -x '/tests?/' $$($(BIN)/python -c "import sysconfig; print(sysconfig.get_path('purelib'))") > /dev/null
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
	$(BIN)/python -m compileall -q sim analysis views tests
	$(BIN)/python tests/warm_cache.py
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder -m "not slow"

test-all: $(STAMP)
	$(BIN)/python -m compileall -q sim analysis views tests
	$(BIN)/python tests/warm_cache.py
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder

# The report is dated by the sources' last change (SOURCE_DATE_EPOCH: every time stamp
# that instant, no durations), so the same sources and seeds write the same bytes and
# regenerating reports/classic changes nothing unless the sources did (then its date too).
report: $(STAMP)
	SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct -- sim analysis views 2>/dev/null) \
	  $(BIN)/thousand report --rules classic --out reports/classic --force

# Tysiąc as Polish tables play it, the report in Polish (docs/rules.md §13, preset polish),
# dated like reports/classic: regenerate it with reports/classic after a change of sources.
report-polish: $(STAMP)
	SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct -- sim analysis views 2>/dev/null) \
	  $(BIN)/thousand report --rules polish --lang pl --out reports/polish --force

# Renders reports/classic, a small `--vs app` comparison report, small reports in Russian,
# Ukrainian and Polish and the guide with its page for players and its offline page to
# tap a hand in every language in headless Chromium (installed from the system's
# packages when missing) at 1280 px and 390 px, saves the screenshots in
# reports/screenshots/ and fails on a broken image or link, a console error, or a table
# or page wider than its screen (clipped figures fail when they are drawn). Then
# `thousand serve`'s page in Chromium (tests/test_serve_browser.py): a hand tapped, the
# seat, a bid, the verdict, in every language at 390 and 1280 px, its screenshots
# (serve-LANG-WIDTH.png, advisor-LANG-WIDTH.png) in reports/screenshots/ too. Not part
# of `make test`'s requirements: where Chromium is installed `make test` runs that
# browser test as well; elsewhere it is skipped.
CHECK_REPORT := --deals 100000 --hands 20000 --games 2000 --safe-deals 10000 --safe-sample 2 \
  --guide-duel-deals 1000
CHECK_GUIDE  := --deals 20000 --hands 20000 --games 1000 --odds-deals 50000 --duel-deals 1000
report-check: $(STAMP)
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  (DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium || \
	   (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium)) || \
	  (sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium)
	$(BIN)/thousand report --rules classic --vs app --out build/report-vs-app --force --quiet \
	  $(CHECK_REPORT)
	for lang in ru uk pl; do \
	  $(BIN)/thousand report --rules classic --lang $$lang --out build/report-$$lang --force \
	    --quiet $(CHECK_REPORT) || exit 1; done
	for lang in en ru uk pl; do \
	  $(BIN)/thousand guide --rules classic --lang $$lang --player-page --out build/guide-$$lang \
	    --force --quiet $(CHECK_GUIDE) > /dev/null || exit 1; done
	$(BIN)/python tests/report_check.py --shots reports/screenshots reports/classic \
	  $(foreach l,en ru uk pl,reports/classic/player-$(l).html) \
	  build/report-vs-app build/report-ru build/report-uk build/report-pl \
	  $(foreach l,en ru uk pl,build/guide-$(l) build/guide-$(l)/player.html \
	    build/guide-$(l)/advisor.html)
	THOUSAND_SHOTS=reports/screenshots PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q \
	  -p no:cacheprovider tests/test_serve_browser.py

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/solver.py
	$(BIN)/python benchmarks/advise.py

lint: $(STAMP)
	$(BIN)/ruff check sim analysis views tests benchmarks training
	$(BIN)/ruff format --check sim analysis views tests benchmarks training
	$(BIN)/mypy

locale: $(STAMP)  ## extract the marked strings into sim/locale/, merge every .po, compile the .mo files
	$(BIN)/python -m sim.i18n

docs: $(STAMP)  ## regenerate docs/rules.md's options table, docs/data.md's column tables, docs/players.md
	$(BIN)/python -m sim.jobs.docs docs/rules.md docs/data.md
	$(BIN)/python -m sim.jobs.players

# Every player's duplicate duel against heuristic (classic; 20,000 deals for a fast player,
# 1,000 for a sampling one) into docs/players.json, and the ladder of every player against
# every other (5,000 and 300 deals) into docs/ladder.json, then docs/players.md. Run it
# when a player's play changes (the page marks stale figures).
# The learned decisions' weights (sim/engine/strategies/learned.npz) from the teacher's
# data: `thousand teach` labels the contract decisions of seeded classic deals by the
# sampling player's search (160,000 deals, about 25 minutes on 2 cores), then
# training/contract.py fits the three-hand network and writes it (about 9 minutes); the
# two-hand one is fitted on the totals the heuristic's own play makes from the dealt
# two-player deals (`thousand teach --kinds outcome`, 200,000 deals, about 4 minutes,
# then about 12 minutes of fitting). The bid network (training/bid.py) is fitted on the
# three-hand contract network's value of every talon at the bid decisions of 20,000
# seeded classic deals (about 6 minutes). A folder already made is kept; the same seeds
# give the same weights. Then strong's card
# network (sim/engine/strategies/strong.npz): pimc's card choices at the card decisions of
# 33,000 seeded classic deals (runs/strong_fit; the rounds played by strong are played
# with its line's weights, so the network's file is set aside while they are dealt),
# fitted by training/strong_fit.py --model net (about 30 minutes in all on 2 cores).
# Then the concession's defenders' line and chance to make (training/concede.py), fitted
# on 100,000 deals strong plays out, three hands and two (about 2 minutes each; cleared
# at the start, so that everything before is fitted with the unfitted concession).
# Its following rows are then fitted on the search's value of every card
# (training/cards.py): `thousand teach --kinds play` labels every card decision of
# 100,000 classic deals strong plays (seed 1013, about 11 minutes on 2 cores), the rows
# are fitted, 100,000 more deals (seed 1014) are played and labelled with them, and the
# rows are fitted again on both (about a minute each); with two players every row, on
# 80,000 two_players deals (seed 1015, about 20 minutes). Last the concession's line
# again, on the deals the final player plays out.
TEACH := $(BIN)/thousand teach --kinds contract --chunk 100 --quiet --param strong.bid_net=0
CARD_TEACH := $(BIN)/thousand teach --kinds play --worlds 16 --chunk 500 --quiet
CONCEDE := $(BIN)/python -m training.concede
CARD_ROUNDS := heuristic:3000:2,strong:3000:3,strong:3000:21,strong:8000:22,heuristic:8000:24,strong:8000:23
weights: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[dev,train]"
	$(BIN)/python -m training.concede --clear
	test -f runs/teach/classic/contract.parquet || $(TEACH) --deals 20000 --seed 1001 --out runs/teach/classic
	test -f runs/teach/contract/contract.parquet || $(TEACH) --deals 140000 --seed 1003 --out runs/teach/contract
	$(BIN)/python -m training.contract --data runs/teach/contract runs/teach/classic --hidden 128 --seed 1
	test -f runs/teach/two_outcome/outcome.parquet || $(BIN)/thousand teach --rules two_players \
	  --player heuristic --kinds outcome --chunk 2000 --quiet --deals 200000 --seed 1005 \
	  --out runs/teach/two_outcome
	$(BIN)/python -m training.contract --data runs/teach/two_outcome --rules two_players \
	  --labels outcome --net two --hidden 128 --levels-per 8 --seed 1
	$(BIN)/python -m training.bid --deals 20000 --data-seed 1007 --seed 1
	rm -f sim/engine/strategies/strong.npz
	$(BIN)/python -m training.strong_fit --model net --hidden 8 --net-rows 0,2 --bonus 0 --rounds $(CARD_ROUNDS)
	$(CONCEDE) --deals 100000 --data-seed 1009
	$(CONCEDE) --rules two_players --deals 100000 --data-seed 1011
	test -f runs/teach/play/play.parquet || $(CARD_TEACH) --deals 100000 --seed 1013 --out runs/teach/play
	$(BIN)/python -m training.cards --data runs/teach/play --rows 1,3 --pimc 0
	test -f runs/teach/play2/play.parquet || $(CARD_TEACH) --deals 100000 --seed 1014 --out runs/teach/play2
	$(BIN)/python -m training.cards --data runs/teach/play runs/teach/play2 --rows 1,3 --pimc 0
	test -f runs/teach/two_play/play.parquet || $(CARD_TEACH) --rules two_players --deals 80000 \
	  --seed 1015 --out runs/teach/two_play
	$(BIN)/python -m training.cards --rules two_players --data runs/teach/two_play --rows 0,1,2,3 --pimc 0
	$(CONCEDE) --deals 100000 --data-seed 1009
	$(CONCEDE) --rules two_players --deals 100000 --data-seed 1011

players: $(STAMP)
	$(BIN)/python -m sim.jobs.players --measure --ladder

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

golden: $(STAMP)  ## regenerate the golden traces after an intended engine change
	$(BIN)/python tests/golden_traces.py --regenerate
