"""Jobs: what a command does, as a library call a notebook can make.

A job takes a typed, frozen spec (never the command line's arguments), plays the runs
it needs and computes its result; the command line builds the spec from its
arguments, calls the job and prints the result. Results print as the commands print
them (``json()``, ``markdown()``, and ``short()`` or ``text()`` where a command has
them). Jobs sit above the runs and the analysis, below the command line
(``tests/test_layers.py``); the command line imports nothing else but the base.

* :mod:`sim.jobs.runs` — :func:`~sim.jobs.runs.play_into` of a
  :class:`~sim.jobs.runs.RunSpec`: a hands or games run folder (``thousand hands``,
  ``thousand games``);
* :mod:`sim.jobs.odds` — the deal odds beside the exact values (``thousand odds``);
* :mod:`sim.jobs.tables` — the bid and barrel tables of a run folder (``thousand
  bids``, ``thousand barrel``);
* :mod:`sim.jobs.safebids` — every dealt hand played as the declarer's by each
  player, and the safe-bid tables (``thousand safebids``);
* :mod:`sim.jobs.advise` — the bid or discard advice for one hand (``thousand advise``);
* :mod:`sim.jobs.advice_tables` — the advisor's class tables (every class dealt on purpose), and the
  offline page to tap a hand (``thousand serve``, the report's and guide's ``advisor.html``);
* :mod:`sim.jobs.solve` — the open-card value of a deal or position (``thousand solve``);
* :mod:`sim.jobs.show` — deals in the deal notation or of a trace, laid out
  (``thousand show``);
* :mod:`sim.jobs.duel` — a duplicate duel of two players (``thousand duel``);
* :mod:`sim.jobs.compare` — house rules on the same deals (``thousand compare``);
* :mod:`sim.jobs.guide` — the strategy guide, checked by its player's duel
  (``thousand guide``);
* :mod:`sim.jobs.report` — the whole report (``thousand report``);
* :mod:`sim.jobs.bench` — this machine's throughput (``thousand bench``).

Every job takes a :class:`sim.runs.folder.Feedback` for its progress bars and notices
(silent by default) and raises one of :data:`BAD_INPUT` on bad input, its message
naming the culprit. A job speaks no command line: a refusal of one of its spec's
fields is a :class:`sim.output.FieldError` naming the field (``auction: ...``), which
the command line words with its flags (``--auction: ...``,
:func:`sim.cli.common.flags_named`).
"""

from __future__ import annotations

from pathlib import Path

from sim.cards import CardParseError
from sim.engine.strategies.registry import StrategyError
from sim.notation import NotationError
from sim.output import UsageError
from sim.rules import RulesError

BAD_INPUT = (RulesError, CardParseError, UsageError, StrategyError, NotationError)
"""The errors of bad input: the command line prints their one line and exits with 2."""


def saved_chunks(out: str | Path) -> bool:
    """Whether an interrupted run writing ``out`` left finished chunks (``--resume``)."""
    from sim.batch.runner import saved_chunks as saved

    return saved(Path(out))


def stop_workers() -> None:
    """End the local worker processes the jobs started (they are idle between jobs)."""
    from sim.batch.runner import stop_workers as stop

    stop()
