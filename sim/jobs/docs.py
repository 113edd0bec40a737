"""The generated parts of the project's documentation (``make docs``).

``docs/rules.md`` holds a table of every rule option between two marker lines. The
table is made from the option metadata of :mod:`sim.rules` (each field's
``_opt(default, doc, **meta)``), so the rule book cannot drift from the code:
:func:`options_table` renders it and :func:`render` puts it between the markers.

``docs/data.md`` holds one table of columns per output file, each between
``<!-- columns:KEY -->`` and ``<!-- columns:end -->``: the table of
``analysis.schema.TABLES[KEY]`` (:func:`render_columns`), so the data reference is the
schema the code and the tests use.

``python -m sim.jobs.docs`` (``make docs``) rewrites both files (``--check`` only
reports a stale table).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from analysis.schema import TABLES
from sim.rules import _FIELD_META, RULE_KEYS, Rules, rule_doc, toml_value

OPTIONS_START = "<!-- options:start -->"
OPTIONS_END = "<!-- options:end -->"
COLUMNS_START = re.compile(r"^<!-- columns:(?!end -->)(?P<key>[^ ]+) -->$", re.M)
COLUMNS_END = "<!-- columns:end -->"
DOCS = Path(__file__).resolve().parents[2] / "docs"
RULES_DOC = DOCS / "rules.md"
"""The rule book in a source checkout (the package does not ship ``docs/``)."""
DATA_DOC = DOCS / "data.md"
"""The reference of every output column in a source checkout."""

_SECTION = re.compile(r"^(§\d+)\s+")


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell (a pipe would split the cell)."""
    return text.replace("|", "\\|")


def option_type(key: str) -> str:
    """``bool``, ``int``, ``str``, or ``int or off`` for an option that may be switched off."""
    meta = _FIELD_META[key]
    name = {bool: "bool", int: "int", str: "str"}[meta["type"]]
    return f"{name} or off" if meta.get("optional") else name


def option_values(key: str) -> str:
    """The values an option accepts: its choices, its range, or an empty string."""
    meta = _FIELD_META[key]
    if "choices" in meta:
        return " | ".join(f"`{toml_value(c)}`" for c in meta["choices"])
    lo, hi = meta.get("lo"), meta.get("hi")
    if lo is not None and hi is not None:
        return f"{lo} to {hi}"
    if lo is not None:
        return f"≥ {lo}"
    if hi is not None:
        return f"≤ {hi}"
    return ""


def options_table() -> str:
    """The Markdown table of every rule option: key, section, type, default, values, meaning.

    Rows follow :data:`sim.rules.RULE_KEYS`; defaults are those of ``Rules()`` (the
    ``classic`` preset), written as in a TOML file.
    """
    defaults = Rules().to_dict()
    lines = [
        "| key | § | type | default | values | meaning |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for key in RULE_KEYS:
        doc = rule_doc(key)
        match = _SECTION.match(doc)
        section = match.group(1) if match else ""
        meaning = doc[match.end() :] if match else doc
        values = option_values(key) or "—"
        cells = [
            f"`{key}`",
            section,
            option_type(key),
            f"`{toml_value(defaults[key])}`",
            values,
            meaning,
        ]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


def _markers(text: str) -> tuple[int, int]:
    """Where the option markers of ``text`` start.

    Raises:
        ValueError: when the markers are missing or out of order.
    """
    start = text.find(OPTIONS_START)
    end = text.find(OPTIONS_END)
    if start < 0 or end < start:
        raise ValueError(f"expected the lines {OPTIONS_START} and {OPTIONS_END}, in that order")
    return start, end


def render(text: str) -> str:
    """``text`` with the block between the option markers replaced by :func:`options_table`.

    Raises:
        ValueError: when the markers are missing or out of order.
    """
    start, end = _markers(text)
    return f"{text[: start + len(OPTIONS_START)]}\n{options_table()}{text[end:]}"


def options_block(text: str) -> str:
    """The text between the option markers of ``text`` (without the markers).

    Raises:
        ValueError: when the markers are missing or out of order.
    """
    start, end = _markers(text)
    return text[start + len(OPTIONS_START) : end].lstrip("\n")


def column_blocks(text: str) -> list[tuple[str, int, int]]:
    """The column blocks of ``text``: ``(key, start, end)`` of the text between the markers.

    Raises:
        ValueError: a block without its end marker, or a key the schema does not declare.
    """
    out = []
    for m in COLUMNS_START.finditer(text):
        key = m.group("key")
        if key not in TABLES:
            raise ValueError(f"<!-- columns:{key} -->: no such table in the schema")
        end = text.find(COLUMNS_END, m.end())
        nxt = COLUMNS_START.search(text, m.end())
        if end < 0 or (nxt is not None and nxt.start() < end):
            raise ValueError(f"<!-- columns:{key} -->: no {COLUMNS_END} after it")
        out.append((key, m.end(), end))
    return out


def render_columns(text: str) -> str:
    """``text`` with every column block replaced by its table of :mod:`sim.schema`.

    Raises:
        ValueError: a block without its end marker, or a key the schema does not declare.
    """
    parts, last = [], 0
    for key, start, end in column_blocks(text):
        parts += [text[last:start], "\n", TABLES[key].markdown()]
        last = end
    return "".join(parts) + text[last:]


def render_file(text: str) -> str:
    """Every generated block of a document rewritten: options table and column tables."""
    if OPTIONS_START in text or OPTIONS_END in text:
        text = render(text)
    return render_columns(text)


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite the generated tables of the docs; with ``--check`` only compare them.

    Returns:
        0 when every file is (now) current; 1 with ``--check`` when one is stale.
    """
    parser = argparse.ArgumentParser(prog="python -m sim.jobs.docs", description=__doc__)
    parser.add_argument(
        "paths",
        nargs="*",
        default=[str(RULES_DOC), str(DATA_DOC)],
        help="the documents (default: docs/rules.md and docs/data.md)",
    )
    parser.add_argument("--check", action="store_true", help="report a stale table, change nothing")
    args = parser.parse_args(argv)
    stale = 0
    for name in args.paths:
        path = Path(name)
        text = path.read_text(encoding="utf-8")
        new = render_file(text)
        if new == text:
            continue
        if args.check:
            print(f"{path}: a generated table is stale; run `make docs`", file=sys.stderr)
            stale = 1
            continue
        path.write_text(new, encoding="utf-8")
        print(f"{path}: generated tables rewritten", file=sys.stderr)
    return stale


if __name__ == "__main__":
    sys.exit(main())
