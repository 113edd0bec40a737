"""The open-card (double-dummy) solver of the play phase: its Python face, above the engine.

The compiled search lives in the engine, whose sampling players call it:
:mod:`sim.engine.search` (alpha-beta on the engine's own play steps with a
transposition table, make/fail probes, the exact value by probes, root move values,
and an unpruned check) on the workspace of :mod:`sim.engine.arena`. This package
imports the engine and nothing imports it from below (``tests/test_layers.py``):

* :mod:`sim.solver.position` — play positions, their engine state, and
  :class:`~sim.solver.position.OpenCardSolver`, the Python face of the search;
* :mod:`sim.solver.talon` — the deal's par: the best talon pick, discard and trump;
* :mod:`sim.solver.deals` — the cards of played deals and their par columns.

The plain Python minimax that checks it lives in :mod:`sim.reference.solver`.
"""
