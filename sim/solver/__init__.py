"""The open-card (double-dummy) solver of the play phase.

* :mod:`sim.solver.search` — the compiled search on the engine's own play steps:
  alpha-beta with a transposition table, make/fail probes, the exact value by
  probes, root move values, and an unpruned check;
* :mod:`sim.solver.position` — play positions, their engine state, and
  :class:`~sim.solver.position.OpenCardSolver`, the Python face of the search;
* :mod:`sim.solver.talon` — the deal's par: the best talon pick, discard and trump;
* :mod:`sim.solver.deals` — the cards of played deals and their par columns.

The plain Python minimax that checks it lives in :mod:`sim.reference.solver`.
"""
