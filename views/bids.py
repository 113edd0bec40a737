"""The bid tables in words: ``bids.md``, the terminal summary and the bids folder."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import polars as pl

from analysis.glossary import CONCEDED_ALL, MADE_ALL, MADE_PLAYED
from sim.i18n import _, number
from views.tables import short_rate, short_table, tables_markdown, write_tables

MARKDOWN_FILE = "bids.md"


# Title and explanation of each table, in the order bid_tables returns them.
TABLE_NOTES: dict[str, tuple[str, str]] = {
    "summary": (
        "All contracts",
        "Deals in the run, how many were redealt, and the make and concession rates "
        "over every contract. `min_n` is the smallest sample a safe bid level may use.",
    ),
    "by_contract": (
        "By contract level",
        "The contract named after the discard (at least the winning bid).",
    ),
    "by_marriage_count": (
        "By number of marriages after the discard",
        "Marriages (K+Q of one suit) the declarer held in the 8 cards left after "
        "giving one card to each opponent: 0, 1, or 2 and more.",
    ),
    "by_marriage_set": (
        "By the set of marriages after the discard",
        "`mask` is the suit bitmask (S=1, C=2, D=4, H=8), `marriage_set` its suits, "
        "`value` their summed marriage values under the run's rules.",
    ),
    "by_points_band": (
        "By the declarer's hand points",
        "Card points in the declarer's dealt 7-card hand (talon not included), in "
        "bands of 10 starting at `band_low`.",
    ),
    "by_at_100": (
        "Won at 100 versus bid up",
        "`at_100`: everybody passed and forehand took the contract at 100 without bidding.",
    ),
    "by_relative_seat": (
        "By the declarer's seat relative to the dealer",
        "`offset` = (declarer − dealer) mod players: 1 forehand (bids first), "
        "2 middle, 0 the dealer.",
    ),
    "by_seat": (
        "By the declarer's absolute seat",
        "Seats are numbered as in the run; the dealer rotates, so every seat deals equally often.",
    ),
    "safe_bids": (
        "Safe bid levels",
        "Hand class = marriages after the discard (0/1/2+) × the declarer's 7-card hand "
        "points band. For each class and threshold: `level` is the highest contract "
        "whose make rate among played contracts is at least the threshold, counting "
        "only levels with at least `min_n` played contracts (`n`, `rate` and the Wilson "
        "lower bound `ci_low` at that level beside it); the `_conservative` columns ask "
        "the Wilson lower bound to reach the threshold instead. Levels are judged one "
        "by one: a lower level need not qualify too. Null where no level qualifies. "
        "Concessions are left out here, as declarers concede their worst hands, so "
        "these levels are for contracts one intends to play.",
    ),
    "par": (
        "Made against the open-card par",
        "Only for a run made with `thousand hands --par`. By contract level: how often "
        "the run's declarers made it (`rate_all`, a concession counting as a failure) "
        "beside how often the open-card par reaches it: `par_rate` after the declarer's "
        "own discard, `par_best_rate` after the best one, every card face up and both "
        "sides playing best. The par is what the declarer can force against a defence "
        "that sees every card; weak defenders can give more than that.",
    ),
}


def bids_markdown(tables: Mapping[str, pl.DataFrame]) -> str:
    """The Markdown document of :func:`bid_tables`: a short explanation above each table."""
    intro = (
        "A *contract* is a deal that was not redealt; it was either conceded (роспись) "
        "or played. `n, made, rate` are over played contracts; `contracts, conceded, "
        "concession_rate` over all contracts; `rate_all` = made / contracts counts a "
        "concession as a failure. `ci_*`: 95 % Wilson intervals; — means no data."
    )
    return tables_markdown(tables, "# Bid success", intro, TABLE_NOTES)


def bids_short(tables: Mapping[str, pl.DataFrame], levels: int = 12) -> str:
    """What ``thousand bids`` prints by default: a few lines under 100 columns.

    The overall make and concession rates, then the make rate by contract for the
    ``levels`` contracts named most often; ``--full`` or ``--out`` give every table.
    """
    s = tables["summary"].row(0, named=True)
    head = _("# Bid success — rules `{rules}`: {deals} deals, {contracts} contracts")
    lines = [
        head.format(rules=s["rules"], deals=number(s["deals"]), contracts=number(s["contracts"])),
        "",
        f"- {_(MADE_PLAYED.words)}: {short_rate(s['rate'], s['ci_low'], s['ci_high'])}",
        f"- {_(CONCEDED_ALL.words)}: "
        f"{short_rate(s['concession_rate'], s['concession_ci_low'], s['concession_ci_high'])}",
        f"- {_(MADE_ALL.words)}: {short_rate(s['rate_all'], s['ci_low_all'], s['ci_high_all'])}",
        "",
        _("## Made by contract (the {levels} named most often)").format(levels=levels),
        "",
    ]
    t = tables["by_contract"].sort("contracts", descending=True).head(levels).sort("contract")
    shown = pl.DataFrame(
        {
            _("contract"): t["contract"],
            _("contracts"): t["contracts"],
            _("made [95 % CI]"): [
                short_rate(*r) for r in zip(t["rate"], t["ci_low"], t["ci_high"], strict=True)
            ],
            _("conceded [95 % CI]"): [
                short_rate(*r)
                for r in zip(
                    t["concession_rate"],
                    t["concession_ci_low"],
                    t["concession_ci_high"],
                    strict=True,
                )
            ],
        }
    )
    lines += [short_table(shown), "", _("Every table: `--full`, or `--out DIR` (CSV and bids.md).")]
    return "\n".join(lines)


def write_bid_tables(tables: Mapping[str, pl.DataFrame], out_dir: Path) -> None:
    """Write ``NAME.csv`` per table and ``bids.md`` into ``out_dir`` (never half-written)."""
    write_tables(tables, out_dir, MARKDOWN_FILE, bids_markdown(tables))
