"""The tables the runs write: the Parquet files of hands, games and duels, and ``run.json``.

``thousand hands`` writes ``hands.parquet`` (or ``hands_agg.parquet``), ``thousand
games`` ``games.parquet`` and ``barrel.parquet``, ``thousand duel`` its per-item file,
and every command ``run.json`` (:func:`sim.output.write_manifest` checks each against
:data:`RUN_JSON` with :func:`check_run_json`).
"""

from __future__ import annotations

from typing import Any

from sim.schema.columns import Column, cols, make_table

# --- deal runs: thousand hands --------------------------------------------------------------
HANDS = make_table(
    "hands.parquet",
    "hands",
    cols(
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
        (
            "contract",
            "Int32",
            "the contract named after the discard (at least the winning bid); a bomb's "
            '(`rospis.when = "talon"`) is the winning bid',
        ),
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
        (
            "discard_1",
            "Int32",
            "card id the declarer gave to the next player clockwise; −1 after a bomb (two "
            'players with `talon.two_players = "discard"`: the first card it laid away)',
        ),
        (
            "discard_2",
            "Int32",
            "card id given to the player after that; −1 with two players and after a bomb "
            "(laying two cards away: the second card laid away)",
        ),
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
            "the last trick, −1 when conceded (and always when laying two cards away: "
            "the other musik is nobody's)",
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
            "dealer's are the talon's points, 0 under `talon.sitter_scores = \"aces\"`; two "
            "players laying two cards away: the declarer's include the cards laid away)",
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
            "rounded points, concession amounts, four-nines bonus; a seat locked by "
            "`score.lock_at` only its own contract), before game effects",
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
            "(every card face up, best play by both sides; `thousand solve`); a bomb, "
            "thrown before any discard: the best discard's, as `par_best`",
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

HANDS_AGG = make_table(
    "hands_agg.parquet",
    "hands",
    tuple(Column(n, HANDS.column(n).dtype, "as in `hands.parquet`") for n in BID_KEYS),
    cols(
        ("declarer_hand_points", "Int32", "`hand_points_{s}` of the declarer's seat"),
        ("count", "Int64", "deals with exactly these values"),
    ),
)


# --- game runs: thousand games -------------------------------------------------------------
GAMES = make_table(
    "games.parquet",
    "games",
    cols(
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
        (
            "bolt_penalties_{s}",
            "Int32",
            "bolt penalties charged (how many, not points; none where `bolt.penalty` is 0)",
        ),
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
            "max_behind_{s}",
            "Int32",
            "the seat's largest deficit to the leading score after a played deal (0: never "
            "behind); a winner's says how far it came back from",
        ),
        (
            "role_points_{s}",
            "Int32",
            "by role, not by seat: the deal scores of the seat `{s}` places after each "
            "played deal's dealer (0: the dealer), summed over the game (over `n_deals`: "
            "the role's points a deal)",
        ),
        (
            "bank_{s}",
            "Float64",
            "the bank payoff (§8): +bank for the winner, −bank (shared on "
            "a tie) for the lowest score, 0 otherwise and without `game.bank`",
        ),
    ),
)

BARREL = make_table(
    "barrel.parquet",
    "games",
    cols(
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
RUN_JSON = make_table(
    "run.json",
    "",
    cols(
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
            "(safebids); `deals`, `hands`, `games`, `duel_deals` (guide); `deals`, "
            "`decisions_KIND` (teach); `deals`, `sampling_deals`, `pairs` (ladder)",
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
            "hands, games, compare, report, teach",
        ),
        ("params", "array", "the `--param` settings", "hands, games, compare, safebids, teach"),
        ("worlds", "integer", "the sampled worlds of every label", "teach"),
        ("kinds", "array", "the decision kinds labelled", "teach"),
        (
            "players",
            "array",
            "the players of the tables (strategies and `par`); of the ladder",
            "safebids, guide, ladder",
        ),
        (
            "risk",
            "number",
            "the make rate of the guide's safe bids (how safe a bid is, not how high to bid)",
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
            "hands, games, compare, teach",
        ),
        ("workers", "integer", "worker processes or Dask workers", "hands, games, compare, teach"),
        (
            "scheduler",
            "string",
            "the Dask scheduler (`local` or its address)",
            "hands, games, compare, teach on Dask",
        ),
        ("chunk_size", "integer", "items per chunk", "hands, games, teach"),
        (
            "chunks",
            "integer",
            "number of chunks",
            "hands, games, teach (and each of compare's `runs/NAME`)",
        ),
        ("vs", "object", "the other rule sets, `{name: rules}`", "compare"),
        (
            "skill",
            "object",
            "the skill index's games: `player` (one seat) against `against`, `games` per seat "
            "(0: none)",
            "compare",
        ),
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


DUEL_DECISIONS = (
    "none",
    "reshuffle",
    "auction",
    "discard",
    "trump",
    "contract_lower",
    "contract_higher",
    "concession",
    "declarer_play",
    "defence",
)
"""Where a seat-deal of a hands duel first differs with A there from with B there.

In the order the deal runs: nothing (``none``: the deal went alike, or A's choices
changed nothing), the reshuffle (the deal redealt in one and not the other), the
auction (A's highest bid, the declarer or the winning bid differ), and then, with the
auction alike: A declaring, its discard, the trump it names (where the declarer
names it), its contract (named lower or higher), its
concession, else its card play (``declarer_play``); another seat declaring, A's card
play as a defender (``defence``). The first difference takes the seat-deal's whole
score difference (:func:`sim.runs.duel.first_difference`).
"""

DUEL_DEALS = make_table(
    "duel_deals.parquet",
    "duel",
    cols(
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
        (
            "decision_{s}",
            "String",
            "with A at seat `s`: the first decision that differs from the deal with B there "
            "(none, reshuffle, auction, discard, trump, contract_lower, contract_higher, "
            "concession, declarer_play, defence), which the seat-deal's difference is put "
            "down to",
        ),
    ),
)
DUEL_GAMES = make_table(
    "duel_games.parquet",
    "duel",
    cols(
        ("game_id", "Int64", "the game number"),
        ("first_dealer", "Int64", "the game's first dealer"),
        ("score_diff", "Float64", "the difference averaged over A's seats"),
        ("a_wins", "Int64", "in how many of the seat rotations A won"),
        ("finished", "Int64", "how many of the rotations finished"),
        ("score_diff_{s}", "Float64", "the difference with A at seat `s`"),
    ),
)


# --- the teacher's data: thousand teach ----------------------------------------------------
_DECISION = cols(
    ("deal", "Int64", "the deal number, 0 .. deals − 1"),
    ("dealer", "Int8", "the deal's dealer (deal number mod players)"),
    ("seat", "Int8", "the seat deciding"),
    (
        "state",
        "List(Int64)",
        "the engine's state at the decision (`sim.engine.state`'s layout, `N_STATE` "
        "integers; the other seats' cards are in it: a learned player reads only what "
        "its seat may see)",
    ),
    ("worlds", "Int16", "the sampled worlds the labels are counted over"),
)
TEACH_CONTRACT = make_table(
    "teach/contract.parquet",
    "teach",
    _DECISION,
    cols(
        ("lo", "Int32", "the lowest contract the declarer may name (the bid won)"),
        ("step", "Int32", "the step between contracts"),
        ("levels", "Int16", "how many contracts it may name: `lo`, `lo + step`, …"),
        (
            "reached",
            "List(Int8)",
            "per sampled world, the highest contract index (0 is `lo`) the declarer "
            "reaches with every card face up; −1 none",
        ),
        (
            "value",
            "List(Float64)",
            "per contract, its expected deal score over the worlds: `c (2 p − 1)`, `p` "
            "the share of worlds that reach it",
        ),
        ("pimc", "Int32", "the contract of the best value: the sampling player's choice"),
    ),
)
TEACH_BID = make_table(
    "teach/bid.parquet",
    "teach",
    _DECISION,
    cols(
        ("lo", "Int32", "the lowest raise open to the seat"),
        ("step", "Int32", "the step between bids"),
        (
            "reached",
            "List(Int8)",
            "per sampled deal of the unseen cards (the seat as declarer: talon taken, the "
            "heuristic's discard, every card face up), the highest contract index from "
            "`lo` up to its kept hand's cap it reaches; −1 none",
        ),
        (
            "value",
            "List(Float64)",
            "per bid `lo + k step` (k from 0 to the highest index reached, at least one "
            "bid), the expected deal score of winning the auction there: the highest "
            "contract reached at or above it where one is, minus the bid where none is",
        ),
    ),
)
TEACH_DISCARD = make_table(
    "teach/discard.parquet",
    "teach",
    _DECISION,
    cols(
        (
            "cards",
            "List(Int8)",
            "the candidate cards to give away (the heuristic's cheapest, cheapest first)",
        ),
        (
            "score",
            "List(Float64)",
            "each candidate's expected deal score over the same worlds: its best "
            "contract's, the rest of the hand kept",
        ),
        ("pimc", "Int8", "the candidate of the best score: the sampling player's choice"),
    ),
)
TEACH_PLAY = make_table(
    "teach/play.parquet",
    "teach",
    _DECISION,
    cols(
        ("declarer", "Boolean", "the seat deciding is the declarer"),
        ("trick", "Int8", "the trick, from 0"),
        ("contract", "Int32", "the contract"),
        (
            "codes",
            "List(Int16)",
            "the legal moves: card ids, a declaring lead 24 + the card",
        ),
        (
            "made",
            "List(Int16)",
            "per move, in how many worlds the declarer still reaches the contract after "
            "it, every card face up (the declarer wants most, a defender fewest); "
            "decisions where the contract is already reached are left out",
        ),
    ),
)
TEACH_OUTCOME = make_table(
    "teach/outcome.parquet",
    "teach",
    _DECISION,
    cols(
        ("lo", "Int32", "the lowest contract the declarer may name (the bid won)"),
        ("step", "Int32", "the step between contracts"),
        ("levels", "Int16", "how many contracts it may name: `lo`, `lo + step`, …"),
        ("contract", "Int32", "the contract the player named"),
        (
            "total",
            "Int32",
            "the declarer's deal total (card points and marriages) when the dealt deal "
            "is played to its end by the player at every seat, no seat conceding: the "
            "contracts it makes are those whose least total is at most this (`worlds` "
            "is 1, the dealt one; no search)",
        ),
    ),
)
TEACH_TABLES = (TEACH_CONTRACT, TEACH_BID, TEACH_DISCARD, TEACH_PLAY, TEACH_OUTCOME)
"""The teacher's files, by decision kind (``thousand teach --kinds``)."""

RUN_TABLES = (
    HANDS, HANDS_AGG, GAMES, BARREL, RUN_JSON, DUEL_DEALS, DUEL_GAMES, *TEACH_TABLES
)  # fmt: skip
"""The tables of the runs, in the order of docs/data.md."""
