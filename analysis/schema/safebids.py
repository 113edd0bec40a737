"""The tables of ``thousand safebids``: items, safe bids, curves, calibration, examples."""

from __future__ import annotations

from sim.schema.columns import Table, cols, make_table

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
_ITEM_COLUMNS = cols(
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
SAFEBIDS_ITEMS = make_table("safebids/items.parquet", "safebids", _ITEM_COLUMNS)
SAFEBIDS_HOLDOUT = make_table("safebids/holdout_items.parquet", "safebids", _ITEM_COLUMNS)
SAFEBIDS_PLAYERS = make_table(
    "safebids/players.csv",
    "safebids",
    cols(
        _PLAYER,
        ("deals", "Int64", "deals played (each gives every dealt hand as the declarer's)"),
        ("hands", "Int64", "dealt hands played as the declarer's"),
        ("mean_total", "Float64", "their mean deal total"),
        ("se_total", "Float64", "its standard error"),
        ("who", "String", "the player in words"),
    ),
)


def _safe_table(name: str, keys: tuple[str, ...]) -> Table:
    return make_table(
        f"safebids/safe_{name}.csv",
        "safebids",
        cols(
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
    return make_table(
        f"safebids/curve_{name}.csv",
        "safebids",
        cols(
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
SAFEBIDS_CALIBRATION = make_table(
    "safebids/calibration.csv",
    "safebids",
    cols(
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
SAFEBIDS_CALIBRATION_SUMMARY = make_table(
    "safebids/calibration_summary.csv",
    "safebids",
    cols(
        _PLAYER,
        ("cells", "Int64", "class-level cells with 30 or more hands on both seeds"),
        ("within_2se", "Int64", "cells with `|z| <= 1.96`"),
        ("share_within_2se", "Float64", "`within_2se / cells` (about 0.95 when calibrated)"),
        ("max_abs_z", "Float64", "the largest `|z|`"),
    ),
)
SAFEBIDS_CALIBRATION_BINS = make_table(
    "safebids/calibration_bins.csv",
    "safebids",
    cols(
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
SAFEBIDS_EXAMPLES = make_table(
    "report/safebids_examples.csv",
    "report",
    cols(
        ("hand", "String", "the example hand (forehand's 7 cards)"),
        ("player", "String", "who played the sampled deals: `strong`, `heuristic` or `par`"),
        ("deals", "Int64", "sampled deals of the unseen cards"),
        ("P(make 100) [95 % CI]", "String", "the share of deals the hand makes 100, with interval"),
        ("P(make 120) [95 % CI]", "String", "the same for 120"),
        ("bid up to (75 %)", "String", "the highest level whose interval starts at 75 % or more"),
        (
            "best contract",
            "String",
            "the advisor's choice: the level to bid up to whose plan, played out on the same "
            "deals, scores the best margin (the hand's deal score minus the others' mean), or "
            "`pass`",
        ),
        (
            "passing scores [95 % CI]",
            "String",
            "the hand's own mean deal score when it passes (the pass played out), with interval",
        ),
        ("margin of the choice [95 % CI]", "String", "the choice's mean margin, with interval"),
    ),
)
