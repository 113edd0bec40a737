"""English words marked for the catalogues, translated by the views.

A result record keeps its words in English, as its tables' data do (a measure's
``meaning``, a metric's description); :func:`N_` marks such a literal so that
``make locale`` (:func:`sim.i18n.extract`) puts it in the catalogues, and the views
translate it when they show it (``_(meaning)``). Marking translates nothing: a module
that imports only this (:mod:`analysis`) speaks no language.
"""

from __future__ import annotations


def N_(message: str) -> str:
    """Mark ``message`` for the catalogues without translating it (a table's value)."""
    return message


__all__ = ["N_"]
