"""The generated parts of the project's documentation (``make docs``).

``docs/rules.md`` holds a table of every rule option between two marker lines. The
table is made from the option metadata of :mod:`sim.rules` (each field's
``_opt(default, doc, **meta)``), so the rule book cannot drift from the code:
:func:`options_table` renders it, :func:`render` puts it between the markers and
``python -m sim.docs`` rewrites the file (``--check`` only reports a stale table).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from sim.rules import _FIELD_META, RULE_KEYS, Rules, rule_doc, toml_value

OPTIONS_START = "<!-- options:start -->"
OPTIONS_END = "<!-- options:end -->"
RULES_DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
"""The rule book in a source checkout (the package does not ship ``docs/``)."""

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


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite the options table of the rule book; with ``--check`` only compare it.

    Returns:
        0 when the file is (now) current; 1 with ``--check`` when it is stale.
    """
    parser = argparse.ArgumentParser(prog="python -m sim.docs", description=__doc__)
    parser.add_argument("path", nargs="?", default=str(RULES_DOC), help="the rule book")
    parser.add_argument("--check", action="store_true", help="report a stale table, change nothing")
    args = parser.parse_args(argv)
    path = Path(args.path)
    text = path.read_text(encoding="utf-8")
    new = render(text)
    if new == text:
        return 0
    if args.check:
        print(f"{path}: the options table is stale; run `make docs`", file=sys.stderr)
        return 1
    path.write_text(new, encoding="utf-8")
    print(f"{path}: options table rewritten", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
