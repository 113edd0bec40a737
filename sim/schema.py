"""Every column of every table the toolkit writes: name, type and meaning, declared once.

The Parquet files of the runs (``hands.parquet``, ``hands_agg.parquet``,
``games.parquet``, ``barrel.parquet``, the duel's per-item files), the keys of
``run.json`` and the CSV tables of ``odds``, ``bids``, ``barrel``, ``compare``,
``duel`` and ``report`` are each a :class:`Table` of :class:`Column` declarations in
:data:`TABLES`. ``docs/data.md`` shows them (``make docs`` writes its column tables
from here, :mod:`sim.docs`), the readers in :mod:`analysis` take the columns they
need from here, and a test checks every column of real outputs against its
declaration, type included.

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
        """``{real column name: polars type}`` (for building a frame of this table)."""
        import polars as pl

        return {n: getattr(pl, t) for n, t in self.dtypes(players).items()}

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


def _cols(*specs: tuple[str, ...]) -> tuple[Column, ...]:
    """Columns from ``(name, dtype, meaning[, extra])`` tuples."""
    return tuple(Column(*spec) for spec in specs)


def _same(names: str, dtype: str, meaning: str, extra: str = "") -> tuple[Column, ...]:
    """Several columns (space-separated names) of one type and meaning."""
    return tuple(Column(n, dtype, meaning, extra) for n in names.split())


def _table(
    key: str,
    command: str,
    *columns: Column | tuple[Column, ...],
    extra: str = "",
    name_heading: str = "column",
) -> Table:
    flat: list[Column] = []
    for c in columns:
        flat.extend(c if isinstance(c, tuple) else (c,))
    file = key.rpartition("/")[2] if not key.endswith(":rates") else ""
    return Table(key, file, command, tuple(flat), extra, name_heading)


# --- deal runs: thousand hands --------------------------------------------------------------
HANDS = _table(
    "hands.parquet",
    "hands",
    _cols(
        ("deal_id", "Int64", "the deal number, 0 .. deals − 1 (repeated on redeals)"),
        (
            "attempt",
            "Int16",
            "0 for the first deal of this number, 1, 2 … for the redeals that followed",
        ),
        ("dealer", "Int8", "the dealer's seat (deal number mod players)"),
        ("reshuffled", "Boolean", "true when this deal was thrown in and dealt again (§3)"),
        ("reshuffle_seat", "Int8", "the player who asked for the redeal; null otherwise"),
        (
            "reshuffle_reason",
            "String",
            "why: `hand_points_below`, `hand_nines`, "
            "`hand_four_jacks`, `talon_points_below`, `talon_two_nines`, `talon_three_jacks`, "
            "`after_discard_four_nines`, `after_discard_points_below`; null otherwise",
        ),
        ("declarer", "Int32", "the seat that won the bidding"),
        ("winning_bid", "Int32", "the winning bid"),
        ("contract", "Int32", "the contract named after the discard (at least the winning bid)"),
        (
            "declarer_total",
            "Int32",
            "the declarer's card points plus counted marriages, unrounded; 0 when conceded",
        ),
        (
            "talon_points",
            "Int32",
            "card points of the talon (two players: of the talon the declarer took)",
        ),
        ("talon_marriages", "Int32", "suit bitmask of the marriages lying in that talon"),
        (
            "declarer_marriages_after",
            "Int32",
            "suit bitmask of the marriages in the declarer's cards after the discard",
        ),
        ("discard_1", "Int32", "card id the declarer gave to the next player clockwise"),
        ("discard_2", "Int32", "card id given to the player after that; −1 with two players"),
        (
            "trump_named",
            "Int32",
            "suit id (0..3) the declarer named under `trump.named_by_declarer`, −1 none",
        ),
        (
            "talon_pick",
            "Int32",
            "two players only: which talon the declarer took, 0 the first, 1 the second",
        ),
        (
            "last_talon_to",
            "Int32",
            "two players only: the seat that got the other talon with "
            "the last trick, −1 when conceded",
        ),
        (
            "hand_points_{s}",
            "Int32",
            "card points of the seat's dealt hand (7 cards; 10 with "
            "two players; 0 for a four-player dealer)",
        ),
        ("marriages_held_{s}", "Int32", "suit bitmask of the marriages in the seat's dealt hand"),
        (
            "max_bid_{s}",
            "Int32",
            "the highest amount the seat bid (forehand at least 100); 0 if it never bid",
        ),
        (
            "card_points_{s}",
            "Int32",
            "card points the seat won in tricks (four players: the "
            "dealer's are the talon's points)",
        ),
        (
            "marriage_points_{s}",
            "Int32",
            "points of the marriages the seat declared and that "
            "counted (four players: the dealer's are the marriages lying in the talon)",
        ),
        (
            "declared_{s}",
            "Int32",
            "suit bitmask of the marriages the seat declared, +16 for the ace marriage",
        ),
        ("tricks_{s}", "Int32", "tricks the seat won"),
        (
            "delta_{s}",
            "Int32",
            "the seat's score change from this deal alone (contract, "
            "rounded points, concession amounts, four-nines bonus), before game effects",
        ),
        ("at_100", "Boolean", "the contract was won at 100 with nobody bidding"),
        ("conceded", "Boolean", "the declarer conceded instead of playing (§5)"),
        ("made", "Boolean", "the declarer made the contract (false when conceded)"),
        ("talon_shown", "Boolean", "the opponents saw the talon"),
        ("bolt_{s}", "Boolean", "the seat got a bolt in this deal (§7)"),
        (
            "special",
            "String",
            "null for an ordinary deal; `golden` or `dark` (never in a `hands` run)",
        ),
        (
            "par_total",
            "Int32",
            "only with `--par`: the declarer's open-card total after its own discard "
            "(every card face up, best play by both sides; `thousand solve`)",
        ),
        (
            "par_best",
            "Int32",
            "only with `--par`: the open-card total after the best talon pick, discard "
            "and trump name (what a declarer can force against a defence that sees every card)",
        ),
    ),
)

# The columns of hands.parquet the bid tables read (their keys), and what
# `thousand hands --aggregate-only` counts deals by.
BID_KEYS = HANDS.pick(
    "dealer",
    "reshuffled",
    "declarer",
    "at_100",
    "contract",
    "conceded",
    "made",
    "declarer_marriages_after",
)

HANDS_AGG = _table(
    "hands_agg.parquet",
    "hands",
    tuple(Column(n, HANDS.column(n).dtype, "as in `hands.parquet`") for n in BID_KEYS),
    _cols(
        ("declarer_hand_points", "Int32", "`hand_points_{s}` of the declarer's seat"),
        ("count", "Int64", "deals with exactly these values"),
    ),
)

# --- game runs: thousand games -------------------------------------------------------------
GAMES = _table(
    "games.parquet",
    "games",
    _cols(
        ("game_id", "Int64", "the game number, 0 .. games − 1"),
        ("first_dealer", "Int8", "the seat that dealt first"),
        ("n_deals", "Int32", "deals played or conceded (redeals not counted)"),
        ("winner", "Int8", "the winner's seat; −1 for an unfinished game"),
        ("unfinished", "Boolean", "the game was stopped undecided after 1000 played deals"),
        ("redeals", "Int32", "deals thrown in and dealt again"),
        (
            "n_stints",
            "Int32",
            "barrel stints in the game (`barrel.parquet` keeps the first 64 of a game)",
        ),
        ("golden_reset", "Boolean", "a golden round ended with every score reset (§10)"),
        ("golden_deals", "Int32", "golden deals played"),
        ("dark_deals", "Int32", "dark deals played"),
        ("contracts", "Int32", "contracts (deals played or conceded)"),
        ("contracts_made", "Int32", "contracts made"),
        ("contracts_conceded", "Int32", "contracts conceded"),
        ("contract_sum", "Int32", "the sum of all contracts (for the mean contract)"),
        ("score_{s}", "Int32", "final score of the seat"),
        (
            "barrel_entries_{s}",
            "Int32",
            "times the seat got onto the barrel (a climber who fell at once counts too)",
        ),
        ("barrel_falls_{s}", "Int32", "falls from the barrel, any cause"),
        ("bolt_penalties_{s}", "Int32", "bolt penalties charged (how many, not points)"),
        ("samosvals_{s}", "Int32", "555 resets"),
        ("concessions_{s}", "Int32", "concessions made"),
        ("dark_won_{s}", "Int32", "dark deals the seat declared and made"),
        ("dark_lost_{s}", "Int32", "dark deals the seat declared and lost (or conceded)"),
        (
            "nine_cut_penalties_{s}",
            "Int32",
            "times the seat was charged for a third bottom nine at the cut (§2)",
        ),
        (
            "bank_{s}",
            "Float64",
            "the bank payoff (§8): +bank for the winner, −bank (shared on "
            "a tie) for the lowest score, 0 otherwise and without `game.bank`",
        ),
    ),
)

BARREL = _table(
    "barrel.parquet",
    "games",
    _cols(
        ("game_id", "Int64", "the game"),
        ("seat", "Int8", "the player on the barrel"),
        (
            "entered_deal",
            "Int32",
            "index of the played deal in which the player climbed on "
            "(0-based, redeals not counted)",
        ),
        (
            "deals_on_barrel",
            "Int32",
            "deals played while on the barrel, the deal that ended the stint included",
        ),
        (
            "outcome",
            "String",
            "`won` (made the winning contract), `fell_attempts` (ran out of "
            "attempts), `knocked_off` (another player climbed on, or a golden reset), "
            "`fell_simultaneous` (fell on climbing together with another player: 0 deals), "
            "`game_over` (still on when the game ended)",
        ),
    ),
)

# --- run.json ----------------------------------------------------------------------------
RUN_JSON = _table(
    "run.json",
    "",
    _cols(
        ("rules_name", "string", "the preset or file name of the rules", "all"),
        ("rules_hash", "string", "16 hex digits: a hash of every option value", "all"),
        ("rules", "object", 'every option, `{"section.key": value}`, `null` for off', "all"),
        ("seed", "integer", "the run's seed", "all"),
        (
            "sizes",
            "object",
            "the run's sizes: `deals`, `rows` (hands); `games`, `stints`, "
            "`unfinished` (games); `deals` (odds); `games`, `rule_sets` (compare); `deals` or "
            "`games` (duel); `odds_deals`, `hands_deals`, `games` (report); `deals_PLAYER` "
            "(safebids); `deals`, `hands`, `games`, `duel_deals` (guide)",
            "all",
        ),
        (
            "engine_version",
            "string",
            "the version of the rules engine; it changes whenever play changes",
            "all",
        ),
        ("toolkit_version", "string", "the package version", "all"),
        ("versions", "object", "versions of Python, numpy, numba, polars, pyarrow", "all"),
        ("command", "string", "the command that made the folder", "all"),
        (
            "strategies",
            "array or string",
            "one strategy name per seat (compare: the one name)",
            "hands, games, compare, report",
        ),
        ("params", "array", "the `--param` settings", "hands, games, compare, safebids"),
        (
            "players",
            "array",
            "the players of the tables (strategies and `par`)",
            "safebids, guide",
        ),
        (
            "risk",
            "number",
            "the make rate the guide player's bid chart needs",
            "guide",
        ),
        (
            "holdout_seed",
            "integer or null",
            "the seed of the held-out check's hands (null: none)",
            "safebids",
        ),
        ("aggregate_only", "boolean", "whether only `hands_agg.parquet` was kept", "hands"),
        ("par", "boolean", "present (true) when `--par` added the par columns", "hands"),
        (
            "first_dealer",
            "integer or null",
            "the fixed first dealer, null when drawn per game",
            "games, duel",
        ),
        (
            "backend",
            "string",
            "`serial`, `local` (worker processes) or `dask`",
            "hands, games, compare",
        ),
        ("workers", "integer", "worker processes or Dask workers", "hands, games, compare"),
        (
            "scheduler",
            "string",
            "the Dask scheduler (`local` or its address)",
            "hands, games, compare on Dask",
        ),
        ("chunk_size", "integer", "items per chunk", "hands, games"),
        (
            "chunks",
            "integer",
            "number of chunks",
            "hands, games (and each of compare's `runs/NAME`)",
        ),
        ("vs", "object", "the other rule sets, `{name: rules}`", "compare"),
        ("format", "string", "`hands` or `games`", "duel"),
        ("a", "object", "the contestants: `strategy`, every resolved `params`, `label`", "duel"),
        ("b", "object", "the contestants: `strategy`, every resolved `params`, `label`", "duel"),
        (
            "parts",
            "object",
            "the report's hands and games runs: their command, seed, sizes, "
            "strategies, params, seconds, engine version",
            "report",
        ),
        ("started", "string", "UTC times, ISO 8601", "all"),
        ("ended", "string", "UTC times, ISO 8601", "all"),
        ("seconds", "number", "wall-clock time of the run", "all but report"),
    ),
    extra="written by",
    name_heading="key",
)

_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list, tuple),
    "null": (type(None),),
}


def check_run_json(doc: dict[str, Any]) -> None:
    """Check a ``run.json`` document against :data:`RUN_JSON` before it is written.

    Every key must be declared, hold a value of its declared JSON type (``"integer or
    null"``: either), and every key written by ``all`` commands must be there.

    Raises:
        ValueError: naming the first undeclared, missing or mistyped key.
    """
    declared = {c.name: c for c in RUN_JSON.columns}
    for key, value in doc.items():
        column = declared.get(key)
        if column is None:
            raise ValueError(f"run.json: key {key!r} is not declared in sim.schema.RUN_JSON")
        kinds = [t.strip() for t in column.dtype.split(" or ")]
        types = tuple(t for k in kinds for t in _JSON_TYPES[k])
        # a bool is an int to Python, never an integer or number to JSON
        if not isinstance(value, types) or (isinstance(value, bool) and "boolean" not in kinds):
            raise ValueError(
                f"run.json: key {key!r} holds {type(value).__name__}, declared {column.dtype}"
            )
    missing = [c.name for c in RUN_JSON.columns if c.extra == "all" and c.name not in doc]
    if missing:
        raise ValueError(f"run.json: missing {', '.join(missing)}")


# --- deal odds: thousand odds ------------------------------------------------------------
ODDS = _table(
    "odds.csv",
    "odds",
    _cols(
        ("key", "String", "the odds key, e.g. `hand.any_marriage`"),
        ("meaning", "String", "what it counts, in words"),
        ("hits", "Int64", "simulated deals where it happened"),
        ("deals", "Int64", "simulated deals"),
        ("estimate", "Float64", "`hits / deals`"),
        ("ci_low", "Float64", "its 95 % Wilson interval"),
        ("ci_high", "Float64", "its 95 % Wilson interval"),
        ("exact", "Float64", "the exact probability; empty where none is computed"),
        (
            "z",
            "Float64",
            "`(estimate − exact) / standard error at the exact value`; empty without `exact`",
        ),
    ),
)

# --- bid tables: thousand bids -------------------------------------------------------------
_RATES = "the rate columns"
BID_RATES = _table(
    "bids:rates",
    "bids",
    _cols(
        ("n", "Int64", "contracts played (not conceded)"),
        ("made", "Int64", "contracts made"),
        ("rate", "Float64", "`made / n`: the make rate of played contracts"),
        ("ci_low", "Float64", "its interval"),
        ("ci_high", "Float64", "its interval"),
        ("contracts", "Int64", "all contracts, conceded ones included"),
        ("conceded", "Int64", "contracts conceded"),
        ("concession_rate", "Float64", "`conceded / contracts`"),
        ("concession_ci_low", "Float64", "its interval"),
        ("concession_ci_high", "Float64", "its interval"),
        ("rate_all", "Float64", "`made / contracts`: a concession counted as a failure"),
        ("ci_low_all", "Float64", "its interval"),
        ("ci_high_all", "Float64", "its interval"),
    ),
)
"""The rate columns every bid table but ``safe_bids`` ends with (a shared part, no file)."""

BID_RATE_COLUMNS = tuple(c.name for c in BID_RATES.columns)
"""The names of the rate columns, in order."""


def _with_rates(key: str, *columns: Column | tuple[Column, ...]) -> Table:
    rates = tuple(Column(c.name, c.dtype, c.meaning, group=_RATES) for c in BID_RATES.columns)
    return _table(key, "bids", *columns, rates)


BIDS_SUMMARY = _with_rates(
    "bids/summary.csv",
    _same("rules rules_hash", "String", "the run's rules"),
    _cols(
        ("deals", "Int64", "rows of the run (dealt deals, redeals included)"),
        ("reshuffled", "Int64", "redealt deals"),
        ("min_n", "Int64", "the `--min-n` used for `safe_bids`"),
    ),
)
BIDS_BY_CONTRACT = _with_rates(
    "bids/by_contract.csv", Column("contract", "Int64", "the contract level")
)
BIDS_BY_MARRIAGE_COUNT = _with_rates(
    "bids/by_marriage_count.csv",
    Column(
        "marriages",
        "String",
        "marriages in the declarer's cards after the discard: `0`, `1` or `2+`",
    ),
)
BIDS_BY_MARRIAGE_SET = _with_rates(
    "bids/by_marriage_set.csv",
    _cols(
        ("marriages", "Int64", "how many marriages the set holds"),
        ("value", "Int64", "their summed values under the run's `marriage.values`"),
        ("mask", "Int64", "the suit bitmask"),
        ("marriage_set", "String", "the suits, e.g. `C+H`, or `none`"),
    ),
)
BIDS_BY_POINTS_BAND = _with_rates(
    "bids/by_points_band.csv",
    _cols(
        (
            "band_low",
            "Int64",
            "lower end of a band of 10 card points in the declarer's dealt "
            "hand (talon not included)",
        ),
        ("points_band", "String", "the band as text, e.g. `30-39`"),
    ),
)
BIDS_BY_AT_100 = _with_rates(
    "bids/by_at_100.csv",
    _cols(
        ("at_100", "Boolean", "the contract was won at 100 with nobody bidding"),
        ("how_won", "String", "`at 100` or `bid up`"),
    ),
)
BIDS_BY_RELATIVE_SEAT = _with_rates(
    "bids/by_relative_seat.csv",
    _cols(
        ("position", "String", "`forehand`, `middle`, `rear` (four players) or `dealer`"),
        ("offset", "Int64", "(declarer − dealer) mod players: 1 forehand … 0 the dealer"),
    ),
)
BIDS_BY_SEAT = _with_rates(
    "bids/by_seat.csv", Column("seat", "Int64", "the declarer's seat number")
)
BIDS_PAR = _table(
    "bids/par.csv",
    "bids",
    _cols(
        ("contract", "Int64", "the contract level"),
        ("contracts", "Int64", "contracts at that level (played or conceded)"),
        ("made", "Int64", "contracts the run's declarers made"),
        ("rate_all", "Float64", "`made / contracts`: a concession counts as a failure"),
        ("ci_low_all", "Float64", "95 % Wilson interval of `rate_all`, lower end"),
        ("ci_high_all", "Float64", "95 % Wilson interval of `rate_all`, upper end"),
        (
            "par_made",
            "Int64",
            "contracts whose `par_total` reaches them: the declarer's own discard, then "
            "best open-card play by both sides",
        ),
        ("par_rate", "Float64", "`par_made / contracts`"),
        ("par_ci_low", "Float64", "its 95 % Wilson interval, lower end"),
        ("par_ci_high", "Float64", "its 95 % Wilson interval, upper end"),
        ("par_best_made", "Int64", "contracts whose `par_best` reaches them (the best discard)"),
        ("par_best_rate", "Float64", "`par_best_made / contracts`"),
        ("par_best_ci_low", "Float64", "its 95 % Wilson interval, lower end"),
        ("par_best_ci_high", "Float64", "its 95 % Wilson interval, upper end"),
    ),
)
BIDS_SAFE_BIDS = _table(
    "bids/safe_bids.csv",
    "bids",
    _cols(
        ("marriages", "String", "`0`, `1` or `2+`"),
        ("band_low", "Int64", "lower end of the points band, as in `by_points_band.csv`"),
        ("points_band", "String", "the points band as text, as in `by_points_band.csv`"),
        ("n_class", "Int64", "played contracts of the class"),
        ("threshold", "Float64", "the make rate asked for: 0.5, 0.75 or 0.9"),
        ("level", "Int64", "the highest contract whose make rate reaches the threshold"),
        ("n", "Int64", "played contracts at that level"),
        ("rate", "Float64", "their make rate"),
        ("ci_low", "Float64", "the lower end of its interval"),
        (
            "level_conservative",
            "Int64",
            "the highest contract whose interval's *lower end* reaches the threshold",
        ),
        ("n_conservative", "Int64", "played contracts at that level"),
        ("rate_conservative", "Float64", "their make rate"),
        ("ci_low_conservative", "Float64", "the lower end of its interval"),
    ),
)

# --- safe bids from the hand before the talon: thousand safebids ----------------------------
_PLAYER = ("player", "String", "who played: a strategy at every seat, or `par` (open-card)")
_CLASS_KEY_COLUMNS = {
    "marriages": ("marriages", "String", "the marriages in the 7 cards: `none`, or suits (`♥♠`)"),
    "aces": ("aces", "Int64", "aces in the 7 cards"),
    "tens": ("tens", "Int64", "tens in the 7 cards"),
    "points_band": (
        "points_band",
        "Int64",
        "card points of the 7 cards, lower end of a band of 10",
    ),
    "position": (
        "position",
        "String",
        "the declarer's seat: `forehand`, `middle`, `dealer` (4 players: `rear`; 2: no `middle`)",
    ),
}
_SAFE_CLASSES = {
    "by_marriages": ("marriages",),
    "by_marriages_aces": ("marriages", "aces"),
    "by_aces_tens": ("aces", "tens"),
    "by_points": ("points_band",),
    "by_position": ("position",),
}
_ITEM_COLUMNS = _cols(
    _PLAYER,
    ("deal", "Int64", "the deal's number in the run (its three hands share it)"),
    _CLASS_KEY_COLUMNS["position"],
    ("dealt", "Int64", "the declarer's dealt hand, a card mask (bit `suit * 6 + rank`)"),
    _CLASS_KEY_COLUMNS["marriages"],
    _CLASS_KEY_COLUMNS["aces"],
    _CLASS_KEY_COLUMNS["tens"],
    ("points", "Int64", "card points of the 7 cards"),
    _CLASS_KEY_COLUMNS["points_band"],
    ("cap", "Int64", "the highest bid the 7 cards allow (120 + marriages, `bid.cap_by_marriages`)"),
    (
        "made_to",
        "Int64",
        "the highest bid level the hand makes (0: none); it makes every level up to it",
    ),
    ("total", "Int64", "the deal total: card points and marriages (the par: its best total)"),
    ("concede_from", "Int64", "the lowest level the player would concede (0: none; null: par)"),
    ("contract", "Int64", "the contract the player named itself after the talon (null: par)"),
)
SAFEBIDS_ITEMS = _table("safebids/items.parquet", "safebids", _ITEM_COLUMNS)
SAFEBIDS_HOLDOUT = _table("safebids/holdout_items.parquet", "safebids", _ITEM_COLUMNS)
SAFEBIDS_PLAYERS = _table(
    "safebids/players.csv",
    "safebids",
    _cols(
        _PLAYER,
        ("deals", "Int64", "deals played (each gives every dealt hand as the declarer's)"),
        ("hands", "Int64", "dealt hands played as the declarer's"),
        ("mean_total", "Float64", "their mean deal total"),
        ("se_total", "Float64", "its standard error"),
        ("who", "String", "the player in words"),
    ),
)


def _safe_table(name: str, keys: tuple[str, ...]) -> Table:
    return _table(
        f"safebids/safe_{name}.csv",
        "safebids",
        _cols(
            _PLAYER,
            *(_CLASS_KEY_COLUMNS[k] for k in keys),
            ("n", "Int64", "hands of the class"),
            ("rate_100", "Float64", "the share that makes the lowest bid, 100"),
            (
                "safe_50",
                "Int64",
                "the highest level whose make rate's 95 % interval starts at or above 50 % "
                "(null: none)",
            ),
            ("safe_75", "Int64", "the same at 75 %"),
            ("safe_90", "Int64", "the same at 90 %"),
        ),
    )


def _curve_table(name: str, keys: tuple[str, ...]) -> Table:
    return _table(
        f"safebids/curve_{name}.csv",
        "safebids",
        _cols(
            _PLAYER,
            *(_CLASS_KEY_COLUMNS[k] for k in keys),
            ("level", "Int64", "the bid level, every legal one up to the class's highest cap"),
            ("n", "Int64", "hands of the class (the same at every level)"),
            ("made", "Int64", "hands that make the level"),
            ("rate", "Float64", "`made / n`"),
            ("ci_low", "Float64", "95 % Wilson interval, lower end"),
            ("ci_high", "Float64", "95 % Wilson interval, upper end"),
        ),
    )


SAFEBIDS_SAFE = {name: _safe_table(name, keys) for name, keys in _SAFE_CLASSES.items()}
SAFEBIDS_CURVES = {name: _curve_table(name, keys) for name, keys in _SAFE_CLASSES.items()}
SAFEBIDS_CALIBRATION = _table(
    "safebids/calibration.csv",
    "safebids",
    _cols(
        _PLAYER,
        _CLASS_KEY_COLUMNS["marriages"],
        ("level", "Int64", "the bid level"),
        ("n_train", "Int64", "hands of the class in the run"),
        ("made_train", "Int64", "of them, hands that make the level"),
        ("predicted", "Float64", "the run's make rate: the prediction"),
        ("pred_low", "Float64", "its 95 % Wilson interval, lower end"),
        ("pred_high", "Float64", "its 95 % Wilson interval, upper end"),
        ("n_test", "Int64", "hands of the class in the held-out run"),
        ("made_test", "Int64", "of them, hands that make the level"),
        ("observed", "Float64", "the held-out make rate"),
        ("z", "Float64", "(observed − predicted) over the pooled standard error of the two"),
        ("inside", "Boolean", "whether the observed rate lies in the predicted interval"),
    ),
)
SAFEBIDS_CALIBRATION_SUMMARY = _table(
    "safebids/calibration_summary.csv",
    "safebids",
    _cols(
        _PLAYER,
        ("cells", "Int64", "class-level cells with 30 or more hands on both seeds"),
        ("within_2se", "Int64", "cells with `|z| <= 1.96`"),
        ("share_within_2se", "Float64", "`within_2se / cells` (about 0.95 when calibrated)"),
        ("max_abs_z", "Float64", "the largest `|z|`"),
    ),
)
SAFEBIDS_CALIBRATION_BINS = _table(
    "safebids/calibration_bins.csv",
    "safebids",
    _cols(
        _PLAYER,
        ("bin", "Float64", "lower end of the predicted-rate bin (width 0.1)"),
        ("predicted", "Float64", "the cells' predicted rate, weighted by held-out hands"),
        ("hands", "Int64", "held-out hands (over the bin's cells and levels, each cell 30+ hands)"),
        ("made", "Int64", "of them, made"),
        ("observed", "Float64", "`made / hands`"),
        ("ci_low", "Float64", "95 % Wilson interval, lower end"),
        ("ci_high", "Float64", "95 % Wilson interval, upper end"),
    ),
)
SAFEBIDS_EXAMPLES = _table(
    "report/safebids_examples.csv",
    "report",
    _cols(
        ("hand", "String", "the example hand (forehand's 7 cards)"),
        ("player", "String", "who played the sampled deals: `strong`, `heuristic` or `par`"),
        ("deals", "Int64", "sampled deals of the unseen cards"),
        ("P(make 100) [95 % CI]", "String", "the share of deals the hand makes 100, with interval"),
        ("P(make 120) [95 % CI]", "String", "the same for 120"),
        ("bid up to (75 %)", "String", "the highest level whose interval starts at 75 % or more"),
        ("best contract", "String", "the contract of the best expected score, or `pass`"),
        (
            "passing scores [95 % CI]",
            "String",
            "the hand's mean deal score as a defender when it passes, with interval",
        ),
    ),
)

# --- barrel tables: thousand barrel -----------------------------------------------------------
BARREL_SUMMARY = _table(
    "barrel/summary.csv",
    "barrel",
    _same("rules rules_hash", "String", "the run's rules"),
    _same(
        "players target barrel_at barrel_attempts",
        "Int64",
        "players, `game.target`, `barrel.at`, `barrel.attempts` of the run",
    ),
    _cols(
        ("games_requested", "Int64", "the games asked for"),
        *(
            (n, "Int64", "games in the file, finished and unfinished")
            for n in ("games", "finished", "unfinished")
        ),
        ("unfinished_share", "Float64", "`unfinished / games`"),
        ("deals", "Int64", "played deals over all games"),
        ("barrel_entries", "Int64", "climbs counted in `games.parquet`"),
        ("stints", "Int64", "rows of `barrel.parquet` (should equal `barrel_entries`)"),
        ("barrel_falls", "Int64", "falls counted in `games.parquet`"),
        ("fall_stints", "Int64", "stints that ended in a fall (should equal `barrel_falls`)"),
    ),
)
BARREL_OUTCOMES = _table(
    "barrel/barrel_outcomes.csv",
    "barrel",
    _cols(
        ("outcome", "String", "how the stint ended (as in `barrel.parquet`)"),
        ("stints", "Int64", "stints ending that way"),
        ("n", "Int64", "all stints"),
    ),
    _same("share ci_low ci_high", "Float64", "`stints / n` and its interval"),
    Column("mean_deals_on_barrel", "Float64", "how long those stints lasted, in deals"),
)
BARREL_BARREL_SUMMARY = _table(
    "barrel/barrel_summary.csv",
    "barrel",
    _same(
        "stints won fell game_over",
        "Int64",
        "all stints; won; fell (any cause); cut short by the end of the game",
    ),
    Column("resolved", "Int64", "`won + fell`"),
    _same("fall_rate fall_ci_low fall_ci_high", "Float64", "`fell / stints` and its interval"),
    _same(
        "win_rate_resolved win_ci_low win_ci_high", "Float64", "`won / resolved` and its interval"
    ),
    _same(
        "mean_deals_on_barrel se_deals_on_barrel",
        "Float64",
        "mean stint length in deals and its standard error",
    ),
)
BARREL_ATTEMPTS_USED = _table(
    "barrel/attempts_used.csv",
    "barrel",
    Column("deals_on_barrel", "Int64", "stint length in deals, every value from 0 to the longest"),
    _cols(
        ("stints", "Int64", "stints of that length"),
        ("share", "Float64", "their share of all stints"),
    ),
    _same(
        "won fell_attempts knocked_off fell_simultaneous game_over",
        "Int64",
        "those stints by outcome",
    ),
)
BARREL_CLIMB_BACK = _table(
    "barrel/climb_back.csv",
    "barrel",
    _cols(
        (
            "first_fall",
            "String",
            "how the first fall happened: `any` (all), `fell_attempts`, "
            "`knocked_off`, `fell_simultaneous`, or `unrecorded` (falls without a stint row)",
        ),
        ("players_fell", "Int64", "such players"),
        ("climbed_back", "Int64", "of them, those who climbed on again later"),
    ),
    _same("share ci_low ci_high", "Float64", "`climbed_back / players_fell` and its interval"),
)
BARREL_GAME_LENGTH = _table(
    "barrel/game_length.csv",
    "barrel",
    _same("games finished unfinished", "Int64", "all games, finished, unfinished"),
    Column("unfinished_share", "Float64", "`unfinished / games`"),
    _same(
        "mean se sd",
        "Float64",
        "played deals per finished game: mean, its standard error, standard deviation",
    ),
    _same("min max", "Int64", "shortest and longest finished game"),
    _same("q05 q25 q50 q75 q95", "Float64", "quantiles (linear interpolation)"),
)
BARREL_LENGTH_HISTOGRAM = _table(
    "barrel/length_histogram.csv",
    "barrel",
    _same("bin_low bin_high", "Int64", "a bin of 5 played deals"),
    _cols(
        ("deals", "String", "the bin as text, e.g. `40-44`"),
        ("games", "Int64", "finished games in the bin"),
    ),
    _same(
        "share cumulative_share", "Float64", "their share of finished games, and the running total"
    ),
)
BARREL_SEAT_RELATIVE = _table(
    "barrel/seat_relative.csv",
    "barrel",
    _cols(
        (
            "position",
            "String",
            "the winner's place in the game's first deal: `forehand`, `middle`, `rear`, `dealer`",
        ),
        ("offset", "Int64", "(winner − first dealer) mod players"),
    ),
    _same("wins games", "Int64", "games won from that place; finished games with a winner"),
    _same("rate ci_low ci_high", "Float64", "`wins / games` and its interval"),
    Column("expected", "Float64", "the fair share, 1 / players"),
)
BARREL_SEAT_ABSOLUTE = _table(
    "barrel/seat_absolute.csv",
    "barrel",
    Column("seat", "Int64", "the winner's seat number"),
    _same("wins games", "Int64", "as in `seat_relative.csv`"),
    _same("rate ci_low ci_high expected", "Float64", "as in `seat_relative.csv`"),
)
BARREL_SEAT_CHI2 = _table(
    "barrel/seat_chi2.csv",
    "barrel",
    _cols(
        ("test", "String", "`relative to first dealer` or `absolute seat`"),
        ("games", "Int64", "finished games tested"),
        ("statistic", "Float64", "Pearson's chi-square of the win counts against an even split"),
        ("dof", "Int64", "degrees of freedom, players − 1"),
        ("p_value", "Float64", "the chi-square tail probability"),
    ),
)
BARREL_EVENTS_PER_GAME = _table(
    "barrel/events_per_game.csv",
    "barrel",
    _cols(
        (
            "event",
            "String",
            "`bolt_penalties`, `samosvals`, `concessions`, `barrel_entries`, "
            "`barrel_falls`, `golden_resets`, `dark_won`, `dark_lost`",
        ),
        ("source", "String", "the `games.parquet` columns counted"),
        ("meaning", "String", "the event in words"),
        ("games", "Int64", "finished games"),
        ("total", "Int64", "events in them"),
    ),
    _same("mean se", "Float64", "events per game and its standard error"),
    _cols(
        ("per_100_deals", "Float64", "events per 100 played deals"),
        ("games_with", "Int64", "games with at least one"),
    ),
    _same("share_with ci_low ci_high", "Float64", "`games_with / games` and its interval"),
)

# --- house rules compared: thousand compare ---------------------------------------------------
_COMPARED = _cols(
    ("metric", "String", "the metric's name"),
    ("meaning", "String", "the metric in words"),
    ("rules", "String", "the base rule set (`--rules`)"),
    ("vs", "String", "the compared rule set"),
)
COMPARE = _table(
    "compare.csv",
    "compare",
    _COMPARED,
    _same(
        "base base_ci_low base_ci_high",
        "Float64",
        "the metric under the base rules and its interval",
    ),
    _same("other other_ci_low other_ci_high", "Float64", "the same under the compared rules"),
    _same(
        "diff diff_ci_low diff_ci_high",
        "Float64",
        "`other − base` and its interval from the paired games (common random numbers)",
    ),
    _cols(
        ("width_crn", "Float64", "the width of that interval"),
        (
            "width_independent",
            "Float64",
            "the width two independent runs of the same size would give",
        ),
        ("games", "Int64", "games per rule set"),
    ),
)

# --- strategy duels: thousand duel -------------------------------------------------------------
DUEL_SUMMARY = _table(
    "duel_summary.csv",
    "duel",
    _cols(
        ("measure", "String", "the measure's name"),
        ("value", "Float64", "its value"),
        ("ci_low", "Float64", "its interval"),
        ("ci_high", "Float64", "its interval"),
        ("n", "Int64", "the items it is computed over (deals, seat-deals, contracts, games)"),
        (
            "reference",
            "Float64",
            "what it is compared with (0 for a difference, 1 / players "
            "for the win rate); empty if nothing",
        ),
        ("difference", "Float64", "`value − reference`"),
        ("excludes_reference", "Boolean", "the interval does not contain the reference"),
        ("meaning", "String", "the measure in words"),
    ),
)
DUEL_SEATS = _table(
    "duel_seats.csv",
    "duel",
    Column("seat", "Int64", "A's seat", "both"),
    _same(
        "score_diff ci_low ci_high",
        "Float64",
        "the score difference when A sits there, with its interval",
        "both",
    ),
    _same("a_declared a_made", "Int64", "contracts A declared and made from this seat", "deals"),
    _same("a_make_rate a_ci_low a_ci_high", "Float64", "A's make rate and its interval", "deals"),
    _same("b_declared b_made", "Int64", "the same for B at this seat", "deals"),
    _same("b_make_rate b_ci_low b_ci_high", "Float64", "B's make rate and its interval", "deals"),
    _same(
        "margin_diff margin_ci_low margin_ci_high",
        "Float64",
        "the margin difference when A sits there (A's seat minus the mean of the other "
        "seats, with A there minus with B), with its interval",
        "deals",
    ),
    _same("games finished", "Int64", "games played with A here; of them finished", "games"),
    Column("a_wins", "Int64", "games A won from this seat", "games"),
    Column(
        "a_win_rate",
        "Float64",
        "`a_wins / finished` (its interval is `ci_low`, `ci_high`)",
        "games",
    ),
    _same(
        "score_ci_low score_ci_high",
        "Float64",
        "the interval of `score_diff` (games format)",
        "games",
    ),
    extra="format",
)
DUEL_DEALS = _table(
    "duel_deals.parquet",
    "duel",
    _cols(
        ("deal_id", "Int64", "the deal number"),
        ("dealer", "Int64", "the deal's dealer"),
        ("score_diff", "Float64", "the difference averaged over A's seats"),
        ("score_diff_{s}", "Float64", "the difference with A at seat `s`"),
        (
            "margin_diff",
            "Float64",
            "the margin difference averaged over A's seats: A's seat minus the mean of the "
            "other seats, with A there minus with B there (a better defence counts)",
        ),
        ("margin_diff_{s}", "Float64", "the margin difference with A at seat `s`"),
    ),
)
DUEL_GAMES = _table(
    "duel_games.parquet",
    "duel",
    _cols(
        ("game_id", "Int64", "the game number"),
        ("first_dealer", "Int64", "the game's first dealer"),
        ("score_diff", "Float64", "the difference averaged over A's seats"),
        ("a_wins", "Int64", "in how many of the seat rotations A won"),
        ("finished", "Int64", "how many of the rotations finished"),
        ("score_diff_{s}", "Float64", "the difference with A at seat `s`"),
    ),
)

# --- the report: thousand report ----------------------------------------------------------------
MARRIAGES = _table(
    "marriages.csv",
    "report",
    _cols(
        (
            "where",
            "String",
            "`hand` (forehand's dealt hand holds it), `hand_talon` "
            "(forehand's hand plus the talon hold it), `declared` (some player declared it in a "
            "deal played out)",
        ),
        (
            "suit",
            "String",
            "`S`, `C`, `D`, `H`, `A` (the ace marriage, when the rules have it) or `any`",
        ),
        ("hits", "Int64", "deals where it happened"),
        (
            "n",
            "Int64",
            "deals looked at (for `declared`: deals played out, neither redealt nor conceded)",
        ),
    ),
    _same("rate ci_low ci_high", "Float64", "`hits / n` and its interval"),
    Column("exact", "Float64", "the exact probability; empty for `declared`"),
)
DEALING_ODDS = _table(
    "dealing_odds.csv",
    "report",
    _cols(
        ("metric", "String", "the odds key (`odds.csv`)"),
        ("meaning", "String", "the key in words"),
        ("rules", "String", "the shuffled run's label, e.g. `classic (shuffled)`"),
        ("vs", "String", "the cut run's label, e.g. `classic (cut)`"),
    ),
    _same(
        "base base_ci_low base_ci_high",
        "Float64",
        "the share of shuffled deals and its Wilson interval",
    ),
    _same("other other_ci_low other_ci_high", "Float64", "the same for cut deals"),
    _same(
        "diff diff_ci_low diff_ci_high",
        "Float64",
        "`other − base` with the interval of two independent samples (conservative: the "
        "runs share every chain's first deal)",
    ),
    _cols(
        ("n_base", "Int64", "deals counted with the shuffled deck"),
        ("n_other", "Int64", "deals counted with the cut deck"),
    ),
)


COMPARE_RULES = _table(
    "report/compare_rules.csv",
    "report",
    _cols(
        ("option", "String", "an option whose value differs between the compared rule sets"),
        ("rules", "String", "a compared rule set (the base first)"),
        ("value", "String", "the option's value in it (`off` for off)"),
    ),
)


# --- the strategy guide: thousand guide (and the report's guide section) -------------------
def _guide_copy(name: str, of: Table) -> Table:
    """A guide file whose columns are another command's table's."""
    return _table(f"guide/{name}", "guide", of.columns)


_RATE_CI = _cols(
    ("ci_low", "Float64", "95 % interval, lower end"),
    ("ci_high", "Float64", "95 % interval, upper end"),
)
GUIDE_BID_CHART = _guide_copy("guide_bid_chart.csv", SAFEBIDS_SAFE["by_marriages"])
GUIDE_BID_CURVE = _guide_copy("guide_bid_curve.csv", SAFEBIDS_CURVES["by_marriages"])
GUIDE_TALON_POINTS = _table(
    "guide/guide_talon_points.csv",
    "guide",
    _cols(
        ("points_band", "Int64", "the dealt hand's card points, in bands of 10 (lower end)"),
        ("n", "Int64", "hands of the band"),
        ("measured", "Float64", "mean card points of the talon those hands took"),
        ("exact", "Float64", "its exact value: talon size × (120 − hand points) / unseen cards"),
    ),
    _RATE_CI,
)
GUIDE_COMPLETION = _table(
    "guide/guide_completion.csv",
    "guide",
    _cols(
        ("lone_halves", "Int64", "kings and queens in the dealt hand without their partner"),
        ("n", "Int64", "hands holding that many"),
        ("measured", "Float64", "share whose talon held at least one partner"),
    ),
    _RATE_CI,
    _cols(("exact", "Float64", "1 − C(unseen − h, talon) / C(unseen, talon)")),
)
GUIDE_TALON_RESHUFFLE = _table(
    "guide/guide_talon_reshuffle.csv",
    "guide",
    _cols(
        ("key", "String", "the odds key (`talon.*`, see `odds.csv`)"),
        ("meaning", "String", "the key in words"),
        ("estimate", "Float64", "simulated share of deals"),
    ),
    _RATE_CI,
    _cols(("exact", "Float64", "the exact probability")),
)
GUIDE_DISCARDS = _table(
    "guide/guide_discards.csv",
    "guide",
    _cols(
        ("suit", "String", "the suit of the king or queen given away"),
        ("gives", "Int64", "gives of a lone king or queen (its partner not among the 10 cards)"),
        ("receiver_held", "Float64", "share whose receiver was dealt the partner"),
        ("held_low", "Float64", "95 % interval, lower end"),
        ("held_high", "Float64", "95 % interval, upper end"),
        ("exact_held", "Float64", "the exact share: 1/2 (14 unseen cards, 7 to each opponent)"),
        ("declared", "Float64", "share whose receiver declared that marriage"),
        ("declared_low", "Float64", "95 % interval, lower end"),
        ("declared_high", "Float64", "95 % interval, upper end"),
        ("cost", "Float64", "the marriage's value × `declared`: points per give"),
        ("cost_low", "Float64", "the same at `declared_low`"),
        ("cost_high", "Float64", "the same at `declared_high`"),
    ),
)
GUIDE_CONCEDE = _table(
    "guide/guide_concede.csv",
    "guide",
    _cols(
        ("kept", "String", "marriages kept after the discard: none, a suit's name, `two` or more"),
        ("contract", "Int64", "the contract"),
        ("n", "Int64", "hands of the class"),
        ("p_make", "Float64", "share whose played total reaches the contract"),
    ),
    _RATE_CI,
    _cols(
        ("play", "Float64", "expected score of playing, minus the opponents' mean score"),
        ("concede", "Float64", "the score of conceding, minus what each opponent is given"),
        ("better", "String", "`play` or `concede`"),
    ),
)
GUIDE_SPECIALS = _table(
    "guide/guide_specials.csv",
    "guide",
    _cols(
        ("deal", "String", "`golden deals` or `dark deals`"),
        ("per_game", "Float64", "such deals per game (empty when off under the rules)"),
        ("note", "String", "the count, or that the rules switch them off"),
    ),
)
GUIDE_SEATS = _table(
    "guide/guide_seats.csv",
    "guide",
    _cols(
        ("seat", "String", "the seat, counted from the first dealer"),
        ("games", "Int64", "finished games"),
        ("wins", "Int64", "games won from that seat"),
        ("share", "Float64", "`wins / games`"),
    ),
    _RATE_CI,
    _cols(("fair", "Float64", "1 / players")),
)
GUIDE_DUEL = _guide_copy("guide_duel.csv", DUEL_SUMMARY)
GUIDE_PLAYER = _table(
    "guide/guide_player.csv",
    "guide",
    _cols(
        ("marriage", "String", "the dealt hand's marriage: none, a suit's name or `two`"),
        ("aces", "Int64", "its aces, 2 for two or more"),
        ("n", "Int64", "hands of the class"),
        ("level", "Int64", "the guide player's highest bid (0: pass)"),
    ),
)
GUIDE_TABLES = (
    GUIDE_BID_CHART,
    GUIDE_BID_CURVE,
    GUIDE_TALON_POINTS,
    GUIDE_COMPLETION,
    GUIDE_TALON_RESHUFFLE,
    GUIDE_DISCARDS,
    GUIDE_CONCEDE,
    GUIDE_SPECIALS,
    GUIDE_SEATS,
    GUIDE_DUEL,
    GUIDE_PLAYER,
)

TABLES: dict[str, Table] = {
    t.key: t
    for t in (
        HANDS,
        HANDS_AGG,
        GAMES,
        BARREL,
        RUN_JSON,
        ODDS,
        BID_RATES,
        BIDS_SUMMARY,
        BIDS_BY_CONTRACT,
        BIDS_BY_MARRIAGE_COUNT,
        BIDS_BY_MARRIAGE_SET,
        BIDS_BY_POINTS_BAND,
        BIDS_BY_AT_100,
        BIDS_BY_RELATIVE_SEAT,
        BIDS_BY_SEAT,
        BIDS_SAFE_BIDS,
        BIDS_PAR,
        SAFEBIDS_ITEMS,
        SAFEBIDS_HOLDOUT,
        SAFEBIDS_PLAYERS,
        *SAFEBIDS_SAFE.values(),
        *SAFEBIDS_CURVES.values(),
        SAFEBIDS_CALIBRATION,
        SAFEBIDS_CALIBRATION_SUMMARY,
        SAFEBIDS_CALIBRATION_BINS,
        SAFEBIDS_EXAMPLES,
        BARREL_SUMMARY,
        BARREL_OUTCOMES,
        BARREL_BARREL_SUMMARY,
        BARREL_ATTEMPTS_USED,
        BARREL_CLIMB_BACK,
        BARREL_GAME_LENGTH,
        BARREL_LENGTH_HISTOGRAM,
        BARREL_SEAT_RELATIVE,
        BARREL_SEAT_ABSOLUTE,
        BARREL_SEAT_CHI2,
        BARREL_EVENTS_PER_GAME,
        COMPARE,
        DUEL_SUMMARY,
        DUEL_SEATS,
        DUEL_DEALS,
        DUEL_GAMES,
        MARRIAGES,
        DEALING_ODDS,
        *GUIDE_TABLES,
        COMPARE_RULES,
    )
}
"""Every declared table by its key, in the order of docs/data.md."""

BID_TABLES = {t.file.removesuffix(".csv"): t for t in TABLES.values() if t.key.startswith("bids/")}
"""The tables of ``thousand bids`` by table name (``summary``, ``by_contract`` …)."""

BARREL_TABLES = {
    t.file.removesuffix(".csv"): t for t in TABLES.values() if t.key.startswith("barrel/")
}
"""The tables of ``thousand barrel`` by table name (``summary``, ``barrel_outcomes`` …)."""

# The files of a report folder whose table is declared under another name.
REPORT_FILES: dict[str, Table] = {
    "odds.csv": ODDS,
    "marriages.csv": MARRIAGES,
    "compare.csv": COMPARE,
    "dealing_games.csv": COMPARE,
    "dealing_odds.csv": DEALING_ODDS,
    **{f"bids_{name}.csv": t for name, t in BID_TABLES.items()},
    **{f"games_{name}.csv": t for name, t in BARREL_TABLES.items() if name != "summary"},
    "safebids_players.csv": SAFEBIDS_PLAYERS,
    "safebids_calibration.csv": SAFEBIDS_CALIBRATION,
    "safebids_examples.csv": SAFEBIDS_EXAMPLES,
    **{f"safebids_safe_{name}.csv": t for name, t in SAFEBIDS_SAFE.items()},
    **{f"safebids_curve_{name}.csv": t for name, t in SAFEBIDS_CURVES.items()},
    **{t.file: t for t in GUIDE_TABLES},
    "compare_rules.csv": COMPARE_RULES,
}


def table_of(command: str, file: str) -> Table:
    """The declared table of a file written by ``thousand COMMAND`` (``run.json`` by any).

    ``report`` names its files after the tables of the other commands
    (:data:`REPORT_FILES`); a ``compare`` folder keeps each rule set's games run in
    ``runs/NAME/`` (pass ``command="games"`` for those).

    Raises:
        KeyError: when no table is declared for the file.
    """
    if file == RUN_JSON.file:
        return RUN_JSON
    if command == "report":
        return REPORT_FILES[file]
    if command in ("bids", "barrel"):
        return TABLES[f"{command}/{file}"]
    for t in TABLES.values():
        if t.command == command and t.file == file:
            return t
    raise KeyError(f"no table declared for {file!r} of `thousand {command}`")
