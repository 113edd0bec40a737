"""``thousand rules list`` and ``thousand rules show R``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sim.cli.common import Parser
from sim.i18n import _
from sim.rules import load_rules, preset_names


def cmd_rules_list(args: argparse.Namespace) -> int:
    """Print the shipped presets with their descriptions."""
    for name in preset_names():
        print(f"{name:<18} {load_rules(name).description}")
    return 0


def cmd_rules_show(args: argparse.Namespace) -> int:
    """Print the fully resolved TOML of a preset or file."""
    sys.stdout.write(load_rules(args.rules).to_toml())
    return 0


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``rules`` (with ``list`` and ``show``) to the ``thousand`` subparsers."""
    p_rules = subparsers.add_parser("rules", help=_("list presets or show resolved rules"))
    rules_sub = p_rules.add_subparsers(dest="rules_command", parser_class=Parser)
    p_rules.set_defaults(func=lambda args: _help(p_rules))  # `thousand rules` alone: its help
    rules_sub.add_parser("list", help=_("list the shipped presets")).set_defaults(
        func=cmd_rules_list
    )
    p_show = rules_sub.add_parser("show", help=_("print the fully resolved TOML of R"))
    p_show.add_argument("rules", help=_("preset name or TOML path"))
    p_show.set_defaults(func=cmd_rules_show)
    return p_rules
