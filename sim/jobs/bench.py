"""The benchmark job: this machine's throughput (``thousand bench``, :mod:`sim.runs.bench`).

:func:`bench` plays the fixed benchmark workloads and returns their document;
:func:`bench_lines` writes it as the command prints it.
"""

from __future__ import annotations

from typing import Any


def bench(quick: bool = False) -> dict[str, Any]:
    """Deals, hands and games per second, per core and on every core (``bench --json``).

    ``quick``: tiny workloads (``bench --quick``), a check that every part runs.
    """
    from sim.runs.bench import run_all

    return run_all(quick)


def bench_lines(doc: dict[str, Any]) -> list[str]:
    """The benchmark document as the command's lines."""
    from sim.runs.bench import format_bench

    return format_bench(doc)
