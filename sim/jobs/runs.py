"""The hands and games jobs: a run folder from a :class:`~sim.runs.folder.RunSpec`.

``thousand hands`` and ``thousand games`` build a spec and call :func:`play_into`,
the one writer of run folders (:mod:`sim.runs.folder`), which the report, the
comparisons and notebooks use too::

    from sim.jobs.runs import RunSpec, play_into
    from sim.rules import load_rules

    spec = RunSpec(kind="games", rules=load_rules("classic"), total=1000, seed=3)
    result = play_into(spec, "runs/g")
"""

from __future__ import annotations

from sim.runs.folder import QUIET, Feedback, RunResult, RunSpec, play_into

__all__ = ["QUIET", "Feedback", "RunResult", "RunSpec", "play_into"]
