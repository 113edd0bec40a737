"""How the views write a number: one formatter per kind of number.

* :func:`interval`: a value with its 95 % interval, ``12.5 [11.8, 13.2]`` (``[11,8; 13,2]``
  where the decimal mark is a comma): the one layout of every interval the views show;
* :func:`signed`: a difference with its sign, ``+12.5`` / ``-3.0``;
* :func:`sim.i18n.number`: a plain number with its decimals, as the language writes
  it (the decimal mark, the thousands' space); the pages kit's
  :func:`views.pages.fmt_number` picks its decimals for a table cell.

Each takes its numbers already written where they are of a kind of their own (a whole
percent, a share in points of percentage), so that the layout stays in one place.
"""

from __future__ import annotations

from sim.i18n import interval_separator, number


def interval(value: str, low: str, high: str) -> str:
    """``value [low, high]``: a value and the ends of its interval, each already written."""
    return f"{value} [{low}{interval_separator()}{high}]"


def signed(v: float, places: int = 1) -> str:
    """``v`` with its sign, ``+0.50`` / ``-1.83``, as the language writes numbers.

    A value that rounds to zero keeps the sign it has (``-0.0`` for ``-0.04``).
    """
    text = number(v, places)
    return text if text.startswith("-") else "+" + text


def numbers(v: float, low: float, high: float, places: int) -> str:
    """``v [low, high]`` of plain numbers with ``places`` decimals each."""
    return interval(number(v, places), number(low, places), number(high, places))


def signed_numbers(v: float, low: float, high: float, places: int = 1) -> str:
    """``+v [+low, +high]``: a difference and its interval, each with its sign."""
    return interval(signed(v, places), signed(low, places), signed(high, places))


__all__ = ["interval", "numbers", "signed", "signed_numbers"]
