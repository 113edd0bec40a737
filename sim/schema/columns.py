"""The declaration of a table's columns: :class:`Column`, :class:`Table` and their builders.

Conventions:

* a **per-seat** column is declared once as ``name_{s}``: one column per seat,
  ``name_0`` .. ``name_2`` with three players (``name_3`` with four; with two players
  the ``_2`` column exists and is null);
* **types** are polars type names (``Int8`` .. ``Int64``, ``Float64``, ``Boolean``,
  ``String``); a CSV column has the type its table had before it was written; the
  keys of ``run.json`` have JSON types (``string``, ``integer``, ``object`` ...).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

SEAT = "{s}"  # the seat placeholder of a per-seat column name
_SEAT_SUFFIX = re.compile(r"_\d$")


@dataclass(frozen=True)
class Column:
    """One column (or ``run.json`` key): its name, type and meaning.

    Attributes:
        name: the column's name; ``stem_{s}`` for one column per seat.
        dtype: the polars type name (a JSON type for ``run.json`` keys).
        meaning: what it holds, one sentence (Markdown).
        extra: the table's extra cell (``run.json``: the commands that write the key;
            ``duel_seats.csv``: the format that has the column), or empty.
        group: the name of a shared set of columns described together (the rate
            columns of every bid table), or empty.
    """

    name: str
    dtype: str
    meaning: str
    extra: str = ""
    group: str = ""

    @property
    def per_seat(self) -> bool:
        """Whether this is one column per seat (``stem_{s}``)."""
        return self.name.endswith("_" + SEAT)

    def names(self, players: int) -> list[str]:
        """The real column names: ``stem_0 .. stem_{players-1}`` for a per-seat column."""
        if not self.per_seat:
            return [self.name]
        return [self.name.replace(SEAT, str(s)) for s in range(players)]


@dataclass(frozen=True)
class Table:
    """The declared columns of one output table.

    Attributes:
        key: the table's unique name (``hands.parquet``, ``bids/summary.csv``); the
            marker of its block in docs/data.md.
        file: the file's name as the command writes it (empty for a set of columns
            shared by several tables).
        command: the ``thousand`` command that writes it (empty for ``run.json``).
        columns: the columns, in the order of the documentation.
        extra: the heading of the extra cell of every column (see :class:`Column`).
        name_heading: the heading of the names' cell (``key`` for ``run.json``).
    """

    key: str
    file: str
    command: str
    columns: tuple[Column, ...]
    extra: str = ""
    name_heading: str = "column"

    def column(self, name: str) -> Column:
        """The declaration of a column, by its real name or its declared one.

        Raises:
            KeyError: when the table declares no such column.
        """
        for c in self.columns:
            if c.name == name:
                return c
        seat_name = _SEAT_SUFFIX.sub("_" + SEAT, name)
        for c in self.columns:
            if c.per_seat and c.name == seat_name:
                return c
        raise KeyError(f"{self.key}: no column {name!r}")

    def declares(self, name: str) -> bool:
        """Whether ``name`` (a real column name) is a column of this table."""
        try:
            self.column(name)
        except KeyError:
            return False
        return True

    def names(self, players: int = 3) -> list[str]:
        """Every real column name, per-seat columns expanded for ``players`` seats."""
        return [n for c in self.columns for n in c.names(players)]

    def pick(self, *names: str) -> tuple[str, ...]:
        """``names``, each checked to be a declared (not per-seat) column.

        Raises:
            KeyError: when one is not declared.
        """
        for name in names:
            if self.column(name).per_seat:
                raise KeyError(f"{self.key}: {name!r} is a per-seat column")
        return names

    def seat_columns(self, stem: str, players: int) -> list[str]:
        """``stem_0 .. stem_{players-1}`` of the declared per-seat column ``stem_{s}``.

        Raises:
            KeyError: when the table declares no such per-seat column.
        """
        column = self.column(f"{stem}_{SEAT}")
        if not column.per_seat:
            raise KeyError(f"{self.key}: {stem!r} is not a per-seat column")
        return column.names(players)

    def dtypes(self, players: int = 3) -> dict[str, str]:
        """``{real column name: type name}``."""
        return {n: c.dtype for c in self.columns for n in c.names(players)}

    def polars_schema(self, players: int = 3) -> dict[str, Any]:
        """``{real column name: polars type}`` (for building a frame of this table).

        A list column is declared ``List(Int16)``: a list of that type.
        """
        import polars as pl

        def of(name: str) -> Any:
            if name.startswith("List(") and name.endswith(")"):
                return pl.List(of(name[5:-1]))
            return getattr(pl, name)

        return {n: of(t) for n, t in self.dtypes(players).items()}

    def markdown(self) -> str:
        """The table of columns as Markdown, as docs/data.md shows it.

        Consecutive columns of the same type and meaning share a row; a row of a
        shared group (the rate columns) names its columns and the group.
        """
        head = [self.name_heading, "type", "meaning"] + ([self.extra] if self.extra else [])
        lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
        for run in _runs(self.columns):
            names = ", ".join(f"`{c.name}`" for c in run)
            if run[0].group:
                cells = [names, "", run[0].group]
            else:
                cells = [names, run[0].dtype, run[0].meaning]
            if self.extra:
                cells.append(run[0].extra)
            lines.append("|" + "|".join(f" {c} " if c else " " for c in cells) + "|")
        return "\n".join(lines) + "\n"


def _runs(columns: Iterable[Column]) -> list[list[Column]]:
    """Consecutive columns described in one row: the same group, or the same type and meaning."""
    out: list[list[Column]] = []
    for c in columns:
        if out:
            last = out[-1][-1]
            same = (c.group and c.group == last.group) or (
                not c.group
                and not last.group
                and (c.dtype, c.meaning, c.extra) == (last.dtype, last.meaning, last.extra)
            )
            if same:
                out[-1].append(c)
                continue
        out.append([c])
    return out


def cols(*specs: tuple[str, ...]) -> tuple[Column, ...]:
    """Columns from ``(name, dtype, meaning[, extra])`` tuples."""
    return tuple(Column(*spec) for spec in specs)


def same(names: str, dtype: str, meaning: str, extra: str = "") -> tuple[Column, ...]:
    """Several columns (space-separated names) of one type and meaning."""
    return tuple(Column(n, dtype, meaning, extra) for n in names.split())


def make_table(
    key: str,
    command: str,
    *columns: Column | tuple[Column, ...],
    extra: str = "",
    name_heading: str = "column",
) -> Table:
    """A :class:`Table` of ``key`` written by ``command``: the columns in order, flattened.

    The file's name is the key's last part (none for a shared set of columns, whose
    key ends in ``:rates``).
    """
    flat: list[Column] = []
    for c in columns:
        flat.extend(c if isinstance(c, tuple) else (c,))
    file = key.rpartition("/")[2] if not key.endswith(":rates") else ""
    return Table(key, file, command, tuple(flat), extra, name_heading)
