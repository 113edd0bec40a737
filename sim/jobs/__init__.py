"""Jobs: what a command does, as a library call a notebook can make (issue 23).

A job takes a typed, frozen spec (never the command line's arguments), plays the runs
it needs and computes its result; the command line builds the spec from its
arguments, calls the job and prints or writes the result. Above the runs and the
analysis, below the command line (``tests/test_layers.py``).

* :mod:`sim.jobs.safebids` — :class:`~sim.jobs.safebids.SafeBidsSpec` and
  :func:`~sim.jobs.safebids.safebids`: every dealt hand played as the declarer's by
  each player, on the run's seed and a held-out seed; the tables of
  :mod:`analysis.safebids`. ``thousand safebids`` and the report's safe-bid section
  call it.
"""
